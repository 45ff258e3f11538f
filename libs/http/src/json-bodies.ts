/**
 * When and how much JSON a service parses. JSON.parse runs on the event loop: the archive routes
 * accept ~15 MB of JSON (the SPA's byte map), and a handful of such bodies from anyone, parsed
 * before the login check, held a service's loop for seconds. So:
 *
 * - the API's JSON (/api/...) is parsed by JsonBodiesAfterGuards, a global interceptor: Nest runs
 *   interceptors after every guard, so a request the AuthGuard refuses (no login, an expired or
 *   forged one, a role that may not call the route) is answered 401/403 with its body unread.
 *   What is read then depends on who calls: a request the guard authenticated (it set `req.user`)
 *   gets its route's limit (the archive limit on the archive routes, body-limit.ts), anyone else
 *   (a login) PRE_AUTH_JSON_LIMIT_BYTES;
 * - any other path (the console's /ops, served by plain Express handlers that run before Nest's
 *   routes) gets PRE_AUTH_JSON_LIMIT_BYTES up front (jsonBeforeAuthentication).
 *
 * Multipart is multer's (an interceptor too, bounded by the archive limit), not parsed here.
 */
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
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

type Parse = (req: Request, res: Response) => Promise<void>;

/** express.json with `limit`, as a promise; an over-large body becomes a 413 saying `tooLarge`. */
function parserWithLimit(limit: number, caller: JsonCaller, tooLarge: string): Parse {
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

const anonymousParser = (): Parse =>
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

/** The API's JSON, parsed after the guards (see the top of this file). Bound globally by configureHttpApp. */
@Injectable()
export class JsonBodiesAfterGuards implements NestInterceptor {
  private readonly anonymous = anonymousParser();
  private readonly authenticated: Parse;
  private readonly archive: Parse;

  constructor(maxArchiveBytes: number) {
    this.authenticated = parserWithLimit(SMALL_JSON_LIMIT_BYTES, 'authenticated', `request body too large: this route accepts at most ${readableSize(SMALL_JSON_LIMIT_BYTES)} of JSON`);
    const archiveLimit = bodyLimitFor(maxArchiveBytes);
    this.archive = parserWithLimit(
      archiveLimit,
      'authenticated',
      `request body too large: at most ${readableSize(archiveLimit)} of JSON is accepted here, enough for an archive of ${readableSize(maxArchiveBytes)} (the largest accepted); make the archive smaller`,
    );
  }

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (ctx.getType() === 'http') {
      const http = ctx.switchToHttp();
      const req = http.getRequest<Request & { user?: unknown }>();
      await this.parserFor(req)(req, http.getResponse<Response>());
    }
    return next.handle();
  }

  private parserFor(req: Request & { user?: unknown }): Parse {
    // The AuthGuard puts who calls on req.user once it has checked the login.
    if (req.user === undefined) return this.anonymous;
    return carriesArchiveJson(req.path) ? this.archive : this.authenticated;
  }
}
