/**
 * What the console's Findings and Faults pages show (GET /ops/findings[/<id>], GET
 * /ops/faults[/<id>], libs/console-server ops-findings.ts / ops-faults.ts): the parts of the
 * harness's findings.json (benchmarks/src/findings/report.ts) and faults.json
 * (benchmarks/src/faults/report.ts) the console reads, and the resilience matrix of `bench
 * faults-table` (benchmarks/src/faults/resilience.ts) as data rather than text. The zod schemas
 * are the one declaration — the server reads the harness's files through them — and the types are
 * read off them, for the server, the harness and the browser.
 */
import { z } from 'zod';
import { differenceSchema, rankTestSchema } from './figures';
import { RUN_ID } from './results';

const num = z.number().nullable();

/** 'not testable': the testbed cannot show the claim's mechanism (fewer CPUs than processes), whatever was measured. */
export const FINDING_VERDICTS = ['reproduced', 'refuted', 'inconclusive', 'not testable'] as const;
export type FindingVerdict = (typeof FINDING_VERDICTS)[number];

/** A benchmark run (results/<id>/) a verdict or a cell rests on, and where to open it. */
export const runLinkSchema = z.object({
  id: z.string(),
  /** Whether results/<id>/ exists (a findings record may name runs since removed). */
  present: z.boolean(),
  variant: z.string().nullable(),
  /** The run's file to open first, relative to its folder (report/report.html, a k6 dashboard, meta.json); null: none. */
  report: z.string().nullable(),
  /** breakdown.html when the run's traces were analysed (npm run traces). */
  breakdown: z.string().nullable(),
  /** Traces to open in the console's trace view: the breakdown's exemplars, a fault window's slowest. */
  traces: z.array(z.object({ label: z.string(), traceId: z.string() })),
});
export type RunLink = z.infer<typeof runLinkSchema>;

// ---- findings -------------------------------------------------------------------------------

/** One findings folder (results/findings/<id>/). */
export const findingsSummarySchema = z.object({
  id: z.string(),
  mode: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** Verdict counts; null while findings.json is not written (a run stopped before its evaluation). */
  counts: z.record(z.enum(FINDING_VERDICTS), z.number()).nullable(),
  /** Report files of the folder, relative to it (findings.html, findings.md, compare/<x>/compare.html). */
  files: z.array(z.string()),
  /** Why findings.json could not be read, when it is there but does not parse. */
  error: z.string().optional(),
});
export type FindingsSummary = z.infer<typeof findingsSummarySchema>;

/** B − A with its 95% Welch interval (benchmarks/src/compare/difference.ts). */
export type FindingDifference = z.infer<typeof differenceSchema>;

export const findingCellRefSchema = z.object({ role: z.string(), level: z.string(), variant: z.string(), runId: z.string(), validRuns: z.array(z.number()) });
export type FindingCellRef = z.infer<typeof findingCellRefSchema>;

/** One comparison of a claim (evaluate.ts PartResult). */
export const findingPartSchema = z.object({
  test: z.object({ a: z.string(), b: z.string(), level: z.string(), metric: z.string(), expect: z.string(), reads: z.string() }),
  a: findingCellRefSchema.nullable(),
  b: findingCellRefSchema.nullable(),
  difference: differenceSchema.nullable(),
  comparison: z
    .object({
      rank: z.object({ p: z.number(), cliffsDelta: z.number(), magnitude: z.string() }).nullable(),
      tost: z.object({ margin: z.number(), p: z.number(), equivalent: z.boolean() }).nullable(),
    })
    .nullable(),
  verdict: z.object({ verdict: z.enum(FINDING_VERDICTS), why: z.string(), settle: z.string().optional() }),
});
export type FindingPart = z.infer<typeof findingPartSchema>;

/** One claim's result (evaluate.ts FindingResult). */
export const findingResultSchema = z.object({
  claim: z.object({ id: z.string(), title: z.string(), quote: z.string() }),
  verdict: z.enum(FINDING_VERDICTS),
  rule: z.string(),
  parts: z.array(findingPartSchema),
  keyFigure: z.string(),
  explanation: z.array(z.string()),
  caveats: z.array(z.string()),
});
export type FindingResult = z.infer<typeof findingResultSchema>;

/** What the findings run did (record.ts FindingsRecord, findings-runs.json). */
export const findingsRunRecordSchema = z.object({
  mode: z.string(),
  seed: z.number(),
  capacity: z.object({ rate: z.number(), source: z.string().optional() }).nullable(),
  paper: z.object({ multiple: num, efr: num, notFound: z.string().nullable().optional() }),
  peaks: z.record(z.string(), z.number()),
  runs: z.record(z.string(), z.array(z.string())),
  failed: z.array(z.object({ cell: z.string(), round: z.number(), error: z.string() })),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});
export type FindingsRunRecord = z.infer<typeof findingsRunRecordSchema>;

/** GET /ops/findings. */
export const findingsListSchema = z.object({ findings: z.array(findingsSummarySchema) });
export type FindingsList = z.infer<typeof findingsListSchema>;

/** GET /ops/findings/<id>. */
export const findingsReportSchema = z.object({
  id: z.string(),
  mode: z.string().nullable(),
  record: findingsRunRecordSchema.nullable(),
  /** null: findings.json not written yet. */
  results: z.array(findingResultSchema).nullable(),
  /** The run folders merged into each cell, by cell key "<variant>@<level>" (findings.json cells, split). */
  cells: z.record(z.string(), z.array(z.string())),
  /** Every run named by the results or the record. */
  runs: z.record(z.string(), runLinkSchema),
  files: z.array(z.string()),
});
export type FindingsReport = z.infer<typeof findingsReportSchema>;

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
export const faultWindowSchema = z.object({
  /** Requests planned in the window, each by the time it was sent: those sent in it plus the 8 a login failed in it left unsent. */
  N: z.number(),
  OK: z.number(),
  KO: z.number(),
  /** (OK+KO)/N and (N−OK)/N over the same requests: 0 ≤ OK + KO ≤ N, 0 ≤ EFR ≤ 1. */
  RAC: num,
  EFR: num,
  koCauses: z.record(z.string(), z.number()),
  /** p95 of successful requests' client response time (ms). */
  p95Ms: num,
});
export type FaultWindow = z.infer<typeof faultWindowSchema>;

/** One fault run (benchmarks/src/faults/analyse.ts FaultResult). */
export const faultRunSchema = z.object({
  fault: z.string(),
  variant: z.string(),
  runId: z.string().regex(RUN_ID, 'not a run id'),
  rate: z.number(),
  applied: z.object({ target: z.string(), injectedAtMs: z.number(), undoneAtMs: z.number() }),
  before: faultWindowSchema,
  during: faultWindowSchema,
  after: faultWindowSchema,
  timeToFirstErrorMs: num,
  recovery: z.object({ recovered: z.boolean(), sinceUndoMs: num, sinceInjectMs: num, lastP95Ms: num, thresholdMs: num, lastKO: z.number(), bucketMs: z.number() }),
  audit: z.object({ summary: z.string() }).nullable(),
  lost: num,
  duplicated: num,
  crashes: z.array(z.object({ process: z.string(), injected: z.boolean() })),
  valid: z.boolean(),
  reasons: z.array(z.string()),
  attribution: z.object({ hop: z.string(), expected: z.array(z.string()), named: z.boolean() }).nullable().optional(),
  attributionError: z.string().optional(),
});
export type FaultRun = z.infer<typeof faultRunSchema>;

/** One `bench faults` folder (results/<stamp>-<variant>-faults/). */
export const faultsSummarySchema = z.object({
  id: z.string(),
  variants: z.array(z.string()),
  faults: z.array(z.string()),
  runs: z.number(),
  /** Runs whose audit counted a request lost or duplicated (or had no audit). */
  lossy: z.number(),
  /** Why faults.json could not be read (its runs are then left out). */
  error: z.string().optional(),
});
export type FaultsSummary = z.infer<typeof faultsSummarySchema>;

/** One cell of the resilience matrix: every run of that fault on that variant, oldest first. */
export const resilienceCellSchema = z.object({
  fault: z.string(),
  variant: z.string(),
  runs: z.array(
    z.object({ runId: z.string(), folder: z.string(), lost: num, efrDuring: num, recovered: z.boolean(), recoveryMs: num, valid: z.boolean(), reasons: z.array(z.string()) }),
  ),
});
export type ResilienceCell = z.infer<typeof resilienceCellSchema>;

/** `bench faults-table`: rows faults, columns variants. */
export const resilienceMatrixSchema = z.object({
  faults: z.array(z.string()),
  variants: z.array(z.string()),
  /** Row-major: cells[i][j] is faults[i] on variants[j]. */
  cells: z.array(z.array(resilienceCellSchema)),
});
export type ResilienceMatrix = z.infer<typeof resilienceMatrixSchema>;

/** One metric of an architecture verdict (pair-verdicts.ts). */
export const metricVerdictSchema = z.object({
  /** B − A with its interval (EFR: share; recovery: ms); null interval when it cannot be given. */
  difference: differenceSchema,
  rank: rankTestSchema.nullable(),
  /** "B lower", "B higher" (the interval excludes 0) or "no significant difference". */
  reading: z.string(),
  /** Why the interval is missing or partial (runs not recovered). */
  note: z.string().optional(),
});
export type MetricVerdict = z.infer<typeof metricVerdictSchema>;

export const pairVerdictSchema = z.object({ fault: z.string(), a: z.string(), b: z.string(), efrDuring: metricVerdictSchema, recovery: metricVerdictSchema });
export type PairVerdict = z.infer<typeof pairVerdictSchema>;

/** GET /ops/faults. */
export const faultsListSchema = z.object({
  folders: z.array(faultsSummarySchema),
  /** Over every folder; a run named by two folders counts once. */
  matrix: resilienceMatrixSchema,
  /** The matrix's architecture verdicts (pair-verdicts.ts): per fault, each pair of variants with MIN_RUNS runs or more a cell. */
  verdicts: z.array(pairVerdictSchema),
  runs: z.record(z.string(), runLinkSchema),
});
export type FaultsList = z.infer<typeof faultsListSchema>;

/** GET /ops/faults/<id>. */
export const faultsReportSchema = z.object({
  id: z.string(),
  attribution: z.object({ named: z.number(), of: z.number(), share: num }).nullable(),
  results: z.array(faultRunSchema),
  runs: z.record(z.string(), runLinkSchema),
  files: z.array(z.string()),
});
export type FaultsReport = z.infer<typeof faultsReportSchema>;

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
