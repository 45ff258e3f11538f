/**
 * Whose X-Forwarded-For a process believes for its per-client rate limits: the
 * spec's `auth.trustedProxies` when set, else the variant's own proxies as the native launcher
 * places them — on loopback, and only for a process that has one in front of it.
 */
import type { ServiceConfig } from '@shellgrade/variant';

export function trustedProxiesOf(cfg: ServiceConfig): string[] {
  const explicit = cfg.spec.auth.trustedProxies;
  if (explicit) return [...explicit];
  return hasOwnProxyInFront(cfg) ? ['loopback'] : [];
}

/** The gateway calls every leftover and exercise process; HAProxy fronts the entry role when `entry: haproxy`. */
function hasOwnProxyInFront(cfg: ServiceConfig): boolean {
  if (cfg.role === 'leftover' || cfg.role === 'exercise') return true;
  return cfg.spec.entry === 'haproxy';
}
