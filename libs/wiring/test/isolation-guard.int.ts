/**
 * A grader with weaker isolation than promised stays on loopback: the real
 * GRADER provider, a real SandboxGrader whose per-grading control groups are off, on the
 * addresses a variant can be reached on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRADER } from '@shellgrade/domain';
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
import { grader } from '../src';

const sandboxRoot = mkdtempSync(join(tmpdir(), 'sg-guard-'));
afterAll(() => rmSync(sandboxRoot, { recursive: true, force: true }));

const cfgOf = (grading: VariantSpecInput['grader'], where: Partial<Pick<ServiceConfig, 'host' | 'exposedOn' | 'acceptWeakIsolation'>>): ServiceConfig => {
  const spec = validateVariant({ name: 'guarded', description: 'x', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 1 }, grader: grading });
  return {
    ...processConfigOf(spec, 'monolith', 0, { host: where.host ?? '127.0.0.1', port: 3000, exposedOn: where.exposedOn, acceptWeakIsolation: where.acceptWeakIsolation }),
    connections: loadConnections({ ...process.env, SG_SANDBOX_ROOT: sandboxRoot }),
  };
};

/** Builds the GRADER the way Nest does: the provider's factory. */
async function startGrader(cfg: ServiceConfig): Promise<void> {
  const provider = grader(cfg).find((p) => typeof p !== 'function' && p.provide === GRADER) as { useFactory: () => { close(): Promise<void> } };
  const built = provider.useFactory();
  await built.close();
}

const noCgroups = { exec: 'async', isolation: 'bwrap', cgroups: 'off' } as const;

describe('a grader without per-grading control groups', () => {
  it('refuses to start on an address beyond loopback, and says why', async () => {
    await expect(startGrader(cfgOf(noCgroups, { host: '0.0.0.0' }))).rejects.toThrow(/refusing to grade on 0\.0\.0\.0[\s\S]*no per-grading control groups[\s\S]*--force-exposed/);
  });

  it('refuses when the variant is reached beyond loopback through its proxy', async () => {
    await expect(startGrader(cfgOf(noCgroups, { exposedOn: '10.1.2.3' }))).rejects.toThrow(/refusing to grade on 10\.1\.2\.3/);
  });

  it('starts on loopback, or where the operator accepted the risk', async () => {
    await expect(startGrader(cfgOf(noCgroups, {}))).resolves.toBeUndefined();
    await expect(startGrader(cfgOf(noCgroups, { host: '0.0.0.0', acceptWeakIsolation: true }))).resolves.toBeUndefined();
  });
});

it('a root bwrap grader with control groups starts anywhere', async () => {
  await expect(startGrader(cfgOf({ exec: 'async', isolation: 'bwrap', cgroups: 'auto' }, { host: '0.0.0.0' }))).resolves.toBeUndefined();
});
