// findings.md / findings.html: a one-screen summary table first (finding, verdict, key figure,
// the runs and exemplar traces it rests on), then the 2 × 2, then each finding in full.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FindingResult as ContractFindingResult, FindingsRunRecord } from '@shellgrade/console-contract';
import type { Difference } from '@shellgrade/stats';
import type { Side } from '../compare/sides';
import { toHtml, toMarkdown, type Block } from './blocks';
import { protocolKey, type FindingResult, type PartResult } from './evaluate';
import { differenceNumber, differenceUnit, METRICS } from './metrics';
import type { Principle } from './methodology';
import type { FindingsPlan } from './plan';
import { CLAIMS_VERSION } from './claims';
import type { FindingsRecord } from './record';
import type { CompareLink } from './design-compares';
import type { DesignRow } from './two-by-two';
import { RULES } from './verdict';

export interface ReportContext {
  plan: Pick<FindingsPlan, 'mode' | 'protocol' | 'roles' | 'cells' | 'seed' | 'capacity'>;
  /** Merged runs by cell, "<variant>@<level>". */
  cells: Record<string, Side>;
  /** What the run did (seed, peaks, order), when it was run rather than evaluated from results. */
  record?: FindingsRecord;
  methodology?: Principle[];
  /** Where the report goes: links to runs are relative to it. */
  dir: string;
  /** Path from the report folder to the results root. */
  resultsRel: string;
  generatedAt: string;
  /** The 2 × 2's simple effects as full compare pages. */
  compares?: CompareLink[];
}

function num(v: number | null | undefined, unit: string): string {
  if (v === null || v === undefined) return 'n/a';
  if (unit === '') return `${(100 * v).toFixed(1)}%`;
  return `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)}${unit === 'index' ? '' : ` ${unit}`}`;
}

function diffCell(d: Difference | null, unit: string): string {
  if (!d || d.diff === null) return 'n/a';
  const f = (v: number): string => differenceNumber(v, unit);
  return `${f(d.diff)}${differenceUnit(unit)} ${d.lo === null ? '(no CI)' : `[${f(d.lo)}, ${f(d.hi!)}]`}`;
}

function runLinks(r: FindingResult, ctx: ReportContext): string {
  const ids = [...new Set(r.parts.flatMap((p) => [p.a, p.b]).filter((c) => c !== null).map((c) => c!.runId))];
  return (
    ids
      .map((id) => {
        const s = Object.values(ctx.cells).find((c) => c.result.runId === id)!;
        const trace = s.result.breakdown ? ` ([traces](${ctx.resultsRel}/${id}/breakdown.html))` : '';
        return `[${s.result.aggregated.meta.variant}](${ctx.resultsRel}/${id}/)${trace}`;
      })
      .join(', ') || 'none'
  );
}

const label = (r: FindingResult): string => `(${r.claim.id}) ${r.claim.title}`;

/** "2 reproduced, 6 refuted, 2 inconclusive" (and not testable, where a verdict says so). */
export function verdictCounts(results: readonly { verdict: string }[]): string {
  const kinds = ['reproduced', 'refuted', 'inconclusive', ...(results.some((r) => r.verdict === 'not testable') ? ['not testable'] : [])];
  return kinds.map((v) => `${results.filter((r) => r.verdict === v).length} ${v}`).join(', ');
}

/** "(1.1) ..." label of a finding. */
export const findingLabel = label;

/** The protocol paragraph of the report's head (loads, run shape, repetitions, statistics). */
export const protocolSummary = (ctx: Pick<ReportContext, 'plan' | 'record'>): string => protocolText(ctx);

function summary(results: FindingResult[], ctx: ReportContext): Block[] {
  const counts = ['reproduced', 'refuted', 'inconclusive', 'not testable'].map((v) => `${results.filter((r) => r.verdict === v).length} ${v}`).join(', ');
  return [
    { kind: 'h2', text: 'Summary' },
    { kind: 'p', text: `${counts}. Verdict rule: ${RULES.finding}.` },
    { kind: 'table', head: ['finding', 'verdict', 'decisive comparison (B − A, 95% CI, Cliff\'s δ)', 'explanation', 'runs (and exemplar traces)', 'evidence'], rows: results.map((r) => [label(r), `**${r.verdict}**`, r.keyFigure, r.explanation[0] ?? 'none', runLinks(r, ctx), r.evidence.join('; ') || 'none']) },
  ];
}

function designBlocks(rows: DesignRow[], compares: CompareLink[]): Block[] {
  if (rows.length === 0) return [];
  return [
    { kind: 'h2', text: '2 × 2: architecture × grader execution' },
    { kind: 'p', text: 'Means over valid runs per cell; effects are B − A with 95% Welch intervals; the interaction is (MSA − MON | async) − (MSA − MON | blocking): how much of the architecture effect the blocking grader makes.' },
    {
      kind: 'table',
      head: ['metric', 'MON blocking', 'MON async', 'MSA blocking', 'MSA async', 'MSA − MON (blocking)', 'MSA − MON (async)', 'async − blocking (MON)', 'async − blocking (MSA)', 'interaction'],
      rows: rows.map((d) => {
        const u = METRICS[d.metric].unit;
        const i = d.interaction;
        return [
          METRICS[d.metric].label,
          num(d.means['mon-blocking'], u),
          num(d.means['mon-async'], u),
          num(d.means['msa-blocking'], u),
          num(d.means['msa-async'], u),
          diffCell(d.architectureBlocking, u),
          diffCell(d.architectureAsync, u),
          diffCell(d.graderMonolith, u),
          diffCell(d.graderMsa, u),
          i ? diffCell({ diff: i.value, lo: i.lo, hi: i.hi } as Difference, u) : 'n/a',
        ];
      }),
    },
    ...(compares.length ? [{ kind: 'p', text: 'Every request type and metric of each effect (bench compare):' } as Block, { kind: 'list', items: compares.map((c) => `[${c.label}](${c.href})`) } as Block] : []),
  ];
}

function rankCell(p: PartResult): string {
  const r = p.comparison?.rank;
  return r ? `U = ${r.uB}, p = ${r.p.toFixed(3)}; δ = ${r.cliffsDelta.toFixed(2)} (${r.magnitude})` : 'n/a';
}

function tostCell(p: PartResult): string {
  const t = p.comparison?.tost;
  return t ? `±${t.margin.toPrecision(3)}: p = ${t.p.toPrecision(2)}${t.equivalent ? ', equivalent' : ''}` : 'n/a';
}

/** One row of a claim's table (PART_HEAD's columns): the published summary keeps these strings. */
export function partRow(p: PartResult): string[] {
  const m = METRICS[p.test.metric];
  return [
    p.test.reads,
    p.test.level,
    p.a ? `${p.a.variant} (${p.a.role})` : `— (${p.test.a})`,
    p.b ? `${p.b.variant} (${p.b.role})` : `— (${p.test.b})`,
    m.label,
    `B − A ${p.test.expect}`,
    diffCell(p.difference, m.unit),
    rankCell(p),
    tostCell(p),
    `**${p.verdict.verdict}**`,
    p.verdict.why + (p.verdict.settle ? `; would settle it: ${p.verdict.settle}` : ''),
  ];
}

export const PART_HEAD = ['part', 'load', 'A', 'B', 'metric', 'expected', 'B − A [95% Welch CI]', "Mann–Whitney, Cliff's δ", 'TOST (margin)', 'verdict', 'why'];

/** The rules a finding's parts were judged by, as its section prints them. */
export function rulesText(r: FindingResult): string {
  const rules = [...new Set(r.parts.map((p) => `B − A ${p.test.expect}: ${p.rule}`))];
  return `Rules: ${rules.join(' · ')} · ${r.rule}.`;
}

function findingBlocks(r: FindingResult): Block[] {
  return [
    { kind: 'h2', text: `${label(r)}: ${r.verdict}` },
    { kind: 'quote', text: r.claim.quote },
    { kind: 'table', head: PART_HEAD, rows: r.parts.map(partRow) },
    { kind: 'p', text: rulesText(r) },
    { kind: 'h3', text: 'Explanation' },
    { kind: 'list', items: r.explanation.length ? r.explanation : ['no run to explain from'] },
    ...(r.caveats.length ? [{ kind: 'h3', text: 'Caveats' } as Block, { kind: 'list', items: r.caveats } as Block] : []),
  ];
}

function methodologyBlocks(principles: Principle[] | undefined): Block[] {
  if (!principles?.length) return [];
  return [
    { kind: 'h2', text: 'Methodology (Papadopoulos et al., IEEE TSE 2019)' },
    { kind: 'p', text: 'The eight principles for reproducible performance evaluation, each with this run\'s evidence; **NOT MET** marks where it falls short.' },
    { kind: 'table', head: ['principle', 'evidence', 'met'], rows: principles.map((p) => [`${p.id} ${p.name}`, p.evidence, p.flag ? `**NOT MET**: ${p.flag}` : 'met']) },
  ];
}

function protocolText(ctx: Pick<ReportContext, 'plan' | 'record'>): string {
  const pr = ctx.plan.protocol;
  const rec = ctx.record;
  const rate = rec?.capacity.rate ?? ctx.plan.capacity?.rate;
  const peaks = rec ? Object.entries(rec.peaks).map(([l, p]) => `${l} = ${p} it/s`).join(', ') : pr.levels.join(', ');
  const paper = rec ? (rec.paper.multiple === null ? 'paper-equivalent load not found' : `paper-equivalent load ${rec.paper.multiple}× (naked-mon EFR ${(100 * rec.paper.efr!).toFixed(1)}% against paper 000's 61.5% at 200 users/s)`) : 'paper-equivalent load from the run';
  return `Loads as multiples of naked-mon's sustainable rate (SPS p95 ≤ 2 s, 0 KO) ${rate ?? '?'} it/s: ${peaks}; ${paper}. Each run: profile ${pr.profile}, ramp ${pr.rampS} s + hold ${pr.holdS} s. Repetitions: ${pr.stopping.minRuns}–${pr.stopping.maxRuns} runs per cell, interleaved in a seeded random order (seed ${rec?.seed ?? ctx.plan.seed}), until the 95% interval of B − A is within ±${100 * pr.stopping.precision}% of A's median. Claims' tests: version ${CLAIMS_VERSION} (claims.ts)${rec?.claimsVersion !== undefined && rec.claimsVersion !== CLAIMS_VERSION ? `; the run was planned with version ${rec.claimsVersion}${rec.continuations?.length ? ' and continued with the current one' : ''}` : ''}. Figures over VALID runs only; each comparison: Welch's 95% interval, Mann–Whitney U with Cliff's δ, and TOST at the claim's margin (±10% of the larger mean unless it states another).`;
}

export function findingsBlocks(results: FindingResult[], design: DesignRow[], ctx: ReportContext): Block[] {
  const cells = Object.values(ctx.cells);
  const machine = cells[0]?.result.aggregated.meta.machine;
  return [
    { kind: 'h1', text: `Paper 000's findings on shellgrade (${ctx.plan.mode})` },
    { kind: 'p', text: `Generated ${ctx.generatedAt} from ${cells.length} cells. ${protocolText(ctx)}${machine ? ` Machine: ${machine.cpuModel}, ${machine.cores} cores, ${(machine.memBytes / 2 ** 30).toFixed(0)} GiB, kernel ${machine.kernel}.` : ''}` },
    ...summary(results, ctx),
    ...methodologyBlocks(ctx.methodology),
    { kind: 'h2', text: 'Cells' },
    {
      kind: 'list',
      items: ctx.plan.cells.map((c) => {
        const key = `${c.variant}@${c.level}`;
        const s = ctx.cells[key];
        if (!s) return `${key} (${c.roles.join(', ')}): not run`;
        const a = s.result.aggregated;
        return `${key} (${c.roles.join(', ')}): ${s.runs.length}/${a.runs} runs VALID, from [${a.meta.runId}](${ctx.resultsRel}/${a.meta.runId}/)${s.ref.includes('+') ? ` and ${s.ref.split('+').length - 1} more` : ''}, ${protocolKey(s)}`;
      }),
    },
    ...designBlocks(design, ctx.compares ?? []),
    ...results.flatMap(findingBlocks),
  ];
}

export function writeFindingsReport(results: FindingResult[], design: DesignRow[], ctx: ReportContext): { markdown: string; files: string[] } {
  const blocks = findingsBlocks(results, design, ctx);
  const markdown = toMarkdown(blocks);
  mkdirSync(ctx.dir, { recursive: true });
  const files = [join(ctx.dir, 'findings.md'), join(ctx.dir, 'findings.html'), join(ctx.dir, 'findings.json')];
  writeFileSync(files[0], markdown);
  writeFileSync(files[1], toHtml(`Paper 000's findings on shellgrade (${ctx.plan.mode})`, blocks));
  // What the console reads of findings.json is the contract's (`satisfies`): a field renamed here fails the typecheck.
  const record = (ctx.record ?? null) satisfies FindingsRunRecord | null;
  // Each cell's host speed probe: --compare sets two records' hosts side by side.
  const speeds = Object.fromEntries(Object.entries(ctx.cells).map(([k, s]) => [k, s.result.aggregated.meta.machine?.speed ?? null]));
  writeFileSync(files[2], JSON.stringify({ plan: ctx.plan, record, cells: Object.fromEntries(Object.entries(ctx.cells).map(([k, s]) => [k, s.ref])), speeds, methodology: ctx.methodology ?? [], design, results: results satisfies ContractFindingResult[] }, null, 2));
  return { markdown, files };
}
