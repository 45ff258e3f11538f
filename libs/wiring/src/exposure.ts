/**
 * The one exposure decision of a service process: which addresses beyond loopback its service is
 * reached on. Its own bind address counts, and so does the address the variant's entry is exposed
 * on (`variant up --listen`, ProcessConfig.exposedOn): a replica bound to loopback behind an
 * HAProxy that listens on 0.0.0.0 answers the network all the same. The secret and password-hash
 * policy (service-settings.ts) and the grader's isolation guard (isolation-guard.ts) both read it,
 * so no guard can see loopback where another sees the network.
 */
import { isLoopbackAddress, type ServiceConfig } from '@shellgrade/variant';

/** The addresses beyond loopback this process's service answers on (empty: this machine only). */
export function exposedBeyondLoopback(cfg: Pick<ServiceConfig, 'host' | 'exposedOn'>): string[] {
  const addresses = [cfg.host, cfg.exposedOn].filter((a): a is string => a !== undefined && !isLoopbackAddress(a));
  return [...new Set(addresses)];
}
