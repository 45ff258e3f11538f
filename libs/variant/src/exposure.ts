/**
 * Grader settings that are fine for measuring on one machine but not for a server others can
 * reach: `isolation: none` runs student code unsandboxed, `exec: blocking`
 * lets one slow grading stall every request of its process. The paper presets keep them; a
 * launcher or generator that exposes such a variant beyond loopback refuses unless forced.
 */
import { isIP } from 'node:net';
import { VariantSpecError } from './loader';
import type { VariantSpec } from './spec';

/** True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** Why this spec must not be reachable from other machines (empty: nothing). */
export function exposureRisks(spec: VariantSpec): string[] {
  const risks: string[] = [];
  if (spec.grader.isolation === 'none') risks.push('grader.isolation none runs student code without a sandbox');
  if (spec.grader.exec === 'blocking') risks.push('grader.exec blocking lets one slow grading stall every request of its process');
  return risks;
}

/**
 * Throws unless the variant is safe to listen on `address`: loopback always is; beyond it,
 * only a spec without exposure risks, or when the caller explicitly forces it.
 */
export function refuseUnsafeExposure(spec: VariantSpec, address: string, options: { force?: boolean; forceFlag?: string } = {}): void {
  if (isLoopbackAddress(address) || options.force) return;
  const risks = exposureRisks(spec);
  if (risks.length === 0) return;
  throw new VariantSpecError(
    `refusing to expose ${spec.name} on ${address} (beyond loopback):\n  - ${risks.join('\n  - ')}\n` +
      `Use grader isolation bwrap and exec async or pool, or pass ${options.forceFlag ?? '--force'} to accept the risk.`,
  );
}
