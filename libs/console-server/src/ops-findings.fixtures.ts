/**
 * Test fixtures (unit tests of ops-findings.ts / ops-faults.ts and the console's browser test
 * apps/web/test/console-reports.e2e.ts): a findings folder and a faults folder in the harness's
 * formats (trimmed copies of what `npm run findings` and `npm run bench -- faults` wrote), with
 * the run folders they name. Not imported by the runtime.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReportFixtureIds {
  /** results/findings/<findings>/ */
  findings: string;
  /** results/<faults>/, a "<stamp>-<variant>-faults" name. */
  faults: string;
  /** Run folders: naked-mon and msa-1-1 at 1x (two each), fault runs on naked-mon and msa-1-2. */
  mon1: string;
  mon2: string;
  msa1: string;
  msa2: string;
  faultMon: string;
  faultMsa: string;
  faultLatency: string;
  /** results/<faultsRepeated>/: kill-one:exercise three times on naked-mon and on msa-1-2 (enough for a verdict), run folders absent. */
  faultsRepeated: string;
  /** Its runs, per variant. */
  repeatedRuns: Record<'naked-mon' | 'msa-1-2', string[]>;
}

/** Ids under one stamp prefix ("29991231T0000"), so a test's folders sort first and are found again. */
export function reportFixtureIds(stamp: string, tag: string): ReportFixtureIds {
  return {
    findings: `e2e-${tag}`,
    faults: `${stamp}00Z-mixed-${tag}-faults`,
    mon1: `${stamp}01Z-naked-mon-findings-1x-r1-${tag}`,
    mon2: `${stamp}02Z-naked-mon-findings-1x-r2-${tag}`,
    msa1: `${stamp}03Z-msa-1-1-findings-1x-r1-${tag}`,
    msa2: `${stamp}04Z-msa-1-1-findings-1x-r2-${tag}`,
    faultMon: `${stamp}05Z-naked-mon-fault-restart-postgres-${tag}`,
    faultMsa: `${stamp}06Z-msa-1-2-fault-restart-postgres-${tag}`,
    faultLatency: `${stamp}07Z-msa-1-2-fault-latency-exercise-${tag}`,
    faultsRepeated: `${stamp}08Z-mixed-${tag}-faults`,
    repeatedRuns: {
      'naked-mon': [1, 2, 3].map((i) => `${stamp}1${i}Z-naked-mon-fault-kill-one-exercise-${tag}`),
      'msa-1-2': [1, 2, 3].map((i) => `${stamp}2${i}Z-msa-1-2-fault-kill-one-exercise-${tag}`),
    },
  };
}

export const EXEMPLAR_P50 = '4b0574f692096f57b8859d94ded80797';
export const EXEMPLAR_P99 = '60dfd591785d5f53515692346101e766';
export const SLOWEST_DURING = '0123456789abcdef0123456789abcdef';

function runFolder(results: string, id: string, variant: string, extra: Record<string, string> = {}): void {
  const dir = join(results, id);
  mkdirSync(join(dir, 'report'), { recursive: true });
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ runId: id, variant, profileName: 'small', startedAt: '2999-12-31T00:00:00.000Z', endedAt: '2999-12-31T00:01:00.000Z' }));
  writeFileSync(join(dir, 'aggregated.json'), JSON.stringify({ runsAsked: 1, validRuns: 1, valid: true, meta: { variant } }));
  writeFileSync(join(dir, 'report', 'report.html'), `<h1>report of ${id}</h1>`);
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
}

const diff = (meanA: number, meanB: number, lo: number | null, hi: number | null, n = 2) => ({
  nA: n,
  nB: n,
  meanA,
  meanB,
  diff: meanB - meanA,
  relative: (meanB - meanA) / meanA,
  lo,
  hi,
  significant: lo !== null && hi !== null && (lo > 0 || hi < 0),
  ...(lo === null ? { note: 'needs at least 2 valid runs on each side' } : {}),
});

/** findings.json as report.ts writes it: three claims, one of each verdict. */
export function findingsJson(ids: ReportFixtureIds) {
  const mon = { role: 'mon-blocking', level: '1x', variant: 'naked-mon', runId: ids.mon1, validRuns: [1] };
  const msa = { role: 'msa-blocking', level: '1x', variant: 'msa-1-1', runId: ids.msa1, validRuns: [1] };
  const test = (metric: string, expect: string, reads: string, level = '1x') => ({ a: 'mon-blocking', b: 'msa-blocking', level, metric, expect, reads });
  const rule = 'reproduced when the 95% Welch interval of B − A lies below 0; refuted when it lies above 0';
  const record = {
    mode: 'smoke',
    seed: 20261127,
    capacity: { rate: 9, source: '--rate' },
    paper: { target: 0.615, probes: [], multiple: null, efr: null, notFound: 'no VALID probe measured EFR in 1 probes (1 INVALID)' },
    peaks: { '1x': 9 },
    rounds: [['msa-1-1@1x', 'naked-mon@1x']],
    runs: { 'msa-1-1@1x': [ids.msa1, ids.msa2], 'naked-mon@1x': [ids.mon1, ids.mon2] },
    failed: [],
    comparisons: [],
    startedAt: '2999-12-31T00:00:00.000Z',
    endedAt: '2999-12-31T00:10:00.000Z',
  };
  return {
    plan: { mode: 'smoke', protocol: { profile: 'small' }, roles: { 'mon-blocking': 'naked-mon', 'msa-blocking': 'msa-1-1' }, cells: [] },
    record,
    cells: { 'msa-1-1@1x': `${ids.msa1}+${ids.msa2}`, 'naked-mon@1x': `${ids.mon1}+${ids.mon2}` },
    methodology: [],
    design: [],
    results: [
      {
        claim: { id: 'i', title: 'MSA outperforms the monolith, nothing replicated', quote: 'when no app component is replicated, MSA outperforms the monolithic architecture', tests: [], design: 'p95' },
        verdict: 'reproduced',
        rule: 'a finding is reproduced when every one of its parts is',
        parts: [
          {
            test: test('p95', 'lower', 'MSA-1-1 answers faster (p95) than Naked MON'),
            a: mon,
            b: msa,
            difference: diff(518.27, 398.27, -180, -60),
            comparison: { welch: {}, rank: { nA: 2, nB: 2, uA: 4, uB: 0, p: 0.01, method: 'exact', cliffsDelta: -0.9, magnitude: 'large' }, band: 51.8, margin: 0.1, tost: null },
            verdict: { verdict: 'reproduced', why: 'the 95% interval of B − A lies below 0' },
            rule,
          },
        ],
        keyFigure: "p95 at 1x: msa-1-1 − naked-mon = -120 ms [-180 ms, -60 ms], Cliff's δ -0.90",
        explanation: ['naked-mon at 1x: CPU per run sg-monolith-0 10.5 s'],
        caveats: [],
        design: null,
      },
      {
        claim: { id: 'ii', title: 'The monolith fails less at the paper load', quote: 'the monolith fails less', tests: [] },
        verdict: 'refuted',
        rule: 'a finding is refuted when any part is',
        parts: [
          {
            test: test('efr', 'higher', 'MSA-1-1 fails more (EFR) than Naked MON'),
            a: mon,
            b: msa,
            difference: diff(0.2, 0.15, -0.08, -0.02),
            comparison: { rank: { p: 0.03, cliffsDelta: -0.75, magnitude: 'large' }, tost: { margin: 0.02, p: 0.4, equivalent: false } },
            verdict: { verdict: 'refuted', why: 'the 95% interval of B − A lies below 0' },
            rule,
          },
        ],
        keyFigure: 'efr at 1x: msa-1-1 − naked-mon = -5.0 pt [-8.0 pt, -2.0 pt]',
        explanation: [],
        caveats: ['INVALID runs left out: x run 1'],
        design: null,
      },
      {
        claim: { id: 'iii', title: 'Replication helps the monolith', quote: 'replicating the monolith improves it', tests: [] },
        verdict: 'inconclusive',
        rule: 'inconclusive otherwise',
        parts: [
          {
            test: test('p95', 'lower', 'Replicated MON answers faster than Naked MON', 'paper'),
            a: null,
            b: null,
            difference: null,
            comparison: null,
            verdict: { verdict: 'inconclusive', why: 'no finished run of naked-mon at paper (mon-blocking)', settle: 'runs of naked-mon at paper with at least 2 valid' },
            rule,
          },
        ],
        keyFigure: 'no figure (cells not run)',
        explanation: [],
        caveats: [],
        design: null,
      },
    ],
  };
}

const win = (N: number, OK: number, KO: number, p95Ms: number | null) => ({ fromMs: 0, toMs: 1, N, OK, KO, RAC: (OK + KO) / N, EFR: (N - OK) / N, koCauses: KO ? { server_5xx: KO } : {}, p95Ms });

function faultRun(fault: string, variant: string, runId: string, o: { lost: number | null; efrDuring: [number, number]; recovered: boolean; sinceUndoMs: number | null; valid?: boolean; latency?: boolean }) {
  const [N, OK] = o.efrDuring;
  return {
    fault,
    variant,
    runId,
    rate: 2,
    applied: { fault, target: fault.split(':')[1], undo: 'undo', injectedAtMs: 1000, undoneAtMs: 11000 },
    before: win(200, 200, 0, 130),
    during: win(N, OK, N - OK, 900),
    after: win(200, 200, 0, 140),
    timeToFirstErrorMs: N === OK ? null : 1200,
    recovery: { baselineP95Ms: 130, thresholdMs: 143, recovered: o.recovered, sinceInjectMs: o.recovered ? 12000 : null, sinceUndoMs: o.sinceUndoMs, lastP95Ms: 150, lastKO: 0, bucketMs: 5000 },
    audit: o.lost === null ? null : { accepted: 40, persistedFinal: 40 - o.lost, lost: o.lost, duplicated: 0, balanced: o.lost === 0, summary: o.lost === 0 ? 'balanced (accepted 40, persisted final 40)' : `${o.lost} lost` },
    lost: o.lost,
    duplicated: o.lost === null ? null : 0,
    crashes: [{ process: 'native server postgres', kind: 'native-server', pid: 1, atMs: 1001, at: 'x', injected: true }],
    valid: o.valid ?? true,
    reasons: o.valid === false ? ['foreign CPU load: 0.63 cores'] : [],
    ...(o.latency ? { attribution: { hop: 'exercise', expected: ['exercise.queueing'], steadyRequests: 40, faultRequests: 40, p50: {}, p95: {}, named: true } } : {}),
  };
}

/** faults.json as report.ts writes it: restart:postgres on two variants, latency:exercise on one. */
export function faultsJson(ids: ReportFixtureIds) {
  return {
    schema: 'shellgrade.faults/1',
    attribution: { named: 1, of: 1, share: 1 },
    results: [
      faultRun('restart:postgres', 'naked-mon', ids.faultMon, { lost: 0, efrDuring: [200, 150], recovered: true, sinceUndoMs: 2000 }),
      faultRun('restart:postgres', 'msa-1-2', ids.faultMsa, { lost: 3, efrDuring: [200, 100], recovered: false, sinceUndoMs: null, valid: false }),
      faultRun('latency:exercise', 'msa-1-2', ids.faultLatency, { lost: 0, efrDuring: [400, 400], recovered: true, sinceUndoMs: 0, latency: true }),
    ],
  };
}

/** The repeated cells' figures: EFR during (failed of 200) and recovery after the undo, ms. */
export const REPEATED: Record<keyof ReportFixtureIds['repeatedRuns'], { failed: number; recoveryMs: number }[]> = {
  'naked-mon': [{ failed: 20, recoveryMs: 2000 }, { failed: 24, recoveryMs: 2500 }, { failed: 22, recoveryMs: 3000 }],
  'msa-1-2': [{ failed: 60, recoveryMs: 1000 }, { failed: 68, recoveryMs: 1500 }, { failed: 64, recoveryMs: 1200 }],
};

/** faults.json of a fault run three times on each of two variants: the matrix's architecture verdict. */
export function repeatedFaultsJson(ids: ReportFixtureIds) {
  const runs = (['naked-mon', 'msa-1-2'] as const).flatMap((variant) =>
    REPEATED[variant].map((r, i) => faultRun('kill-one:exercise', variant, ids.repeatedRuns[variant][i]!, { lost: 0, efrDuring: [200, 200 - r.failed], recovered: true, sinceUndoMs: r.recoveryMs })),
  );
  return { schema: 'shellgrade.faults/1', attribution: null, results: runs };
}

/** Writes the repeated faults folder (its runs have no folders: their links say so). */
export function writeRepeatedFaultFixtures(results: string, ids: ReportFixtureIds): void {
  mkdirSync(join(results, ids.faultsRepeated), { recursive: true });
  writeFileSync(join(results, ids.faultsRepeated, 'faults.json'), JSON.stringify(repeatedFaultsJson(ids), null, 2));
}

/**
 * findings.html with the links the harness writes (benchmarks/src/findings/report.ts): each run
 * relative to the report, "../../<run-id>/" (resultsRel = relative(dir, results root)), its trace
 * breakdown "../../<run-id>/breakdown.html", and the 2 x 2's compare pages "compare/<x>/compare.html".
 */
export const findingsHtml = (ids: ReportFixtureIds): string =>
  `<!doctype html><html><body><h1>findings</h1><table><tr><td><a href="../../${ids.mon1}/">naked-mon</a> (<a href="../../${ids.mon1}/breakdown.html">traces</a>), <a href="../../${ids.msa1}/">msa-1-1</a></td></tr></table>` +
  `<ul><li><a href="compare/naked-mon-vs-msa-1-1/compare.html">architecture (blocking): naked-mon vs msa-1-1</a></li></ul></body></html>`;

/** Writes the findings folder, the faults folder and every run folder they name under `results`. */
export function writeReportFixtures(results: string, ids: ReportFixtureIds): void {
  const findings = join(results, 'findings', ids.findings);
  mkdirSync(join(findings, 'compare', 'naked-mon-vs-msa-1-1'), { recursive: true });
  const json = findingsJson(ids);
  writeFileSync(join(findings, 'findings.json'), JSON.stringify(json, null, 2));
  writeFileSync(join(findings, 'findings-runs.json'), JSON.stringify(json.record, null, 2));
  writeFileSync(join(findings, 'findings.md'), '# findings');
  writeFileSync(join(findings, 'findings.html'), findingsHtml(ids));
  writeFileSync(join(findings, 'compare', 'naked-mon-vs-msa-1-1', 'compare.html'), '<h1>compare</h1>');
  const breakdown = JSON.stringify({ schema: 'shellgrade.trace-breakdown/1', variants: [{ variant: 'naked-mon', requests: 40, shares: { p50: { latencyMs: 120.4, shares: [], exemplarTraceId: EXEMPLAR_P50 }, p99: { latencyMs: 480, shares: [], exemplarTraceId: EXEMPLAR_P99 } } }] });
  runFolder(results, ids.mon1, 'naked-mon', { 'breakdown.json': breakdown, 'breakdown.html': '<h1>breakdown</h1>' });
  runFolder(results, ids.mon2, 'naked-mon');
  runFolder(results, ids.msa1, 'msa-1-1');
  runFolder(results, ids.msa2, 'msa-1-1');
  mkdirSync(join(results, ids.faults), { recursive: true });
  writeFileSync(join(results, ids.faults, 'faults.json'), JSON.stringify(faultsJson(ids), null, 2));
  writeFileSync(join(results, ids.faults, 'faults.md'), '# Faults');
  runFolder(results, ids.faultMon, 'naked-mon');
  runFolder(results, ids.faultMsa, 'msa-1-2');
  const windows = { hop: 'exercise', steady: [], during: [{ traceId: 'aaaa', totalMs: 200 }, { traceId: SLOWEST_DURING, totalMs: 480.6 }, { traceId: 'bbbb', totalMs: 300 }] };
  runFolder(results, ids.faultLatency, 'msa-1-2', { 'attribution-windows.json': JSON.stringify(windows) });
}

/** Every folder writeReportFixtures wrote, relative to the results folder (to remove them). */
export const reportFixtureFolders = (ids: ReportFixtureIds): string[] => [join('findings', ids.findings), ids.faults, ids.mon1, ids.mon2, ids.msa1, ids.msa2, ids.faultMon, ids.faultMsa, ids.faultLatency, ids.faultsRepeated];
