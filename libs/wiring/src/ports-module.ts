/**
 * The one place a process binds its ports: every adapter the composition root picked, as
 * providers of a single global module, so the feature modules (controllers, auth) inject the
 * ports without knowing which adapter is behind them, and adapters never register themselves.
 */
import { Module, type DynamicModule, type Provider } from '@nestjs/common';

@Module({})
export class PortsModule {}

/** Every token `providers` bind (class providers by their class). */
function tokensOf(providers: Provider[]): NonNullable<DynamicModule['exports']> {
  return providers.map((p) => (typeof p === 'function' ? p : p.provide));
}

export function portsModule(providers: Provider[]): DynamicModule {
  return { module: PortsModule, global: true, providers, exports: tokensOf(providers) };
}
