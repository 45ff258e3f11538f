/**
 * A grader whose isolation is weaker than docs/design.md (Untrusted input) promises (a non-root
 * service: no nested student sandbox; no per-grading control groups) is fine for measuring on one
 * machine, not for a server others can reach: like `exec: blocking`, it stays on loopback unless
 * the operator accepts it (`--force-exposed`, or a container deployment that says what falls back).
 * Either way the service says why at start.
 */
import { Logger } from '@nestjs/common';
import type { ServiceConfig } from '@shellgrade/variant';
import { exposedBeyondLoopback } from './exposure';

export function guardWeakIsolation(shortfalls: string[], cfg: Pick<ServiceConfig, 'host' | 'exposedOn' | 'acceptWeakIsolation'>, log = new Logger('grader')): void {
  if (shortfalls.length === 0) return;
  const reached = exposedBeyondLoopback(cfg);
  const what = `the grader's isolation is weaker than promised:\n  - ${shortfalls.join('\n  - ')}`;
  if (reached.length === 0 || cfg.acceptWeakIsolation) {
    log.warn(`${what}\n${reached.length === 0 ? 'serving on loopback only' : `accepted by the operator on ${reached.join(', ')}`}`);
    return;
  }
  throw new Error(
    `refusing to grade on ${reached.join(', ')} (beyond loopback): ${what}\n` +
      'Run the service as root on a machine with cgroups, or accept the risk with --force-exposed.',
  );
}
