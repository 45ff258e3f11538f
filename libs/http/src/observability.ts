/**
 * /health and Prometheus /metrics, shared by every service. Health checks are pluggable
 * so a service reports "not ready" while its database or broker is unreachable.
 */
import { Controller, Get, Header, Inject, Module, Req, Res, type DynamicModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import client from 'prom-client';
import { mayReadOps, type OpsAccess } from './internal-request';

export const HEALTH_CHECKS = Symbol('HealthChecks');
export type HealthCheck = { name: string; check: () => Promise<void> };
export interface ServiceIdentity {
  role: string;
  replica: number;
  variant: string;
}
export const SERVICE_IDENTITY = Symbol('ServiceIdentity');
const OPS_ACCESS = Symbol('OpsAccess');

/**
 * Event-loop lag sampled every 100 ms, not prom-client's default 10 ms: its timer woke every replica
 * ~200 times a second, ~4 ms of CPU a second while idle, which is CPU per iteration at the paper's
 * low rates and counted once per process (5 in msa-1-2). The login gate keeps its own finer
 * monitor (libs/event-loop-pressure) where a spec asks for it.
 */
const EVENT_LOOP_MONITORING_PRECISION_MS = 100;
client.collectDefaultMetrics({ eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS });

export const httpDuration = new client.Histogram({
  name: 'shellgrade_http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1.2, 2.5, 5, 10, 30, 60],
});

/**
 * Express middleware timing every request. The route label is the matched route template
 * (`/api/exercise/:id`), never the raw path: a request no route matched (a 404, a body-parser
 * error, a preflight) is `unmatched`, so label cardinality stays bounded whatever clients send.
 */
export function httpMetricsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const end = httpDuration.startTimer();
  res.on('finish', () => {
    end({ method: metricMethod(req.method), route: routeLabel(req), status: String(res.statusCode) });
  });
  next();
}

export function routeLabel(req: Pick<Request, 'route' | 'baseUrl'>): string {
  const template = req.route?.path as unknown;
  return typeof template === 'string' ? `${req.baseUrl ?? ''}${template}` : 'unmatched';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Methods are client-chosen too: anything unusual shares one label. */
const metricMethod = (method: string) => (METHODS.has(method) ? method : 'OTHER');

@Controller()
class ObservabilityController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    @Inject(SERVICE_IDENTITY) private readonly identity: ServiceIdentity,
    @Inject(OPS_ACCESS) private readonly access: OpsAccess,
  ) {}

  /** Status for anyone (load balancers); identity and failing checks only for an operator (internal-request.ts: credential or loopback). */
  @Get('health')
  async health(@Req() req: Request, @Res() res: Response): Promise<void> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await c.check();
          return { name: c.name, ok: true };
        } catch (e) {
          return { name: c.name, ok: false, error: e instanceof Error ? e.message : String(e) };
        }
      }),
    );
    const ok = results.every((r) => r.ok);
    const status = ok ? 'ok' : 'degraded';
    res.status(ok ? 200 : 503).json(mayReadOps(req, this.access) ? { status, ...this.identity, checks: results } : { status });
  }

  @Get('metrics')
  @Header('Content-Type', client.register.contentType)
  async metrics(): Promise<string> {
    return client.register.metrics();
  }
}

@Module({})
export class ObservabilityModule {
  static forRoot(identity: ServiceIdentity, opsAccess: OpsAccess, checksToken?: symbol | string): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [ObservabilityController],
      providers: [
        { provide: SERVICE_IDENTITY, useValue: identity },
        { provide: OPS_ACCESS, useValue: opsAccess },
        checksToken
          ? { provide: HEALTH_CHECKS, useExisting: checksToken }
          : { provide: HEALTH_CHECKS, useValue: [] },
      ],
    };
  }
}
