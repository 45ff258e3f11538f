/**
 * When and how much JSON a service parses. JSON.parse runs on the event loop: the archive routes
 * accept ~15 MB of JSON (the SPA's byte map), and a handful of such bodies from anyone, parsed
 * before the login check, held a service's loop for seconds. So:
 *
 * - the API's JSON (/api/...) is parsed by JsonBodiesAfterGuards, an interceptor that @JsonBody()
 *   binds to the routes that take a body: Nest runs interceptors after every guard, so a request
 *   the AuthGuard refuses (no login, an expired or forged one, a role that may not call the route)
 *   is answered 401/403 with its body unread. What is read then depends on who calls: a request
 *   the guard authenticated (it set `req.user`) gets its route's limit (the archive limit on the
 *   archive routes, body-limit.ts), anyone else (a login) PRE_AUTH_JSON_LIMIT_BYTES. Bound per
 *   route, not globally: any interceptor puts a request through Nest's rxjs chain (~50 µs of CPU),
 *   and most requests (pages, lists, polls) carry no body;
 * - any other path (the console's /ops, served by plain Express handlers that run before Nest's
 *   routes) gets PRE_AUTH_JSON_LIMIT_BYTES up front (jsonBeforeAuthentication).
 *
 * Multipart is multer's (an interceptor too, bounded by the archive limit), not parsed here.
 */
import { Body, type CallHandler, type ExecutionContext, type NestInterceptor, type PipeTransform, type Type, UseInterceptors } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { DomainError } from '@shellgrade/domain';
import express, { type NextFunction, type Request, type Response } from 'express';
import client from 'prom-client';
import type { Observable } from 'rxjs';
import { bodyLimitFor, carriesArchiveJson, PRE_AUTH_JSON_LIMIT_BYTES, readableSize, SMALL_JSON_LIMIT_BYTES } from './body-limit';

/** Who a parsed body came from: whether a guard had authenticated the request before its body was read. */
export type JsonCaller = 'anonymous' | 'authenticated';

/**
 * Bodies handed to JSON.parse, by caller. Anonymous ones are bounded by PRE_AUTH_JSON_LIMIT_BYTES;
 * an operator (and the tests) can see that nobody's megabytes are parsed before a login check.
 */
export const jsonBodiesParsed = new client.Counter({
  name: 'shellgrade_http_json_bodies_parsed_total',
  help: 'JSON request bodies parsed, by whether the caller was authenticated before the body was read',
  labelNames: ['caller'] as const,
});

const API_PATHS = /^\/api(\/|$)/i;

export type JsonBodyParser = (req: Request, res: Response) => Promise<void>;

/** express.json with `limit`, as a promise; an over-large body becomes a 413 saying `tooLarge`. */
function parserWithLimit(limit: number, caller: JsonCaller, tooLarge: string): JsonBodyParser {
  // verify runs once the body is read, right before JSON.parse: counts exactly the bodies parsed.
  const parse = express.json({ limit, verify: () => jsonBodiesParsed.inc({ caller }) });
  return (req, res) =>
    new Promise((resolve, reject) => {
      parse(req, res, (error?: unknown) => {
        if (!error) return resolve();
        const tooLargeError = (error as { type?: string }).type === 'entity.too.large';
        reject(tooLargeError ? new DomainError('too-large', tooLarge, { limit_bytes: limit }) : error);
      });
    });
}

const anonymousParser = (): JsonBodyParser =>
  parserWithLimit(
    PRE_AUTH_JSON_LIMIT_BYTES,
    'anonymous',
    `request body too large: before logging in, a JSON body may be at most ${readableSize(PRE_AUTH_JSON_LIMIT_BYTES)}`,
  );

/**
 * The JSON of every path but the API's, parsed before anything checks a login, so bounded by
 * PRE_AUTH_JSON_LIMIT_BYTES. The API's is left unread here, for JsonBodiesAfterGuards.
 */
export function jsonBeforeAuthentication(): (req: Request, res: Response, next: NextFunction) => void {
  const parse = anonymousParser();
  // Named so: Nest adds its own JSON parser (100 KB, before every guard) at init unless the app was
  // created with bodyParser: false, as the services are, or one named jsonParser is already in place
  // (ExpressAdapter.registerParserMiddleware), as in the apps tests build.
  return function jsonParser(req, res, next) {
    if (API_PATHS.test(req.path)) return next();
    parse(req, res).then(() => next(), next);
  };
}

/**
 * Where configureHttpApp leaves the app's archive-route parser (archiveJsonParser, an Express app
 * setting): the interceptor is one instance for every app a process builds, the limit is the app's.
 */
export const ARCHIVE_JSON_PARSER_SETTING = 'shellgrade.archiveJsonParser';

/** The archive routes' JSON parser: bodyLimitFor(maxArchiveBytes), for authenticated callers. */
export function archiveJsonParser(maxArchiveBytes: number): JsonBodyParser {
  const limit = bodyLimitFor(maxArchiveBytes);
  return parserWithLimit(
    limit,
    'authenticated',
    `request body too large: at most ${readableSize(limit)} of JSON is accepted here, enough for an archive of ${readableSize(maxArchiveBytes)} (the largest accepted); make the archive smaller`,
  );
}

/** The API's JSON, parsed after the guards (see the top of this file). Bound to a route by @JsonBody(). */
export class JsonBodiesAfterGuards implements NestInterceptor {
  private readonly anonymous = anonymousParser();
  private readonly authenticated = parserWithLimit(SMALL_JSON_LIMIT_BYTES, 'authenticated', `request body too large: this route accepts at most ${readableSize(SMALL_JSON_LIMIT_BYTES)} of JSON`);

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (ctx.getType() === 'http') {
      const http = ctx.switchToHttp();
      const req = http.getRequest<Request & { user?: unknown }>();
      await this.parserFor(req)(req, http.getResponse<Response>());
    }
    return next.handle();
  }

  private parserFor(req: Request & { user?: unknown }): JsonBodyParser {
    // The AuthGuard puts who calls on req.user once it has checked the login.
    if (req.user === undefined) return this.anonymous;
    return carriesArchiveJson(req.path) ? appArchiveParser(req) : this.authenticated;
  }
}

function appArchiveParser(req: Request): JsonBodyParser {
  const parse: unknown = req.app.get(ARCHIVE_JSON_PARSER_SETTING);
  if (typeof parse !== 'function') throw new Error(`no archive-route JSON parser: configureHttpApp sets the app's ${ARCHIVE_JSON_PARSER_SETTING}`);
  return parse as JsonBodyParser;
}

const jsonBodiesAfterGuards = new JsonBodiesAfterGuards();

/**
 * @Body() for the API's routes: the route's JSON, read and parsed once its guards have passed
 * (JsonBodiesAfterGuards, bound to this route only). A route's body is read through this, never
 * through Nest's @Body(), which would leave it unread (libs/api json-body-routes.spec holds every route to it).
 */
export function JsonBody(...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator {
  const body = Body(...pipes);
  return (target, key, index) => {
    body(target, key, index);
    const handler = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
    if (!handler) throw new Error('@JsonBody() marks a parameter of a route handler');
    if (!parsesJsonBody(handler.value)) UseInterceptors(jsonBodiesAfterGuards)(target, key!, handler);
  };
}

/** Whether `handler` (a route method) parses its JSON body after its guards: it was given @JsonBody(). */
export function parsesJsonBody(handler: object): boolean {
  const bound: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
  return bound.includes(jsonBodiesAfterGuards);
}
