// e2e-variants: msa-1-1
// The runner with --cpu-prof against the real stack (msa-1-1, smoke profile, one run): every
// service writes V8 CPU profiles over the test, they are flushed by the restart at the end and
// summarised in profiles.md, and the variant is left running unprofiled.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProfileSummary } from '../src/profiling/cpu-profile';
import { runTest } from '../src/run-test';
import { variantStatus } from '../src/stack';

jest.setTimeout(600_000);

const work = mkdtempSync(join(tmpdir(), 'sg-bench-cpuprof-'));

it('profiles every service of a test run and says where their JavaScript time went', async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  const a = await runTest({ variant: 'msa-1-1', profile: 'smoke', runs: 1, pauseS: 0, runId: 'e2e-cpu-prof', keepUp: true, dashboard: false, cpuProfile: true });
  const dir = join(work, 'results', a.meta.runId);
  expect(readdirSync(join(dir, 'profiles')).sort()).toEqual(['sg-exercise-0', 'sg-gateway-0', 'sg-leftover-0']);
  const { iterations, summaries } = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as { iterations: number; summaries: ProfileSummary[] };
  expect(iterations).toBeGreaterThan(0);
  for (const s of summaries) {
    expect(s.files).toBeGreaterThan(0);
    expect(s.busyMs).toBeGreaterThan(0);
    expect(s.byComponent.framework ?? 0).toBeGreaterThan(0); // every service routes HTTP through its framework
  }
  // The exercise service parsed archives and wrote to PostgreSQL during the submissions.
  const exercise = summaries.find((s) => s.process === 'sg-exercise-0')!;
  expect(exercise.byComponent.database ?? 0).toBeGreaterThan(0);
  expect(existsSync(join(dir, 'profiles.md'))).toBe(true);

  // Left up, and no longer profiled (a later test must not pay for it).
  const status = await variantStatus();
  expect(status.variant).toBe('msa-1-1');
  const gateway = status.processes.find((p) => p.name === 'sg-gateway-0')!;
  const cmdline = readFileSync(`/proc/${gateway.pid}/cmdline`, 'utf8');
  expect(cmdline).not.toContain('--cpu-prof');
});
