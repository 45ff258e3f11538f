/**
 * What the console's Findings and Faults pages show (GET /ops/findings[/<id>], GET
 * /ops/faults[/<id>], libs/http ops-findings.ts / ops-faults.ts): the parts of the harness's
 * findings.json (benchmarks/src/findings/report.ts) and faults.json (benchmarks/src/faults/report.ts)
 * the console reads, as the server validates them (its zod schemas are checked against these
 * types), and the resilience matrix of `bench faults-table` (benchmarks/src/faults/resilience.ts)
 * as data rather than text. One declaration for the server and the browser.
 */
import type { Difference, RankTest } from '@shellgrade/stats';

/** 'not testable': the testbed cannot show the claim's mechanism (fewer CPUs than processes), whatever was measured. */
export type FindingVerdict = 'reproduced' | 'refuted' | 'inconclusive' | 'not testable';
export const FINDING_VERDICTS: readonly FindingVerdict[] = ['reproduced', 'refuted', 'inconclusive', 'not testable'];

/** A benchmark run (results/<id>/) a verdict or a cell rests on, and where to open it. */
export interface RunLink {
  id: string;
  /** Whether results/<id>/ exists (a findings record may name runs since removed). */
  present: boolean;
  variant: string | null;
  /** The run's file to open first, relative to its folder (report/report.html, a k6 dashboard, meta.json); null: none. */
  report: string | null;
  /** breakdown.html when the run's traces were analysed (npm run traces). */
  breakdown: string | null;
  /** Traces to open in the console's trace view: the breakdown's exemplars, a fault window's slowest. */
  traces: { label: string; traceId: string }[];
}

// ---- findings -------------------------------------------------------------------------------

/** One findings folder (results/findings/<id>/). */
export interface FindingsSummary {
  id: string;
  mode: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** Verdict counts; null while findings.json is not written (a run stopped before its evaluation). */
  counts: Record<FindingVerdict, number> | null;
  /** Report files of the folder, relative to it (findings.html, findings.md, compare/<x>/compare.html). */
  files: string[];
  /** Why findings.json could not be read, when it is there but does not parse. */
  error?: string;
}

/** B − A with its 95% Welch interval (libs/stats difference.ts). */
export interface FindingDifference {
  nA: number;
  nB: number;
  meanA: number | null;
  meanB: number | null;
  diff: number | null;
  relative: number | null;
  lo: number | null;
  hi: number | null;
  significant: boolean;
  note?: string;
}

export interface FindingCellRef {
  role: string;
  level: string;
  variant: string;
  runId: string;
  validRuns: number[];
}

/** One comparison of a claim (evaluate.ts PartResult). */
export interface FindingPart {
  test: { a: string; b: string; level: string; metric: string; expect: string; reads: string };
  a: FindingCellRef | null;
  b: FindingCellRef | null;
  difference: FindingDifference | null;
  comparison: {
    rank: { p: number; cliffsDelta: number; magnitude: string } | null;
    tost: { margin: number; p: number; equivalent: boolean } | null;
  } | null;
  verdict: { verdict: FindingVerdict; why: string; settle?: string };
}

/** One claim's result (evaluate.ts FindingResult). */
export interface FindingResult {
  claim: { id: string; title: string; quote: string };
  verdict: FindingVerdict;
  rule: string;
  parts: FindingPart[];
  keyFigure: string;
  explanation: string[];
  caveats: string[];
}

/** What the findings run did (record.ts FindingsRecord, findings-runs.json). */
export interface FindingsRunRecord {
  mode: string;
  seed: number;
  capacity: { rate: number; source?: string } | null;
  paper: { multiple: number | null; efr: number | null; notFound?: string | null };
  peaks: Record<string, number>;
  runs: Record<string, string[]>;
  failed: { cell: string; round: number; error: string }[];
  startedAt: string;
  endedAt: string | null;
}

/** GET /ops/findings/<id>. */
export interface FindingsReport {
  id: string;
  mode: string | null;
  record: FindingsRunRecord | null;
  /** null: findings.json not written yet. */
  results: FindingResult[] | null;
  /** The run folders merged into each cell, by cell key "<variant>@<level>" (findings.json cells, split). */
  cells: Record<string, string[]>;
  /** Every run named by the results or the record. */
  runs: Record<string, RunLink>;
  files: string[];
}

export const verdictCounts = (results: readonly { verdict: FindingVerdict }[]): Record<FindingVerdict, number> => ({
  reproduced: results.filter((r) => r.verdict === 'reproduced').length,
  refuted: results.filter((r) => r.verdict === 'refuted').length,
  inconclusive: results.filter((r) => r.verdict === 'inconclusive').length,
  'not testable': results.filter((r) => r.verdict === 'not testable').length,
});

/** The run folders behind one side of a comparison: every run merged into its cell (its first run when the cell is not listed). */
export const cellRunIds = (cells: Record<string, string[]>, ref: Pick<FindingCellRef, 'variant' | 'level' | 'runId'>): string[] => {
  const merged = cells[`${ref.variant}@${ref.level}`];
  return merged?.includes(ref.runId) ? merged : [ref.runId];
};

/** The runs one finding rests on, each once, in the order its parts name them. */
export const findingRunIds = (r: Pick<FindingResult, 'parts'>, cells: Record<string, string[]> = {}): string[] => [
  ...new Set(r.parts.flatMap((p) => [p.a, p.b]).flatMap((ref) => (ref ? cellRunIds(cells, ref) : []))),
];

// ---- faults ---------------------------------------------------------------------------------

/** One window's figures, as the fault suite computes them (benchmarks/src/faults/series.ts WindowFigures adds the window's bounds). */
export interface FaultWindow {
  /** Requests planned in the window, each by the time it was sent: those sent in it plus the 8 a login failed in it left unsent. */
  N: number;
  OK: number;
  KO: number;
  /** (OK+KO)/N and (N−OK)/N over the same requests: 0 ≤ OK + KO ≤ N, 0 ≤ EFR ≤ 1. */
  RAC: number | null;
  EFR: number | null;
  koCauses: Record<string, number>;
  /** p95 of successful requests' client response time (ms). */
  p95Ms: number | null;
}

/** One fault run (benchmarks/src/faults/analyse.ts FaultResult). */
export interface FaultRun {
  fault: string;
  variant: string;
  runId: string;
  rate: number;
  applied: { target: string; injectedAtMs: number; undoneAtMs: number };
  before: FaultWindow;
  during: FaultWindow;
  after: FaultWindow;
  timeToFirstErrorMs: number | null;
  recovery: { recovered: boolean; sinceUndoMs: number | null; sinceInjectMs: number | null; lastP95Ms: number | null; thresholdMs: number | null; lastKO: number; bucketMs: number };
  audit: { summary: string } | null;
  lost: number | null;
  duplicated: number | null;
  crashes: { process: string; injected: boolean }[];
  valid: boolean;
  reasons: string[];
  attribution?: { hop: string; expected: string[]; named: boolean } | null;
  attributionError?: string;
}

/** One `bench faults` folder (results/<stamp>-<variant>-faults/). */
export interface FaultsSummary {
  id: string;
  variants: string[];
  faults: string[];
  runs: number;
  /** Runs whose audit counted a request lost or duplicated (or had no audit). */
  lossy: number;
  /** Why faults.json could not be read (its runs are then left out). */
  error?: string;
}

/** One cell of the resilience matrix: every run of that fault on that variant, oldest first. */
export interface ResilienceCell {
  fault: string;
  variant: string;
  runs: { runId: string; folder: string; lost: number | null; efrDuring: number | null; recovered: boolean; recoveryMs: number | null; valid: boolean; reasons: string[] }[];
}

/** `bench faults-table`: rows faults, columns variants. */
export interface ResilienceMatrix {
  faults: string[];
  variants: string[];
  /** Row-major: cells[i][j] is faults[i] on variants[j]. */
  cells: ResilienceCell[][];
}

/** One metric of an architecture verdict (pair-verdicts.ts). */
export interface MetricVerdict {
  /** B − A with its interval (EFR: share; recovery: ms); null interval when it cannot be given. */
  difference: Difference;
  rank: RankTest | null;
  /** "B lower", "B higher" (the interval excludes 0) or "no significant difference". */
  reading: string;
  /** Why the interval is missing or partial (runs not recovered). */
  note?: string;
}

export interface PairVerdict {
  fault: string;
  a: string;
  b: string;
  efrDuring: MetricVerdict;
  recovery: MetricVerdict;
}

/** GET /ops/faults. */
export interface FaultsList {
  folders: FaultsSummary[];
  /** Over every folder; a run named by two folders counts once. */
  matrix: ResilienceMatrix;
  /** The matrix's architecture verdicts (pair-verdicts.ts): per fault, each pair of variants with MIN_RUNS runs or more a cell. */
  verdicts: PairVerdict[];
  runs: Record<string, RunLink>;
}

/** GET /ops/faults/<id>. */
export interface FaultsReport {
  id: string;
  attribution: { named: number; of: number; share: number | null } | null;
  results: FaultRun[];
  runs: Record<string, RunLink>;
  files: string[];
}

/** Lost plus duplicated (both count as lost); null without an audit. */
export const lostOf = (r: Pick<FaultRun, 'lost' | 'duplicated'>): number | null => (r.lost === null ? null : r.lost + (r.duplicated ?? 0));

/** The resilience matrix of fault runs found in folders, as data: the console's table, and `bench faults-table`'s (resilience.ts renders it). */
export function resilienceMatrix(folders: readonly { id: string; results: readonly FaultRun[] }[]): ResilienceMatrix {
  const seen = new Map<string, { run: FaultRun; folder: string }>();
  for (const f of folders) for (const run of f.results) if (!seen.has(run.runId)) seen.set(run.runId, { run, folder: f.id });
  const all = [...seen.values()].sort((a, b) => a.run.runId.localeCompare(b.run.runId));
  const faults = [...new Set(all.map((x) => x.run.fault))].sort();
  const variants = [...new Set(all.map((x) => x.run.variant))].sort();
  return {
    faults,
    variants,
    cells: faults.map((fault) =>
      variants.map((variant) => ({
        fault,
        variant,
        runs: all
          .filter((x) => x.run.fault === fault && x.run.variant === variant)
          .map(({ run, folder }) => ({
            runId: run.runId,
            folder,
            lost: lostOf(run),
            efrDuring: run.during.EFR,
            recovered: run.recovery.recovered,
            recoveryMs: run.recovery.recovered ? (run.recovery.sinceUndoMs ?? 0) : null,
            valid: run.valid,
            reasons: run.reasons,
          })),
      })),
    ),
  };
}
