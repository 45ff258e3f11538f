/**
 * /health and Prometheus /metrics, shared by every service. Health checks are pluggable
 * so a service reports "not ready" while its database or broker is unreachable.
 */
import { Controller, Get, Header, Inject, Module, Res, type DynamicModule } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import client from 'prom-client';

export const HEALTH_CHECKS = Symbol('HealthChecks');
export type HealthCheck = { name: string; check: () => Promise<void> };
export interface ServiceIdentity {
  role: string;
  replica: number;
  variant: string;
}
export const SERVICE_IDENTITY = Symbol('ServiceIdentity');

client.collectDefaultMetrics();

export const httpDuration = new client.Histogram({
  name: 'shellgrade_http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1.2, 2.5, 5, 10, 30, 60],
});

/** Express middleware timing every request; the route label is the matched pattern. */
export function httpMetricsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const end = httpDuration.startTimer();
  res.on('finish', () => {
    const route = (req.route?.path as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : req.path);
    end({ method: req.method, route: `${req.baseUrl ?? ''}${route}`, status: String(res.statusCode) });
  });
  next();
}

@Controller()
class ObservabilityController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    @Inject(SERVICE_IDENTITY) private readonly identity: ServiceIdentity,
  ) {}

  @Get('health')
  async health(@Res() res: Response): Promise<void> {
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
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'degraded', ...this.identity, checks: results });
  }

  @Get('metrics')
  @Header('Content-Type', client.register.contentType)
  async metrics(): Promise<string> {
    return client.register.metrics();
  }
}

@Module({})
export class ObservabilityModule {
  static forRoot(identity: ServiceIdentity, checksToken?: symbol | string): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [ObservabilityController],
      providers: [
        { provide: SERVICE_IDENTITY, useValue: identity },
        checksToken
          ? { provide: HEALTH_CHECKS, useExisting: checksToken }
          : { provide: HEALTH_CHECKS, useValue: [] },
      ],
    };
  }
}
