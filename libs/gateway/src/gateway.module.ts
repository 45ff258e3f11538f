/** The gateway's own endpoints (/health, /metrics) and the lifetime of its upstream pools. */
import { Controller, Get, Inject, Module, type DynamicModule, type OnApplicationShutdown, Req, Res } from '@nestjs/common';
import { mayReadOps } from '@shellgrade/http';
import type { Request, Response } from 'express';
import type { GatewayConfig } from './gateway-config';
import type { GatewayMetrics } from './gateway-metrics';
import type { UpstreamName } from './route-table';
import type { UpstreamPool } from './upstream-pool';

export interface GatewayState {
  config: GatewayConfig;
  metrics: GatewayMetrics;
  upstreams: Record<UpstreamName, UpstreamPool>;
}

export const GATEWAY_STATE = Symbol('GatewayState');

@Controller()
class GatewayController {
  constructor(@Inject(GATEWAY_STATE) private readonly state: GatewayState) {}

  /** Liveness of the gateway process itself (its identity for internal callers only); upstream health shows in the error metrics. */
  @Get('health')
  health(@Req() req: Request): { status: 'ok'; role?: 'gateway'; replica?: number } {
    return mayReadOps(req, this.state.config.opsAccess) ? { status: 'ok', role: 'gateway', replica: this.state.config.replica } : { status: 'ok' };
  }

  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    const { contentType, body } = await this.state.metrics.exposition();
    res.setHeader('Content-Type', contentType);
    res.end(body);
  }
}

@Module({})
export class GatewayModule implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_STATE) private readonly state: GatewayState) {}

  static forRoot(state: GatewayState): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [GatewayController],
      providers: [{ provide: GATEWAY_STATE, useValue: state }],
    };
  }

  onApplicationShutdown(): void {
    this.state.upstreams.exercise.close();
    this.state.upstreams.leftover.close();
  }
}
