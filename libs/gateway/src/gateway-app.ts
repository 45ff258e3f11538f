/**
 * Builds the gateway NestJS application (not yet listening). Middleware order matters:
 * metrics → CORS (answers every OPTIONS preflight itself) → login check (pattern offloading) →
 * composite endpoints (pattern aggregation) → proxy for /api → Nest routes
 * (/health, /metrics, /docs) → problem+json 404 for anything else.
 */
import 'reflect-metadata';
import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { corsOptions, opsEndpointsGate, ProblemFilter } from '@shellgrade/http';
import type { GatewayConfig } from './gateway-config';
import { GatewayMetrics } from './gateway-metrics';
import { gatewayOpenApi } from './gateway-openapi';
import { createGatewayProxy, type GatewayMiddleware } from './gateway-proxy';
import { EdgeClient } from '@shellgrade/grpc-edge';
import { createGrpcForwarder } from './grpc-forwarder';
import { createDashboardAggregator } from './aggregation/dashboard-aggregator';
import { createIdentityOffloader, type IdentityOffloading } from './offloading/identity-offloader';
import { grpcUpstreamReader, httpUpstreamReader, type ReadUpstream } from './aggregation/upstream-reader';
import { GatewayModule, type GatewayState } from './gateway.module';
import { UpstreamPool } from './upstream-pool';

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
  app.use(state.metrics.middleware());
  app.enableCors(corsOptions(config.corsOrigins));
  app.use(opsEndpointsGate(config.opsAccess, { scrapeToken: config.scrapeToken }));
  if (options.offloading) app.use(createIdentityOffloader(options.offloading));
  app.use(upstreamMiddleware(state, app));
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
 * The spec's transport: the HTTP proxy, or (grpc) Edge calls to the services' gRPC edges; with
 * gateway.pattern aggregation, the composite endpoints first, reading over the same transport.
 */
function upstreamMiddleware(state: GatewayState, app: NestExpressApplication): GatewayMiddleware[] {
  const { config, metrics } = state;
  if (!config.grpc) {
    return [
      ...aggregation(config, httpUpstreamReader(state.upstreams)),
      createGatewayProxy({ upstreams: state.upstreams, timeoutMs: config.upstreamTimeoutMs, metrics }),
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
  return [...aggregation(config, grpcUpstreamReader(clients, maxBodyBytes)), createGrpcForwarder({ clients, timeoutMs: config.upstreamTimeoutMs, maxBodyBytes, metrics })];
}

function aggregation(config: GatewayConfig, read: ReadUpstream): GatewayMiddleware[] {
  return config.pattern === 'aggregation' ? [createDashboardAggregator({ read, timeoutMs: config.upstreamTimeoutMs })] : [];
}
