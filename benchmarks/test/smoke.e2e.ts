// e2e-variants: naked-mon
// End-to-end: the smoke profile of scenario R against naked-mon, which this file brings up (the
// launcher keeps it when it is already up). Entry URL from `npm run variant -- status --json`.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k6OptionsArgs, writeK6Options } from '../src/k6-options';
import { k6Path } from '../src/k6-tool';
import { defaultArchive, spsScript } from '../src/paths';
import { runTest } from '../src/run-test';
import { run } from '../src/shell';
import { Pool } from 'pg';
import { loadConnections, loadVariant } from '@shellgrade/variant';
import { entryUrl, seedStudents, variantStatus, variantUp, type VariantStatus } from '../src/stack';
import type { PaperMetrics, RunRecord } from '../src/types';

jest.setTimeout(600_000);

let status: VariantStatus;
const work = mkdtempSync(join(tmpdir(), 'sg-bench-e2e-'));

beforeAll(async () => {
  await variantUp('naked-mon');
  status = await variantStatus();
});

it('k6 smoke: every request OK, none KO, RAC = 1, SPS samples carry trace ids', async () => {
  const csv = join(work, 'users.csv');
  await seedStudents(20, csv, loadVariant('naked-mon').auth.kdfCost);
  const summary = join(work, 'summary.json');
  const log = join(work, 'k6.log');
  const k6 = await k6Path();
  const options = join(work, 'k6-options.json');
  writeK6Options(options, {
    script: 'sps', profile: 'smoke', baseUrl: entryUrl(status), usersCsv: csv, archive: defaultArchive(),
    summaryJson: summary, summaryTxt: join(work, 'summary.txt'), logSps: true, logRequests: false, reply: 'sync',
  });
  const r = await run(
    k6,
    ['run', '--no-color', '--log-output', `file=${log}`, '--log-format', 'json', ...k6OptionsArgs(options), spsScript()],
    { allowFail: true },
  );
  const paper = (JSON.parse(readFileSync(summary, 'utf8')) as { paper: PaperMetrics }).paper;
  expect(paper.OK).toBeGreaterThan(0);
  expect(paper.KO).toBe(0);
  expect(paper.iterations.ko).toBe(0);
  expect(paper.iterations.ok).toBe(paper.vus);
  expect(paper.RAC).toBe(1);
  expect(paper.efr_paper).toBe(0);
  expect(paper.stages!.ramp.vus + paper.stages!.hold.vus).toBe(paper.vus);
  expect(paper.sps.OK).toBe(paper.vus);
  expect(r.code).toBe(0); // smoke thresholds: checks rate 1, no KO
  const spsLines = readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('\\"sg\\":\\"sps\\"'));
  expect(spsLines.length).toBe(paper.vus);
  for (const l of spsLines) expect(JSON.parse((JSON.parse(l) as { msg: string }).msg).trace_id).toMatch(/^[0-9a-f]{32}$/);
});

it('bench run (smoke, 1 run) writes a VALID result folder without stopping the variant', async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  const a = await runTest({ variant: status.variant!, profile: 'smoke', runs: 1, pauseS: 0, runId: 'e2e-smoke' });
  const dir = join(work, 'results', 'e2e-smoke');
  for (const f of ['spec.yaml', 'machine.json', 'meta.json', 'k6-options-run-1.json', 'k6-run-1.json', 'run-1.json', 'resources.csv', 'resources.json', 'aggregated.json', 'sps-samples-run-1.jsonl', 'k6-dashboard-run-1.html']) {
    expect(existsSync(join(dir, f))).toBe(true);
  }
  const run1 = JSON.parse(readFileSync(join(dir, 'run-1.json'), 'utf8')) as RunRecord;
  expect(run1.audit!.summary).toMatch(/^balanced/);
  expect(run1.audit!.accepted).toBe(run1.paper.vus);
  expect(run1.dashboard).toBe('k6-dashboard-run-1.html');
  // INVALID only for a reason of the machine (a starved client, foreign load on this shared box), never of the books.
  expect(run1.reasons.filter((r) => !/^(k6 (starved|CPU above)|foreign CPU load)/.test(r))).toEqual([]);
  expect(a.runLines).toHaveLength(1);
  expect(run1.paper.RAC).toBe(1);
  expect(run1.paper.KO).toBe(0);
  expect(run1.resources.variantCpuS).toBeGreaterThan(0);
  expect(run1.resources.cpuResidualShare).not.toBeNull();
  expect(run1.derived.energyEstimate!.meanW).toBeGreaterThan(0);
  const after = await variantStatus();
  expect(after.processes.every((p) => p.status === 'online')).toBe(true);
});

it('bench run --kdf-cost over the preset already up runs the override: no student logs in at the preset cost', async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  expect(loadVariant('naked-mon').auth.kdfCost).not.toBe(1);
  expect((await variantStatus()).variant).toBe('naked-mon'); // up with the preset's cost, as a researcher would leave it
  await runTest({ variant: 'naked-mon', profile: 'smoke', runs: 1, pauseS: 0, kdfCost: 1, runId: 'e2e-smoke-kdf1' });
  // A login at another cost than the stored hash's rewrites the hash at the service's cost
  // (auth.service.ts needsRehash): had the preset served the run, its students' hashes would now be argon2id.
  const students = readFileSync(join(work, 'results', 'e2e-smoke-kdf1', 'users.csv'), 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(',')[2]));
  const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 1 });
  try {
    const { rows } = await db.query<{ prefix: string; n: number }>(
      "SELECT split_part(password_hash, '$', 1) || '$' || split_part(password_hash, '$', 2) AS prefix, count(*)::int AS n FROM users WHERE id = ANY($1) GROUP BY 1",
      [students],
    );
    expect(rows).toEqual([{ prefix: 'scrypt$1', n: students.length }]);
  } finally {
    await db.end();
    await variantUp('naked-mon'); // left as found for the next file
  }
});
