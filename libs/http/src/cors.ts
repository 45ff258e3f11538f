import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';

/**
 * CORS for browser origins with credentials (the SPA sends cookies). '*' means "reflect the
 * request's Origin", because a literal '*' is not allowed together with credentials.
 */
export function corsOptions(origins: string): CorsOptions {
  const list = origins
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    origin: list.includes('*') ? true : list,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'traceparent', 'tracestate', 'X-Requested-With'],
    exposedHeaders: ['Retry-After', 'traceparent'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  };
}
