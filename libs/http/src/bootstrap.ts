/**
 * Creates and starts a NestJS HTTP service with the concerns every shellgrade service
 * shares: cookies, body limits (JSON parsed after authentication, small before it; no form bodies), CORS (+ OPTIONS
 * on every route), the cross-site guard (csrf.ts), no framing by other sites, problem+json errors,
 * request metrics, OpenAPI docs at /docs (for whom `opsAccess` says), graceful shutdown.
 */
import 'reflect-metadata';
import { Logger, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { withApiContract } from '@shellgrade/api-contract';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import { corsOptions } from './cors';
import { crossSiteGuard } from './csrf';
import { denyFraming } from './frame-denial';
import { opsEndpointsGate, type OpsAccess } from './internal-request';
import { ARCHIVE_JSON_PARSER_SETTING, archiveJsonParser, jsonBeforeAuthentication } from './json-bodies';
import { httpMetricsMiddleware } from './observability';
import { problem, sendProblem } from './problem';
import { ProblemFilter } from './problem.filter';

export interface HttpAppOptions {
  title: string;
  /** Comma-separated browser origins allowed to call with credentials; empty: none (same-origin app). */
  corsOrigins: string;
  /** The archive limit; the body limit is derived from it (bodyLimitFor), so the two never disagree. */
  maxArchiveBytes: number;
  /** Parse JSON bodies (false for pure proxies). No form body is ever parsed: no page of ours posts one. */
  parseBodies?: boolean;
  /** Who reads /metrics, /docs and /health detail. */
  opsAccess: OpsAccess;
  /** The installation's scrape token: opens /metrics, /docs and /health detail to whoever presents it (Authorization: Bearer). */
  scrapeToken?: string;
  /** Names besides localhost and the loopback addresses this machine's callers address it by (SG_OPS_HOST_NAMES): the loopback credential holds for them too (internal-request.ts). */
  opsHostNames?: string[];
  /** Idle client connections are kept this long (spec: http.keepAliveMs, longer than the callers' idle timeouts). */
  keepAliveMs: number;
  /** A request taking longer is cut (spec: http.requestTimeoutMs). */
  requestTimeoutMs: number;
  /**
   * Proxies whose X-Forwarded-* headers are believed (express `trust proxy`): the client address
   * keys the per-client rate limits and X-Forwarded-Proto makes cookies Secure, so a client must
   * not be able to forge them. Services are given their variant's own proxies (libs/wiring
   * trusted-proxies.ts; [] trusts none); the default, for apps built by tests, is loopback.
   */
  trustProxy?: string[];
}

export const DEFAULT_TRUST_PROXY = ['loopback'];

export async function createHttpApp(module: Type<unknown> | DynamicModule, opts: HttpAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bodyParser: false,
    logger: ['error', 'warn', 'log'],
  });
  configureHttpApp(app, opts);
  return app;
}

/** Applies the shared concerns to an app (also used by tests built with @nestjs/testing). */
export function configureHttpApp(app: NestExpressApplication, opts: HttpAppOptions): void {
  app.set('trust proxy', opts.trustProxy ?? DEFAULT_TRUST_PROXY);
  setServerTimeouts(app, opts);
  app.use(httpMetricsMiddleware);
  app.use(denyFraming);
  app.enableCors(corsOptions(opts.corsOrigins));
  app.use(opsEndpointsGate(opts.opsAccess, { scrapeToken: opts.scrapeToken, hostNames: opts.opsHostNames }));
  // After CORS (it answers preflights), before any body is read.
  app.use(crossSiteGuard(opts.corsOrigins));
  app.use(cookieParser());
  if (opts.parseBodies !== false) {
    app.use(refuseFormBodies);
    // Only the API's routes check logins, in their guards: their JSON waits for them (@JsonBody, json-bodies.ts).
    app.use(jsonBeforeAuthentication());
    app.set(ARCHIVE_JSON_PARSER_SETTING, archiveJsonParser(opts.maxArchiveBytes));
  }
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();
  const doc = new DocumentBuilder()
    .setTitle(opts.title)
    .setDescription('shellgrade HTTP contract (docs/design.md, HTTP contract)')
    .addCookieAuth('access_token')
    .addBearerAuth()
    .build();
  // The public API's bodies (libs/api-contract) as components, which the controllers' responses refer to.
  SwaggerModule.setup('docs', app, () => withApiContract(SwaggerModule.createDocument(app, doc)));
}

/** A form-encoded body is refused, not parsed: no page of ours posts one, and a cross-site form is how login CSRF starts. */
function refuseFormBodies(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/x-www-form-urlencoded')) return next();
  sendProblem(res, problem(415, 'form-encoded bodies are not accepted: send JSON (Content-Type: application/json), or multipart/form-data for an archive'));
}

/** Keeps idle connections longer than any caller in front of us does, so a reused connection is never cut mid-request. */
function setServerTimeouts(app: INestApplication, opts: Pick<HttpAppOptions, 'keepAliveMs' | 'requestTimeoutMs'>): void {
  const server = app.getHttpServer();
  server.keepAliveTimeout = opts.keepAliveMs;
  // Node wants the header deadline above the keep-alive timeout (a request arriving as the socket idles out).
  server.headersTimeout = opts.keepAliveMs + 1000;
  server.requestTimeout = opts.requestTimeoutMs;
}

/** Where a service listens, and how many connections the kernel may hold for it before it accepts them (spec: http.listenBacklog). */
export interface ListenAddress {
  host: string;
  port: number;
  backlog: number;
}

/** Nest's listen hands its arguments on to node's server.listen(port, host, backlog, callback); its type names port and host only. */
type ListenWithBacklog = (port: number, host: string, backlog: number) => Promise<unknown>;

export async function listen(app: INestApplication, at: ListenAddress, name: string): Promise<void> {
  await (app.listen as unknown as ListenWithBacklog).call(app, at.port, at.host, at.backlog);
  new Logger(name).log(`listening on http://${at.host}:${at.port}`);
}
