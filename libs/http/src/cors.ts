import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';

/**
 * CORS for the browser origins listed (the SPA sends cookies, so credentials are allowed for
 * them only). Empty by default: the web app is served same-origin and needs no CORS. `*`
 * allows any origin WITHOUT credentials: a page on another site can never call the API with
 * a student's cookies. Preflights are answered (204) either way, so every route has its OPTIONS.
 */
export function corsOptions(origins: string): CorsOptions {
  const list = origins
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const anyOrigin = list.includes('*');
  return {
    origin: anyOrigin ? '*' : list,
    credentials: !anyOrigin,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key', 'traceparent', 'tracestate', 'X-Requested-With'],
    exposedHeaders: ['Retry-After', 'traceparent'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  };
}
