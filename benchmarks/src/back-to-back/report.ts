// The comparison's record and its table: per preset and hash cost, the CPU per iteration split by
// process group (small profile) and the sustainable rate under the original's client, this tree
// ("new") over the reference; the grader's CPU per grading of each round. Pure: back-to-back.json
// is the input, Markdown the output.
import { pairedRatio } from '@shellgrade/stats';
import type { CpuSplit } from '../cpu-split';
import { COSTS, costLabel, type Cost, type Side } from './plan';

/** 2: the small step's runs are rounds, each a pair (cells' `small` a list); 1 had one aggregate a side. */
export const SUMMARY_SCHEMA = 'shellgrade.back-to-back/2';

/** One small-profile run of a side in a round of the small step. */
export interface SmallResult {
  side: Side;
  round: number;
  runId: string;
  valid: boolean;
  split: CpuSplit | null;
}

export interface ProbeResult {
  peak: number;
  runId: string;
  valid: boolean;
  sustained: boolean;
  ko: number | null;
  spsP95Ms: number | null;
  /** "6 on login" …: what failed. */
  failures: string;
}

export interface CalibrationResult {
  /** Highest rate with 0 KO and SPS p95 ≤ 2 s (bisected to 1 it/s); null when even the first step failed. */
  sustainableRate: number | null;
  /** Null when no step failed (then sustainableRate is a lower bound). */
  firstFailedRate: number | null;
  probes: ProbeResult[];
}

export interface Cell {
  preset: string;
  cost: Cost;
  small: SmallResult[];
  calibration: Partial<Record<Side, CalibrationResult>>;
}

export interface GraderLine {
  side: Side;
  round: number;
  /** "zygote x1", "async x2" … */
  mode: string;
  cpuMsPerGrading: number;
  nodeMsPerGrading: number | null;
}

export interface BackToBackSummary {
  schema: typeof SUMMARY_SCHEMA;
  startedAt: string;
  endedAt: string | null;
  commits: Record<Side, string>;
  /** The host's speed probe lines the grader step printed (scrypt 2^14 …), per side and round. */
  speedProbes: string[];
  grader: GraderLine[];
  cells: Cell[];
  overload: { preset: string; rate: number; runId: string } | null;
  /** What did not run as asked (a side's command failed, a reference without a flag …). */
  notes: string[];
}

export function emptySummary(commits: Record<Side, string>, startedAt: string): BackToBackSummary {
  return { schema: SUMMARY_SCHEMA, startedAt, endedAt: null, commits, speedProbes: [], grader: [], cells: [], overload: null, notes: [] };
}

/** The cell of a preset and cost, made on first use. */
export function cellOf(s: BackToBackSummary, preset: string, cost: Cost): Cell {
  let c = s.cells.find((x) => x.preset === preset && x.cost === cost);
  if (!c) s.cells.push((c = { preset, cost, small: [], calibration: {} }));
  return c;
}

const GRADER_LINE = /^(\S+ x\d+): ([\d.]+) CPU ms per grading, of which the service \(Node\) ([\d.]+|n\/a)/;

/** The lines cpu-per-grading.ts prints ("zygote x1: 21.3 CPU ms per grading, of which the service (Node) 2.1 (…)"). */
export function parseGraderOutput(text: string, side: Side, round: number): { lines: GraderLine[]; probes: string[] } {
  const lines: GraderLine[] = [];
  const probes: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const m = GRADER_LINE.exec(line);
    if (m) lines.push({ side, round, mode: m[1], cpuMsPerGrading: Number(m[2]), nodeMsPerGrading: m[3] === 'n/a' ? null : Number(m[3]) });
    else if (line.startsWith('speed probe:')) probes.push(`${side} round ${round}: ${line}`);
  }
  return { lines, probes };
}

const f1 = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : v.toFixed(1));
const ratio = (n: number | null | undefined, r: number | null | undefined): string => (n === null || n === undefined || !r ? 'n/a' : `${(n / r).toFixed(2)} ×`);

function rateText(c: CalibrationResult | undefined): string {
  if (!c) return 'not measured';
  if (c.sustainableRate === null) return c.firstFailedRate === null ? 'n/a' : `< ${c.firstFailedRate}/s`;
  if (c.firstFailedRate === null) return `≥ ${c.sustainableRate}/s (no step failed)`;
  const failed = c.probes.find((p) => p.peak === c.firstFailedRate);
  return `**${c.sustainableRate}/s** (${c.firstFailedRate}/s: ${failed?.failures || (failed?.valid === false ? 'INVALID' : 'over the SLO')})`;
}

/**
 * A figure of both sides, paired by round: each side's mean over the pairs, new / reference over
 * them and its interval, `holdsOne` appended where the interval holds 1.
 */
function pairedCells(pairs: readonly { ref: number | null; now: number | null }[], holdsOne = ' (holds 1)'): string {
  const both = pairs.filter((p): p is { ref: number; now: number } => p.ref !== null && p.now !== null);
  const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const r = pairedRatio(both.map((p) => p.ref), both.map((p) => p.now));
  const interval = r.lo === null ? (r.note ?? 'n/a') : `${r.lo.toFixed(2)}–${r.hi!.toFixed(2)} ×${r.significant ? '' : holdsOne}`;
  return `${f1(meanOf(both.map((p) => p.now)))} | ${f1(meanOf(both.map((p) => p.ref)))} | ${r.ratio === null ? 'n/a' : `${r.ratio.toFixed(2)} ×`} | ${interval}`;
}

/** The per-group rows of a cell: every group either side has, the system, the rest and the client, over the rounds both sides ran validly. */
function cpuRows(c: Cell): string[] {
  const splitOf = (side: Side, round: number) => c.small.find((x) => x.side === side && x.round === round && x.valid)?.split ?? null;
  const rounds = [...new Set(c.small.map((x) => x.round))].sort((a, b) => a - b).map((round) => ({ round, ref: splitOf('ref', round), now: splitOf('new', round) }));
  const pairs = rounds.filter((p): p is { round: number; ref: CpuSplit; now: CpuSplit } => p.ref !== null && p.now !== null);
  if (pairs.length === 0) return ['| CPU ms / iteration | not measured | | | |'];
  const figure = (of: (x: CpuSplit) => number | null) => pairedCells(pairs.map((p) => ({ ref: of(p.ref), now: of(p.now) })));
  const all = pairs.flatMap((p) => [...p.ref.rows, ...p.now.rows]);
  const groups = [...new Set(all.map((x) => x.group))];
  const kind = (g: string) => all.find((x) => x.group === g)!.kind;
  const group = (g: string) => (x: CpuSplit) => x.rows.find((row) => row.group === g)?.msPerIteration ?? null;
  return [
    `| **CPU ms / iteration, system** (machine − client${machineReadNote(pairs)}) | ${figure((x) => x.machineMsPerIteration)} |`,
    `| **CPU ms / iteration, processes under test** (Σ groups below, each side read alike) | ${figure((x) => x.groupsMsPerIteration)} |`,
    ...groups.map((g) => `| … ${g} (${kind(g)}) | ${figure(group(g))} |`),
    `| … rest (kernel, pm2, unaccounted) | ${figure((x) => x.restMsPerIteration)} |`,
    `| client: k6 | ${figure((x) => x.clientMsPerIteration)} |`,
    `| rounds paired | ${pairs.length} of ${rounds.length} | | | |`,
  ];
}

/**
 * The machine's CPU read one way on one side and another on the other (a harness from before
 * the root cgroup was read) makes the system row compare two methods: say so in its label, and
 * the processes' row, read alike on both sides, is the one to compare.
 */
function machineReadNote(pairs: readonly { ref: CpuSplit; now: CpuSplit }[]): string {
  const differ = pairs.find((p) => p.ref.machineSource !== p.now.machineSource);
  return differ ? `; **read differently**: new by ${differ.now.machineSource}, reference by ${differ.ref.machineSource} — compare the processes' row` : '';
}

/**
 * CPU ms per grading per exec mode: each side's mean, and new / reference as the geometric mean of
 * the rounds' pairs with its 95% interval (libs/stats pairedRatio): the host drifts between rounds,
 * and both sides of a pair meet the same drift. An interval holding 1 says the two are not told apart.
 */
export function graderTable(lines: readonly GraderLine[]): string[] {
  const modes = [...new Set(lines.map((g) => g.mode))];
  return [
    '## Grader: CPU ms per grading',
    '',
    'new / reference: the geometric mean over the rounds, each a pair run one side right after the other, with its 95% interval.',
    '',
    '| exec | new (mean) | reference (mean) | new / reference | 95% interval | rounds (new/ref) |',
    '|---|---:|---:|---:|---|---|',
    ...modes.map((mode) => graderRow(lines, mode)),
    '',
  ];
}

/** One exec mode's row, over the rounds both sides have (a round without its pair is left out). */
function graderRow(lines: readonly GraderLine[], mode: string): string {
  const of = (side: Side) => new Map(lines.filter((g) => g.side === side && g.mode === mode).map((g) => [g.round, g.cpuMsPerGrading]));
  const [ref, now] = [of('ref'), of('new')];
  const rounds = [...ref.keys()].filter((x) => now.has(x)).sort((a, b) => a - b);
  const perRound = rounds.map((x) => `${f1(now.get(x))}/${f1(ref.get(x))}`).join(', ');
  return `| ${mode} | ${pairedCells(rounds.map((x) => ({ ref: ref.get(x)!, now: now.get(x)! })), ' (holds 1: not told apart)')} | ${perRound} |`;
}

export function summaryMarkdown(s: BackToBackSummary): string {
  const cells = [...s.cells].sort((a, b) => a.preset.localeCompare(b.preset) || COSTS.indexOf(a.cost) - COSTS.indexOf(b.cost));
  const out = [
    `# Back to back: ${s.commits.new} (new) against ${s.commits.ref} (reference)`,
    '',
    `Started ${s.startedAt}${s.endedAt ? `, ended ${s.endedAt}` : ''}. One host, the sides interleaved config by config; only the ratios of one comparison count.`,
    '',
  ];
  for (const c of cells) {
    out.push(
      `## ${c.preset}, ${c.cost === 1 ? 'paper-faithful hash (kdf cost 1)' : "the preset's own hash"} (${costLabel(c.cost)})`,
      '',
      '| figure | new | reference | new / reference | 95% interval (over the rounds\' pairs) |',
      '|---|---:|---:|---:|---|',
      `| sustainable rate, the original's client (0 KO, SPS p95 ≤ 2 s) | ${rateText(c.calibration.new)} | ${rateText(c.calibration.ref)} | ${ratio(c.calibration.new?.sustainableRate, c.calibration.ref?.sustainableRate)} | one calibration a side |`,
      ...cpuRows(c),
      '',
      `Runs: ${[...c.small.map((x) => `${x.side} small round ${x.round} ${x.runId}${x.valid ? '' : ' (INVALID)'}`), ...(['new', 'ref'] as Side[]).flatMap((side) => (c.calibration[side]?.probes ?? []).map((p) => `${side} ${p.peak}/s ${p.runId}`))].join('; ') || 'none'}.`,
      '',
    );
  }
  if (s.grader.length) out.push(...graderTable(s.grader));
  if (s.speedProbes.length) out.push('Host speed probes:', '', ...s.speedProbes.map((p) => `- ${p}`), '');
  if (s.overload) out.push(`Overload: ${s.overload.preset} at 2 × ${s.overload.rate}/s (students profile): ${s.overload.runId}.`, '');
  if (s.notes.length) out.push('Notes:', '', ...s.notes.map((n) => `- ${n}`), '');
  return out.join('\n');
}
