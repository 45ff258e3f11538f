/**
 * Prometheus metrics of one gateway process. They live in their own registry (so tests can
 * build several apps in one process) and are served together with the process-wide default
 * metrics that @shellgrade/http registers.
 */
import client, { Counter, Histogram, Registry } from 'prom-client';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyPath } from './route-table';
import type { UpstreamErrorKind } from './upstream-errors';

/** exercise | leftover (proxied), preflight, local (health/metrics/docs), not_found. */
export type RequestClass = 'exercise' | 'leftover' | 'preflight' | 'local' | 'not_found';

/** Status label for a client that went away before the response finished (nginx's 499). */
export const CLIENT_CLOSED_STATUS = 499;

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'sg_gateway_requests_total',
    help: 'Requests handled by the gateway, by route class, method and status',
    labelNames: ['route_class', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'sg_gateway_request_duration_seconds',
    help: 'Time from request arrival to the last response byte, by route class and status',
    labelNames: ['route_class', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly upstreamErrors = new Counter({
    name: 'sg_gateway_upstream_errors_total',
    help: 'Failed upstream exchanges, by upstream and kind (timeout, refused, reset, down, ...)',
    labelNames: ['upstream', 'kind'] as const,
    registers: [this.registry],
  });

  observeRequest(routeClass: RequestClass, method: string, status: number, seconds: number): void {
    const code = String(status);
    this.requests.inc({ route_class: routeClass, method, status: code });
    this.duration.observe({ route_class: routeClass, status: code }, seconds);
  }

  upstreamError(upstream: string, kind: UpstreamErrorKind): void {
    this.upstreamErrors.inc({ upstream, kind });
  }

  /** Exposition text: process defaults (global registry) + gateway metrics. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([client.register, this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }

  /** Connect-style middleware timing every request, labelled by route class (bounded cardinality). */
  middleware() {
    return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
      const started = process.hrtime.bigint();
      const record = (status: number) =>
        this.observeRequest(requestClass(req, res.statusCode), req.method ?? 'GET', status, Number(process.hrtime.bigint() - started) / 1e9);
      res.once('finish', () => record(res.statusCode));
      res.once('close', () => {
        if (!res.writableFinished) record(CLIENT_CLOSED_STATUS);
      });
      next();
    };
  }
}

function requestClass(req: IncomingMessage, status: number): RequestClass {
  const route = classifyPath(req.url ?? '/');
  if (route.kind === 'proxy') return req.method === 'OPTIONS' ? 'preflight' : route.upstream;
  return status === 404 ? 'not_found' : 'local';
}
