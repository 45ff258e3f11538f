/**
 * The one place a process binds its ports: every adapter the composition root picked, as
 * providers of a single global module, so the feature modules (controllers, auth) inject the
 * ports without knowing which adapter is behind them, and adapters never register themselves.
 */
import { Module, type DynamicModule, type Provider } from '@nestjs/common';

@Module({})
export class PortsModule {}

/** The token a provider binds (a class provider: its class). */
export const tokenOf = (p: Provider) => (typeof p === 'function' ? p : p.provide);

/** Every token `providers` bind. */
function tokensOf(providers: Provider[]): NonNullable<DynamicModule['exports']> {
  return providers.map(tokenOf);
}

export function portsModule(providers: Provider[]): DynamicModule {
  return { module: PortsModule, global: true, providers, exports: tokensOf(providers) };
}
