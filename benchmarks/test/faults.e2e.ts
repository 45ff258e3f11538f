// e2e-variants: naked-mon
// End-to-end: one short fault run on a real variant — kill -9 of naked-mon's only
// monolith under smoke-rate scenario R, pm2 restarting it — through the same runFaults as
// `bench faults`. Asserted: nothing the client was told accepted is lost or duplicated, the kill
// is recorded as the injected crash, the fault is undone (the monolith online again under a new
// pid, no undo left in a journal) and the report is written. Figures are the benchmark's, not asserted.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFaults } from '../src/faults/run-faults';
import { JOURNAL_FILE } from '../src/faults/journal';
import { variantStatus, variantUp } from '../src/stack';

jest.setTimeout(600_000);

const work = mkdtempSync(join(tmpdir(), 'sg-faults-e2e-'));

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = work;
  await variantUp('naked-mon');
});

it('kill -9 of the monolith: 0 requests lost or duplicated, the crash named as injected, the fault undone', async () => {
  const before = await variantStatus();
  const monBefore = before.processes.find((p) => p.role === 'monolith')!;
  const pidBefore = monBefore.pid;

  const { dir, results, skipped } = await runFaults({
    variant: 'naked-mon',
    faults: ['kill-one:monolith'],
    rate: 2,
    share: 0.6,
    profile: 'smoke',
    rampS: 2,
    steadyS: 5,
    faultS: 5,
    recoveryS: 10,
    bucketS: 2,
    drainTimeoutS: 30,
  });

  expect(skipped).toEqual([]);
  expect(results).toHaveLength(1);
  const [r] = results;
  expect(r.applied.target).toBe(`${monBefore.name} (pid ${pidBefore})`);
  expect(r.applied.undoneAtMs).toBeGreaterThanOrEqual(r.applied.injectedAtMs);
  expect(r.audit).not.toBeNull();
  expect(r.lost).toBe(0);
  expect(r.duplicated).toBe(0);
  expect(r.audit!.balanced).toBe(true);
  expect(r.crashes.filter((c) => !c.injected)).toEqual([]);
  expect(r.crashes.some((c) => c.injected && c.kind === 'process' && c.pid === pidBefore)).toBe(true);
  // Every request before the fault was answered: the steady window has figures to compare with.
  expect(r.before.OK).toBeGreaterThan(0);

  // Undone: the monolith is back (a new pid), and no undo is left for a later start to replay.
  const after = await variantStatus();
  const mon = after.processes.find((p) => p.role === 'monolith')!;
  expect(mon.status).toBe('online');
  expect(mon.pid).not.toBe(pidBefore);
  expect(existsSync(join(work, r.runId, JOURNAL_FILE))).toBe(false);

  expect(readFileSync(join(dir, 'faults.md'), 'utf8')).toContain('| kill-one:monolith |');
  expect((JSON.parse(readFileSync(join(dir, 'faults.json'), 'utf8')) as { results: unknown[] }).results.length).toBe(1);
});
