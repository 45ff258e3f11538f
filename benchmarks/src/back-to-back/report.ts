// The comparison's record and its table: per preset and hash cost, the CPU per iteration split by
// process group (small profile) and the sustainable rate under the original's client, this tree
// ("new") over the reference; the grader's CPU per grading of each round. Pure: back-to-back.json
// is the input, Markdown the output.
import { pairedRatio } from '@shellgrade/stats';
import type { CpuSplit } from '../cpu-split';
import { COSTS, costLabel, type Cost, type Side } from './plan';

export const SUMMARY_SCHEMA = 'shellgrade.back-to-back/1';

export interface SmallResult {
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
  small: Partial<Record<Side, SmallResult>>;
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
  if (!c) s.cells.push((c = { preset, cost, small: {}, calibration: {} }));
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

/** The per-group rows of a cell: every group either side has, the system, the rest and the client. */
function cpuRows(c: Cell): string[] {
  const n = c.small.new?.split ?? null;
  const r = c.small.ref?.split ?? null;
  if (!n && !r) return ['| CPU ms / iteration | not measured | | |'];
  const groups = [...new Set([...(n?.rows ?? []), ...(r?.rows ?? [])].map((x) => x.group))];
  const of = (s: CpuSplit | null, g: string) => s?.rows.find((x) => x.group === g)?.msPerIteration ?? null;
  const kind = (g: string) => [...(n?.rows ?? []), ...(r?.rows ?? [])].find((x) => x.group === g)!.kind;
  return [
    `| **CPU ms / iteration, system** (machine − client) | **${f1(n?.machineMsPerIteration)}** | **${f1(r?.machineMsPerIteration)}** | **${ratio(n?.machineMsPerIteration, r?.machineMsPerIteration)}** |`,
    ...groups.map((g) => `| … ${g} (${kind(g)}) | ${f1(of(n, g))} | ${f1(of(r, g))} | ${ratio(of(n, g), of(r, g))} |`),
    `| … rest (kernel, pm2, unaccounted) | ${f1(n?.restMsPerIteration)} | ${f1(r?.restMsPerIteration)} | ${ratio(n?.restMsPerIteration, r?.restMsPerIteration)} |`,
    `| client: k6 | ${f1(n?.clientMsPerIteration)} | ${f1(r?.clientMsPerIteration)} | ${ratio(n?.clientMsPerIteration, r?.clientMsPerIteration)} |`,
  ];
}

/**
 * CPU ms per grading per exec mode: each side's mean, and new / reference as the geometric mean of
 * the rounds' pairs with its 95% interval (libs/stats pairedRatio): the host drifts between rounds,
 * and both sides of a pair meet the same drift. An interval holding 1 says the two are not told apart.
 */
export function graderTable(lines: readonly GraderLine[]): string[] {
  const modes = [...new Set(lines.map((g) => g.mode))];
  const rows = modes.map((mode) => {
    const of = (side: Side) => new Map(lines.filter((g) => g.side === side && g.mode === mode).map((g) => [g.round, g.cpuMsPerGrading]));
    const [ref, now] = [of('ref'), of('new')];
    const rounds = [...ref.keys()].filter((r) => now.has(r)).sort((a, b) => a - b);
    const r = pairedRatio(rounds.map((x) => ref.get(x)!), rounds.map((x) => now.get(x)!));
    const meanOf = (m: Map<number, number>) => (rounds.length ? rounds.reduce((a, x) => a + m.get(x)!, 0) / rounds.length : null); // over the pairs only
    const interval = r.lo === null ? (r.note ?? 'n/a') : `${r.lo.toFixed(2)}–${r.hi!.toFixed(2)} ×${r.significant ? '' : ' (holds 1: not told apart)'}`;
    const perRound = rounds.map((x) => `${f1(now.get(x))}/${f1(ref.get(x))}`).join(', ');
    return `| ${mode} | ${f1(meanOf(now))} | ${f1(meanOf(ref))} | ${r.ratio === null ? 'n/a' : `${r.ratio.toFixed(2)} ×`} | ${interval} | ${perRound} |`;
  });
  return [
    '## Grader: CPU ms per grading',
    '',
    'new / reference: the geometric mean over the rounds, each a pair run one side right after the other, with its 95% interval.',
    '',
    '| exec | new (mean) | reference (mean) | new / reference | 95% interval | rounds (new/ref) |',
    '|---|---:|---:|---:|---|---|',
    ...rows,
    '',
  ];
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
      '| figure | new | reference | new / reference |',
      '|---|---:|---:|---:|',
      `| sustainable rate, the original's client (0 KO, SPS p95 ≤ 2 s) | ${rateText(c.calibration.new)} | ${rateText(c.calibration.ref)} | ${ratio(c.calibration.new?.sustainableRate, c.calibration.ref?.sustainableRate)} |`,
      ...cpuRows(c),
      '',
      `Runs: ${(['new', 'ref'] as Side[]).flatMap((side) => [c.small[side] ? `${side} small ${c.small[side]!.runId}${c.small[side]!.valid ? '' : ' (INVALID)'}` : null, ...(c.calibration[side]?.probes ?? []).map((p) => `${side} ${p.peak}/s ${p.runId}`)]).filter(Boolean).join('; ') || 'none'}.`,
      '',
    );
  }
  if (s.grader.length) out.push(...graderTable(s.grader));
  if (s.speedProbes.length) out.push('Host speed probes:', '', ...s.speedProbes.map((p) => `- ${p}`), '');
  if (s.overload) out.push(`Overload: ${s.overload.preset} at 2 × ${s.overload.rate}/s (students profile): ${s.overload.runId}.`, '');
  if (s.notes.length) out.push('Notes:', '', ...s.notes.map((n) => `- ${n}`), '');
  return out.join('\n');
}
