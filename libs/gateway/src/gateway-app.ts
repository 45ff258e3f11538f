/**
 * Builds the gateway NestJS application (not yet listening). Middleware order matters:
 * metrics → CORS (answers every OPTIONS preflight itself) → login check (pattern offloading) →
 * composite endpoints (pattern aggregation) → proxy for /api → Nest routes
 * (/health, /metrics, /docs) → problem+json 404 for anything else.
 *
 * Everything up to the proxy runs in front of Express (a bare router on the server's request
 * event): a proxied request or a preflight never enters the Express app, whose per-request
 * work (swapping the prototypes of req and res, its own router, query parsing) was a fifth of
 * the gateway's CPU in msa-1-2. What the front chain passes on — Nest's
 * routes, the web app, a 404 — is served by Express as before.
 */
import 'reflect-metadata';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import cors from 'cors';
import { Router, type RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SwaggerModule } from '@nestjs/swagger';
import { corsOptions, opsEndpointsGate, problem, ProblemFilter, sendProblem } from '@shellgrade/http';
import type { GatewayConfig } from './gateway-config';
import { GatewayMetrics } from './gateway-metrics';
import { gatewayOpenApi } from './gateway-openapi';
import { createGatewayProxy, type GatewayMiddleware } from './gateway-proxy';
import { EdgeClient } from '@shellgrade/grpc-edge';
import { TrustedProxies } from '@shellgrade/auth';
import { createGrpcForwarder } from './grpc-forwarder';
import { createDashboardAggregator } from './aggregation/dashboard-aggregator';
import { createIdentityOffloader, type IdentityOffloading } from './offloading/identity-offloader';
import { grpcUpstreamReader, httpUpstreamReader, type ReadUpstream } from './aggregation/upstream-reader';
import { GatewayModule, type GatewayState } from './gateway.module';
import { UpstreamPool } from './upstream-pool';

const log = new Logger('Gateway');

export interface GatewayAppOptions {
  logger?: LogLevel[] | false;
  /** gateway.pattern offloading: the login check made here (libs/wiring builds it: it needs the database). */
  offloading?: IdentityOffloading;
}

export async function createGatewayApp(config: GatewayConfig, options: GatewayAppOptions = {}): Promise<NestExpressApplication> {
  const poolOptions = {
    downCooldownMs: config.downCooldownMs,
    maxSockets: config.upstreamMaxSockets,
    maxFreeSockets: config.upstreamMaxFreeSockets,
  };
  const state: GatewayState = {
    config,
    metrics: new GatewayMetrics(),
    upstreams: {
      exercise: new UpstreamPool('exercise', config.exerciseUrls, poolOptions),
      leftover: new UpstreamPool('leftover', config.leftoverUrls, poolOptions),
    },
  };
  // No body parser anywhere: proxied bodies must reach the upstream byte for byte.
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(state), new ExpressAdapter(), {
    bodyParser: false,
    logger: options.logger ?? ['error', 'warn', 'log'],
  });
  app.disable('x-powered-by');
  serveInFrontOfExpress(app, [
    state.metrics.middleware(),
    cors(corsOptions(config.corsOrigins)),
    opsEndpointsGate(config.opsAccess, { scrapeToken: config.scrapeToken, hostNames: config.opsHostNames }),
    ...(options.offloading ? [createIdentityOffloader(options.offloading)] : []),
    ...upstreamMiddleware(state, app),
  ]);
  app.useGlobalFilters(new ProblemFilter());
  SwaggerModule.setup('docs', app, () => gatewayOpenApi(app, config));

  const server = app.getHttpServer();
  // Longer than the idle timeout of whatever sits in front (HAProxy, k6), so a reused
  // client connection is never closed under an in-flight request.
  server.keepAliveTimeout = config.clientKeepAliveMs;
  server.headersTimeout = config.clientKeepAliveMs + 1000;
  return app;
}

/**
 * Runs `middlewares` (connect-style) on each request before the Express app: what they pass on
 * goes to Express. An error one of them throws or passes on is a bug of ours: a 500 problem, logged.
 */
function serveInFrontOfExpress(app: NestExpressApplication, middlewares: GatewayMiddleware[]): void {
  const front = Router();
  for (const middleware of middlewares) front.use(middleware as unknown as RequestHandler);
  const server = app.getHttpServer();
  const express = app.getHttpAdapter().getInstance() as (req: IncomingMessage, res: ServerResponse) => void;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    front(req as never, res as never, (err?: unknown) => {
      if (!err) return express(req, res);
      log.error(err);
      if (res.headersSent) res.destroy();
      else sendProblem(res, problem(500, 'the gateway failed to route this request'));
    });
  });
}

/**
 * The spec's transport: the HTTP proxy, or (grpc) Edge calls to the services' gRPC edges; with
 * gateway.pattern aggregation, the composite endpoints first, reading over the same transport.
 */
function upstreamMiddleware(state: GatewayState, app: NestExpressApplication): GatewayMiddleware[] {
  const { config, metrics } = state;
  const proxies = new TrustedProxies(config.trustedProxies ?? []);
  if (!config.grpc) {
    return [
      ...aggregation(config, httpUpstreamReader(state.upstreams), proxies),
      createGatewayProxy({ upstreams: state.upstreams, timeoutMs: config.upstreamTimeoutMs, metrics, proxies }),
    ];
  }
  const { maxBodyBytes } = config.grpc;
  const clients = {
    exercise: new EdgeClient(config.grpc.exerciseTarget, { maxBodyBytes }),
    leftover: new EdgeClient(config.grpc.leftoverTarget, { maxBodyBytes }),
  };
  app.getHttpServer().once('close', () => {
    clients.exercise.close();
    clients.leftover.close();
  });
  return [...aggregation(config, grpcUpstreamReader(clients, maxBodyBytes), proxies), createGrpcForwarder({ clients, timeoutMs: config.upstreamTimeoutMs, maxBodyBytes, metrics, proxies })];
}

function aggregation(config: GatewayConfig, read: ReadUpstream, proxies: TrustedProxies): GatewayMiddleware[] {
  return config.pattern === 'aggregation' ? [createDashboardAggregator({ read, timeoutMs: config.upstreamTimeoutMs, proxies })] : [];
}
