/**
 * Creates and starts a NestJS HTTP service with the concerns every shellgrade service
 * shares: cookies, body limits, CORS (+ OPTIONS on every route), problem+json errors,
 * request metrics, OpenAPI docs at /docs, graceful shutdown.
 */
import 'reflect-metadata';
import { Logger, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { corsOptions } from './cors';
import { httpMetricsMiddleware } from './observability';
import { ProblemFilter } from './problem.filter';

export interface HttpAppOptions {
  title: string;
  corsOrigins: string;
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** Parse JSON/urlencoded bodies (false for pure proxies). */
  parseBodies?: boolean;
}

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
  app.set('trust proxy', true);
  app.use(httpMetricsMiddleware);
  app.enableCors(corsOptions(opts.corsOrigins));
  app.use(cookieParser());
  if (opts.parseBodies !== false) {
    app.useBodyParser('json', { limit: opts.bodyLimitBytes });
    app.useBodyParser('urlencoded', { limit: opts.bodyLimitBytes, extended: false });
  }
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();
  const doc = new DocumentBuilder()
    .setTitle(opts.title)
    .setDescription('shellgrade HTTP contract (DESIGN §4)')
    .addCookieAuth('access_token')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, doc));
}

export async function listen(app: INestApplication, host: string, port: number, name: string): Promise<void> {
  const server = app.getHttpServer();
  // Longer than any proxy's idle timeout in front of us, so a reused connection is never cut mid-request.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
  await app.listen(port, host);
  new Logger(name).log(`listening on http://${host}:${port}`);
}
