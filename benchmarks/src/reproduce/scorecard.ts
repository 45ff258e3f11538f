// The reproduction scorecard as data (scorecard.json): per configuration our figures beside the
// paper's, and across configurations how well our ranking matches the paper's (Spearman's ρ with
// its 95 % interval). Everything a page shows is in it, so the page regenerates from it alone.
import { estimate } from '../aggregate';
import type { Side } from '../compare/sides';
import type { PaperMetrics, RunRecord } from '../types';
import { spearman, type RankCorrelation } from '../stats/rank-correlation';
import type { Testbed } from '../placement/testbed';
import { PAPER_000_TABLE_III, PAPER_000_USERS_PER_S, type PaperFigures } from './paper-000';
import type { ReproducedConfiguration } from './configurations';

export type ScoreMetric = keyof PaperFigures;

/** Table order of the scorecard's rows: Tables I–II's rows as the paper prints them. */
export const SCORE_METRICS: { key: ScoreMetric; label: string; kind: 'share' | 'index' | 'rate' }[] = [
  { key: 'rac', label: 'RAC', kind: 'share' },
  { key: 'fr', label: 'FR', kind: 'share' },
  { key: 'efr', label: 'EFR', kind: 'share' },
  { key: 'spsFr', label: 'FR (Req-SPS)', kind: 'share' },
  { key: 'spsEfr', label: 'EFR (Req-SPS)', kind: 'share' },
  { key: 'lt800', label: '< 800 ms', kind: 'share' },
  { key: 'b800_1200', label: '800–1200 ms', kind: 'share' },
  { key: 'ge1200', label: '≥ 1200 ms', kind: 'share' },
  { key: 'apdex', label: 'Apdex', kind: 'index' },
  { key: 'throughput', label: 'throughput (OK/s)', kind: 'rate' },
];

/** Rankings compared across configurations: the paper prints Apdex in Table I only, so the response-time share < 800 ms ranks Tables I + II. */
export const RANKED: { key: ScoreMetric; why: string }[] = [
  { key: 'apdex', why: 'performance as the paper aggregates it (Table I only: Table II prints no Apdex)' },
  { key: 'efr', why: 'availability (Tables I + II)' },
  { key: 'throughput', why: 'OK/s (Tables I + II)' },
  { key: 'lt800', why: 'performance across Tables I + II: the only response-time figure both print' },
];

/** Our figure: mean over the VALID runs ± the 95 % half-width (null: no run gave it). */
export interface Ours {
  mean: number | null;
  half: number | null;
  n: number;
}

export interface ScoreRow {
  label: string;
  variant: string;
  tables: ('I' | 'II')[];
  /** Runs recorded / VALID. */
  runs: number;
  valid: number;
  paper: PaperFigures;
  ours: Record<ScoreMetric, Ours>;
  /** Table III's memory figure (mean − min of the configuration's use, share of machine memory) and energy per run, Wh (RAPL, else the CPU-model estimate). */
  memoryShare: Ours;
  energyWh: Ours;
}

export interface Ranking {
  metric: ScoreMetric | 'memory';
  why: string;
  /** Configurations ranked (both sides with a figure), paper's value then ours. */
  pairs: { label: string; paper: number; ours: number }[];
  rho: RankCorrelation;
}

export interface Scorecard {
  schema: 'shellgrade.scorecard/1';
  paper: '000';
  /** The record it was computed from, relative to the results root. */
  record: string;
  testbed: Testbed;
  /** it/s every configuration ran at, beside the paper's 200 users/s; naked-mon's EFR found there. */
  peak: number | null;
  paperUsersPerS: number;
  multiple: number | null;
  searchEfr: number | null;
  capacity: { rate: number; source: string };
  startedAt: string;
  endedAt: string | null;
  commit: string | null;
  machine: { cpuModel: string; cores: number; memGiB: number; kernel: string; speed: { scryptN14Ms: number; spawnMs: number } | null } | null;
  runsAsked: number;
  rows: ScoreRow[];
  rankings: Ranking[];
  /** Configurations of the tables no preset stands for, and notes on the record (failures, stops). */
  missing: string[];
  notes: string[];
}

const hold = (r: RunRecord): PaperMetrics => r.paper.stages?.hold ?? r.paper;

const PICK: Record<ScoreMetric, (p: PaperMetrics) => number | null> = {
  rac: (p) => p.RAC,
  fr: (p) => p.FR,
  efr: (p) => p.efr_paper,
  spsFr: (p) => p.sps.FR,
  spsEfr: (p) => p.sps.efr_paper,
  lt800: (p) => p.buckets.lt800,
  b800_1200: (p) => p.buckets.b800_1200,
  ge1200: (p) => p.buckets.ge1200,
  apdex: (p) => p.apdex,
  throughput: (p) => p.throughput,
};

function ours(values: (number | null | undefined)[]): Ours {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const e = estimate(xs);
  return { mean: e?.mean ?? null, half: e?.ci95 ?? null, n: xs.length };
}

export function scoreRow(c: ReproducedConfiguration, side: Side | null, recorded: number): ScoreRow {
  const runs = side?.runs ?? [];
  const of = (k: ScoreMetric): Ours => ours(runs.map((r) => PICK[k](hold(r))));
  return {
    label: c.label,
    variant: c.variant,
    tables: c.tables,
    runs: recorded,
    valid: runs.length,
    paper: c.figures,
    ours: Object.fromEntries(SCORE_METRICS.map((m) => [m.key, of(m.key)])) as Record<ScoreMetric, Ours>,
    memoryShare: ours(runs.map((r) => r.resources.variantMemShare)),
    energyWh: ours(runs.map((r) => r.derived.energyWh ?? r.derived.energyEstimate?.wh ?? null)),
  };
}

function ranking(metric: Ranking['metric'], why: string, pairs: { label: string; paper: number | null; ours: number | null }[]): Ranking {
  const both = pairs.filter((p): p is { label: string; paper: number; ours: number } => p.paper !== null && p.ours !== null);
  return { metric, why, pairs: both, rho: spearman(both.map((p) => p.paper), both.map((p) => p.ours)) };
}

/** Spearman's ρ of each ranked metric across the rows, and Table III's memory ranking. */
export function rankings(rows: ScoreRow[]): Ranking[] {
  const byLabel = new Map(rows.map((r) => [r.label, r]));
  return [
    ...RANKED.map(({ key, why }) => ranking(key, why, rows.map((r) => ({ label: r.label, paper: r.paper[key], ours: r.ours[key].mean })))),
    ranking(
      'memory',
      "Table III's memory (mean − min of the configuration's use, share of the machine's memory)",
      PAPER_000_TABLE_III.map((t) => ({ label: t.label, paper: t.memoryPct / 100, ours: byLabel.get(t.label)?.memoryShare.mean ?? null })),
    ),
  ];
}

export interface ScorecardInput {
  configurations: ReproducedConfiguration[];
  missing: string[];
  /** Merged VALID runs per preset (absent: none ran). */
  sides: Record<string, Side>;
  record: {
    dir: string;
    /** smoke: the runner end to end at the shortest shape (its figures decide nothing). */
    mode?: 'full' | 'smoke';
    testbed: Testbed;
    peak: number | null;
    multiple: number | null;
    searchEfr: number | null;
    capacity: { rate: number; source: string };
    startedAt: string;
    endedAt: string | null;
    commit: string | null;
    runsAsked: number;
    runs: Record<string, string[]>;
    failed: { variant: string; round: number; error: string }[];
    stoppedEarly?: string;
  };
}

export function buildScorecard(i: ScorecardInput): Scorecard {
  const rows = i.configurations.map((c) => scoreRow(c, i.sides[c.variant] ?? null, i.record.runs[c.variant]?.length ?? 0));
  const meta = Object.values(i.sides)[0]?.result.aggregated.meta.machine;
  const r = i.record;
  const notes = [
    ...(r.mode === 'smoke' ? ['smoke run (--smoke): the runner end to end at the shortest profile; its figures and rankings decide nothing'] : []),
    ...(r.stoppedEarly ? [`stopped early: ${r.stoppedEarly}`] : []),
    ...r.failed.map((f) => `${f.variant} failed in round ${f.round}: ${f.error}`),
    ...rows.filter((x) => x.valid < r.runsAsked).map((x) => `${x.label} (${x.variant}): ${x.valid} VALID of ${x.runs} recorded, ${r.runsAsked} asked`),
  ];
  return {
    schema: 'shellgrade.scorecard/1',
    paper: '000',
    record: r.dir,
    testbed: r.testbed,
    peak: r.peak,
    paperUsersPerS: PAPER_000_USERS_PER_S,
    multiple: r.multiple,
    searchEfr: r.searchEfr,
    capacity: r.capacity,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    commit: r.commit,
    machine: meta ? { cpuModel: meta.cpuModel, cores: meta.cores, memGiB: Math.round(meta.memBytes / 2 ** 30), kernel: meta.kernel, speed: meta.speed ? { scryptN14Ms: meta.speed.scryptN14Ms, spawnMs: meta.speed.spawnMs } : null } : null,
    runsAsked: r.runsAsked,
    rows,
    rankings: rankings(rows),
    missing: i.missing,
    notes,
  };
}
