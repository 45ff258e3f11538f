// e2e-variants: naked-mon
// The runner against the real stack (naked-mon, smoke profile, one run each): a variant process
// killed mid-run is recorded on the run, which counts with the KOs it caused (never repeated);
// a production deleted before the audit makes the run INVALID with "lost 1 / duplicated 0".
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteProduction, productionRows } from '../src/audit';
import { runTest } from '../src/run-test';
import { sleep } from '../src/shell';
import { variantStatus, variantUp, type VariantStatus } from '../src/stack';
import type { RunRecord } from '../src/types';

jest.setTimeout(600_000);

const work = mkdtempSync(join(tmpdir(), 'sg-bench-integrity-'));
const VARIANT = 'naked-mon';

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  const s = await variantStatus();
  if (s.variant !== VARIANT || s.processes.some((p) => p.status !== 'online')) await variantUp(VARIANT);
});

/** Waits (bounded by k6's own run) until the platform has persisted at least one production. */
async function firstProduction(limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while ((await productionRows()).length === 0) {
    if (Date.now() > until) throw new Error(`no production persisted within ${limitMs} ms`);
    await sleep(100);
  }
}

const record = (runId: string, r = 1): RunRecord => JSON.parse(readFileSync(join(work, 'results', runId, `run-${r}.json`), 'utf8')) as RunRecord;

it('a variant process killed mid-run: the crash is recorded, the run counts with its KOs, nothing is repeated', async () => {
  let killed: { name: string; pid: number } | null = null;
  const a = await runTest({
    variant: VARIANT,
    profile: 'smoke',
    runs: 1,
    pauseS: 0,
    runId: 'e2e-crash',
    drainTimeoutS: 15,
    dashboard: false,
    hooks: {
      duringLoad: async (_run: number, status: VariantStatus) => {
        await firstProduction(20_000);
        const p = status.processes.find((x) => x.pid)!;
        killed = { name: p.name, pid: p.pid! };
        process.kill(p.pid!, 'SIGKILL');
      },
    },
  });
  expect(killed).not.toBeNull();
  const r = record('e2e-crash');
  expect(r.crashes.map((c) => c.process)).toContain(killed!.name);
  expect(r.crashes[0].pid).toBe(killed!.pid);
  expect(r.restarts[killed!.name]).toBeGreaterThanOrEqual(1); // pm2 brought it back during the run
  // The run counts: it is the one run of the test, with the KOs the crash caused.
  expect(a.runs).toBe(1);
  expect(existsSync(join(work, 'results', 'e2e-crash', 'run-2.json'))).toBe(false);
  expect(r.paper.KO).toBeGreaterThan(0);
  expect(r.paper.iterations.ko).toBeGreaterThan(0);
  const causes = Object.entries(r.paper.koCauses).filter(([, n]) => n > 0).map(([c]) => c);
  expect(causes.length).toBeGreaterThan(0);
  expect(r.reasons.join(' ')).not.toMatch(/restart|crash|switched/);
  expect(a.runLines[0].crashes[0]).toMatch(new RegExp(`^${killed!.name} at `));
  const after = await variantStatus();
  expect(after.processes.every((p) => p.status === 'online')).toBe(true);
});

it('the zero-loss audit catches a production deleted after the drain: INVALID, lost 1 / duplicated 0', async () => {
  let deleted: number | null = null;
  const a = await runTest({
    variant: VARIANT,
    profile: 'smoke',
    runs: 1,
    pauseS: 0,
    runId: 'e2e-audit',
    dashboard: false,
    hooks: {
      beforeAudit: async () => {
        const rows = await productionRows();
        deleted = rows[0].id;
        await deleteProduction(deleted);
      },
    },
  });
  expect(deleted).not.toBeNull();
  const r = record('e2e-audit');
  expect(r.audit!.accepted).toBeGreaterThan(0);
  expect(r.audit!.lost).toBe(1);
  expect(r.audit!.duplicated).toBe(0);
  expect(r.valid).toBe(false);
  expect(r.reasons).toContain(`zero-loss audit: ${r.audit!.summary}`);
  expect(r.audit!.summary).toMatch(/^lost 1 \/ duplicated 0/);
  expect(a.validRuns).toBe(0);
  expect(a.runLines[0].audit).toMatch(/^lost 1 \/ duplicated 0/);
});
