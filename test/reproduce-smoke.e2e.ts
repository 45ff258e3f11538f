// e2e-variants: naked-mon, msa-1-1
// End-to-end: `bench reproduce 000` as typed, on the scale model — two configurations (Naked MON
// and MSA-1-1), one run each at the shortest shape (--smoke: the smoke profile), the load given
// (--saturation 2 --multiple 2: 4 it/s, no calibration or search) — through the very command the
// front door registers (the built CLI, as `npm run bench` runs it). Asserted: the record (smoke, scaled, one run a configuration, no failure),
// each run folder's testbed (meta.json with the quotas written, manifest.json with s), and the
// scorecard of the two. Then the record is told it asked 2 runs a configuration and `--continue`
// gives each its second run, in round 2's seeded order, on the same boot. Figures are the
// benchmark's; a smoke decides nothing.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

jest.setTimeout(900_000);

const REPO = join(__dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'sg-reproduce-e2e-'));

// What this reads of the files (benchmarks/src/reproduce/record.ts, scorecard.ts; the run folder's meta.json and manifest.json).
interface Record000 {
  paper: string;
  mode?: string;
  testbed: string;
  seed: number;
  peak: number | null;
  runsAsked: number;
  failed: unknown[];
  endedAt: string | null;
  configurations: { label: string; variant: string }[];
  rounds: string[][];
  runs: Record<string, string[]>;
  bootId?: string | null;
  continuations?: { startedAt: string; endedAt: string | null }[];
}
interface ScaledTestbed {
  testbed: string;
  model?: { s: number };
  quotas?: Record<string, { quotaUs: number; periodUs: number }>;
}
interface Card {
  testbed: string;
  rows: { variant: string; runs: number; valid: number; ours: { efr: { mean: number | null } } }[];
  notes: string[];
}
const json = <T>(...path: string[]): T => JSON.parse(readFileSync(join(...path), 'utf8')) as T;

it("bench reproduce 000 --smoke --testbed scaled: naked-mon and msa-1-1 once each, the record, the run folders' testbed and the scorecard", async () => {
  const results = join(work, 'results');
  const dir = join(results, 'reproduce', 'smoke');
  const args = ['reproduce', '000', '--smoke', '--runs', '1', '--only', 'naked-mon,msa-1-1', '--testbed', 'scaled', '--saturation', '2', '--multiple', '2', '--seed', '42', '--out', dir];
  const bench = (argv: string[]) => promisify(execFile)('node', [join(REPO, 'dist', 'benchmarks', 'src', 'cli.js'), ...argv], { cwd: REPO, env: { ...process.env, SG_RESULTS_DIR: results }, maxBuffer: 64 * 2 ** 20 });
  const { stdout } = await bench(args);
  expect(stdout).toContain('reproduce 000 (smoke: the runner end to end, deciding nothing): 2 configurations of Tables I–II × 1 runs = 2 runs; testbed scaled');

  const record = json<Record000>(dir, 'reproduce-runs.json');
  expect(record).toMatchObject({ paper: '000', mode: 'smoke', testbed: 'scaled', seed: 42, peak: 4, runsAsked: 1, failed: [] });
  expect(record.endedAt).not.toBeNull();
  expect(record.configurations).toEqual([
    { label: 'Naked MON', variant: 'naked-mon' },
    { label: 'MSA-1-1', variant: 'msa-1-1' },
  ]);
  expect(record.rounds.map((r) => [...r].sort())).toEqual([['msa-1-1', 'naked-mon']]);
  for (const variant of ['naked-mon', 'msa-1-1']) {
    expect(record.runs[variant]).toHaveLength(1);
    const run = join(results, record.runs[variant][0]);
    expect(existsSync(join(run, 'run-1.json'))).toBe(true);
    const testbed = json<{ placement?: { testbed?: ScaledTestbed } }>(run, 'meta.json').placement?.testbed;
    expect(testbed?.testbed).toBe('scaled');
    // s fits the plan's largest configuration (msa-1-1), the same for both runs; every container got its quota.
    expect(testbed?.model?.s).toBeGreaterThan(0);
    expect(Object.keys(testbed?.quotas ?? {})).toContain('*');
    expect(Object.keys(testbed?.quotas ?? {}).length).toBeGreaterThan(1);
    const manifest = json<{ placement?: { testbed?: ScaledTestbed } }>(run, 'manifest.json');
    expect(manifest.placement?.testbed).toMatchObject({ testbed: 'scaled', model: { s: testbed?.model?.s } });
  }

  const card = json<Card>(dir, 'scorecard.json');
  expect(card.testbed).toBe('scaled');
  expect(card.rows.map((r) => [r.variant, r.runs])).toEqual([
    ['naked-mon', 1],
    ['msa-1-1', 1],
  ]);
  expect(card.notes[0]).toMatch(/^smoke run/);
  expect(existsSync(join(dir, 'scorecard.md'))).toBe(true);

  // Cut short, as a reproduction stopped at a session's end: asked 2 runs, given 1 each. --continue gives the second.
  expect(record.bootId).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  writeFileSync(join(dir, 'reproduce-runs.json'), JSON.stringify({ ...record, runsAsked: 2 }));
  const continued = await bench(['reproduce', '000', '--continue', dir]);
  expect(continued.stdout).toContain(`continue ${dir}: 2 of 4 runs to go (2 configurations × 2), every one at 4 it/s, testbed scaled, seed 42`);
  const after = json<Record000>(dir, 'reproduce-runs.json');
  expect(after).toMatchObject({ runsAsked: 2, failed: [] });
  expect(after.rounds).toHaveLength(2);
  expect(after.continuations).toHaveLength(1);
  for (const variant of ['naked-mon', 'msa-1-1']) expect(after.runs[variant]).toEqual([record.runs[variant][0], expect.stringContaining(`${variant}-reproduce-r2`)]);
  expect(json<Card>(dir, 'scorecard.json').rows.map((r) => [r.variant, r.runs])).toEqual([
    ['naked-mon', 2],
    ['msa-1-1', 2],
  ]);
  process.stderr.write(`reproduce smoke: ${card.rows.map((r) => `${r.variant} ${r.valid}/${r.runs} VALID, EFR ${r.ours.efr.mean}`).join('; ')} (${card.notes.join(' | ')})\n`);
});
