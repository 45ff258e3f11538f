// The evaluation: verdicts from finished runs only (no running here). Every part of a claim is
// one comparison between two design cells, judged by verdict.ts; the finding combines them.
import type { Difference } from '@shellgrade/stats';
import type { Side } from '../compare/sides';
import { CLAIMS, DEFAULT_MARGIN, DESIGN_LEVEL, DESIGN_ROLES, type Claim, type ClaimTest, type Role } from './claims';
import { compareRuns, type Comparison } from './comparison';
import type { LoadLevel } from './loads';
import { cellKey } from './schedule';
import { differenceNumber, differenceUnit, energySource, METRICS, metricValues } from './metrics';
import type { FindingsPlan } from './plan';
import { designRow, type DesignRow } from './two-by-two';
import { combine, evidenceText, judgePart, notTestable, RULES, type Evidence, type PartVerdict, type Verdict } from './verdict';
import type { TestMeta } from '../types';

export interface CellRef {
  role: Role;
  level: LoadLevel;
  variant: string;
  runId: string;
  validRuns: number[];
}

export interface PartResult {
  test: ClaimTest;
  a: CellRef | null;
  b: CellRef | null;
  difference: Difference | null;
  /** Welch, Mann–Whitney with Cliff's δ, TOST. */
  comparison: Comparison | null;
  verdict: PartVerdict;
  rule: string;
  /** How it was obtained: the testbed both sides ran on (null: a side not run, or the two on different testbeds). */
  evidence: Evidence | null;
}

export interface FindingResult {
  claim: Claim;
  verdict: Verdict;
  rule: string;
  parts: PartResult[];
  keyFigure: string;
  explanation: string[];
  caveats: string[];
  design: DesignRow | null;
  /** Each kind of evidence its parts rest on, once ("measured in the scale model (s = 0.0714)"). */
  evidence: string[];
}

export interface EvaluationInput {
  plan: Pick<FindingsPlan, 'mode' | 'roles'> & { protocol: { levels: LoadLevel[] } };
  /** Finished runs by cell, "<variant>@<level>" (schedule.ts cellKey). */
  cells: Record<string, Side>;
}

function cellOf(input: EvaluationInput, role: Role, level: LoadLevel): Side | null {
  const variant = input.plan.roles[role];
  return variant ? (input.cells[cellKey({ variant, level })] ?? null) : null;
}

function refOf(role: Role, level: LoadLevel, s: Side): CellRef {
  return { role, level, variant: s.result.aggregated.meta.variant, runId: s.result.runId, validRuns: s.runs.map((r) => r.run) };
}

function missing(input: EvaluationInput, role: Role, level: LoadLevel): PartVerdict {
  const variant = input.plan.roles[role];
  if (!variant || !input.plan.protocol.levels.includes(level)) {
    return { verdict: 'inconclusive', why: `${role} at ${level} is not run in --${input.plan.mode} mode`, settle: `run the full protocol (npm run findings), which runs ${role} at ${level}` };
  }
  return { verdict: 'inconclusive', why: `no finished run of ${variant} at ${level} (${role})`, settle: `runs of ${variant} at ${level} with at least 2 valid` };
}

/** Metrics of what replication buys (availability, performance): they need a CPU per process to show it. Memory, CPU per iteration and energy do not. */
const NEEDS_CPUS = new Set<ClaimTest['metric']>(['apdex', 'efr', 'p95', 'spsP95', 'throughput']);

/** The CPUs the system under test had: its cpuset's under placement, else the machine's. */
function sutCpusOf(meta: TestMeta): number {
  return meta.placement?.state === 'on' ? meta.placement.sutCpus.length : meta.machine.cores;
}

/** Processes the paper ran as containers, at least: the app's replicas, HAProxy when any role is replicated, PostgreSQL. */
export function processesOf(meta: Pick<TestMeta, 'replicas'>): number {
  const replicas = Object.values(meta.replicas);
  return replicas.reduce((a, b) => a + b, 0) + (replicas.some((n) => n > 1) ? 1 : 0) + 1;
}

/** The testbed a run was measured on (a record without one ran unscaled). */
export function evidenceOf(meta: TestMeta): Evidence {
  const t = meta.placement?.testbed;
  return t?.testbed === 'scaled' ? { kind: 'measured-scaled', s: t.model.s } : { kind: 'measured-unscaled', sutCpus: sutCpusOf(meta) };
}

const sameEvidence = (a: Evidence, b: Evidence): boolean => evidenceText(a) === evidenceText(b);

function judgeTest(input: EvaluationInput, c: Claim, t: ClaimTest): PartResult {
  const sa = cellOf(input, t.a, t.level);
  const sb = cellOf(input, t.b, t.level);
  const rule = RULES[t.expect];
  if (!sa || !sb) return { test: t, a: sa && refOf(t.a, t.level, sa), b: sb && refOf(t.b, t.level, sb), difference: null, comparison: null, verdict: missing(input, sa ? t.b : t.a, t.level), rule, evidence: null };
  const comparison = compareRuns(metricValues(sa.runs, t.metric), metricValues(sb.runs, t.metric), c.margin ?? DEFAULT_MARGIN);
  const [ma, mb] = [sa.result.aggregated.meta, sb.result.aggregated.meta];
  const [ea, eb] = [evidenceOf(ma), evidenceOf(mb)];
  const base = { test: t, a: refOf(t.a, t.level, sa), b: refOf(t.b, t.level, sb), difference: comparison.welch, comparison };
  const measured = judgePart(comparison, t.expect);
  if (!sameEvidence(ea, eb)) {
    return { ...base, rule, evidence: null, verdict: { verdict: 'inconclusive', why: `the sides ran on different testbeds (${ma.variant}: ${evidenceText(ea)}; ${mb.variant}: ${evidenceText(eb)}): their difference mixes testbed and configuration`, settle: 'runs of both sides on one testbed' } };
  }
  if (c.scaling && NEEDS_CPUS.has(t.metric) && ea.kind === 'measured-unscaled') {
    const processes = Math.max(processesOf(ma), processesOf(mb));
    if (processes > ea.sutCpus) return { ...base, rule: RULES.testbed, evidence: ea, verdict: notTestable(measured, ea.sutCpus, processes, `${ma.variant} ${processesOf(ma)}, ${mb.variant} ${processesOf(mb)}`) };
  }
  return { ...base, rule, evidence: ea, verdict: measured };
}

function fmt(raw: number, unit: string): string {
  // Float noise of a difference between equal means prints as 0, not -2.22e-16.
  const v = Math.abs(raw) < 1e-9 ? 0 : raw;
  return `${differenceNumber(v, unit)}${differenceUnit(unit)}`;
}

/**
 * The decisive part — the first refuted one of a refuted finding, the first inconclusive one of
 * an inconclusive finding, else the first — preferring one with an interval:
 * "p95 at 1x: msa-1-1 − naked-mon = −800 ms [−894 ms, −706 ms], Cliff's δ −1.00".
 */
function keyFigure(parts: PartResult[], verdict: Verdict): string {
  const decisive = verdict === 'reproduced' ? parts : parts.filter((x) => x.verdict.verdict === verdict);
  const withCi = (xs: PartResult[]) => xs.find((x) => x.difference?.lo !== null && x.difference?.lo !== undefined);
  const p = withCi(decisive) ?? withCi(parts) ?? parts.find((x) => x.difference);
  if (!p?.difference || p.difference.diff === null) return 'no figure (cells not run)';
  const d = p.difference;
  const u = METRICS[p.test.metric].unit;
  const ci = d.lo === null ? 'no CI' : `[${fmt(d.lo, u)}, ${fmt(d.hi!, u)}]`;
  const delta = p.comparison?.rank ? `, Cliff's δ ${p.comparison.rank.cliffsDelta.toFixed(2)}` : '';
  return `${p.test.metric} at ${p.test.level}: ${p.b!.variant} − ${p.a!.variant} = ${fmt(d.diff!, u)} ${ci}${delta}`;
}

/** Per-process CPU (mean over valid runs) of the cells a finding reads, and their trace breakdowns. */
function explanation(input: EvaluationInput, c: Claim, design: DesignRow | null): string[] {
  const out: string[] = [];
  if (design?.architectureBlocking?.diff != null && design.architectureAsync?.diff != null) {
    const u = METRICS[design.metric].unit;
    const i = design.interaction;
    out.push(
      `2 × 2 (${design.metric}): MSA − monolith = ${fmt(design.architectureBlocking.diff, u)} with the blocking grader, ${fmt(design.architectureAsync.diff, u)} with async graders on both sides; ` +
        `the blocking grader's share (interaction) = ${i ? fmt(-i.value, u) : 'n/a'}${i?.lo != null ? ` [${fmt(-i.hi!, u)}, ${fmt(-i.lo, u)}]${i.significant ? ', significant' : ', not significant'}` : ''}.`,
    );
  }
  for (const { role, level } of testCells(c)) {
    const s = cellOf(input, role, level);
    if (!s) continue;
    const cpu = Object.entries(s.result.aggregated.resources)
      .filter(([k]) => k.startsWith('cpuSByGroup.'))
      .map(([k, e]) => [k.slice('cpuSByGroup.'.length), e.mean] as const)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4);
    const trace = topComponents(s.result.breakdown);
    out.push(
      `${s.result.aggregated.meta.variant} at ${level}: CPU per run ${cpu.map(([g, v]) => `${g} ${v.toFixed(1)} s`).join(', ') || 'not recorded'}; ` +
        (trace ? `critical-path shares of the SPS latency: ${trace}` : `no trace breakdown (a --tracing on run, then npm run traces -- ${s.result.runId})`),
    );
  }
  return out;
}

/** The shape of a latency share in traces/' breakdown.json (variants[].shares), read structurally. */
interface SharesAt {
  latencyMs: number;
  shares: [string, number][];
  exemplarTraceId?: string;
}

/** The top components' shares of the p50 and p99 SPS latency, as traces/ wrote them in breakdown.json. */
export function topComponents(breakdown: unknown): string | null {
  const v = (breakdown as { variants?: { requests?: number; shares?: { p50: SharesAt; p99: SharesAt } }[] } | null)?.variants?.[0];
  if (!v?.shares) return null;
  const top = (s: SharesAt): string =>
    `${s.latencyMs.toFixed(0)} ms: ${s.shares
      .slice(0, 3)
      .map(([c, x]) => `${c} ${(100 * x).toFixed(0)}%`)
      .join(', ')}${s.exemplarTraceId ? ` (exemplar trace ${s.exemplarTraceId})` : ''}`;
  return `p50 ${top(v.shares.p50)}; p99 ${top(v.shares.p99)} (${v.requests ?? '?'} traces)`;
}

function caveats(input: EvaluationInput, c: Claim): string[] {
  const out: string[] = [];
  const sides = testCells(c)
    .map((x) => cellOf(input, x.role, x.level))
    .filter((s): s is Side => s !== null);
  const scaled = sides.map((s) => s.result.aggregated.meta.placement?.testbed).find((t) => t?.testbed === 'scaled');
  if (scaled?.testbed === 'scaled') out.push(`measured in the scale model (s = ${scaled.model.s.toPrecision(3)}); what does not scale: ${scaled.model.notScaled.join('; ')}`);
  else if (c.scaling && sides.length) {
    // With placement the system under test has only its cpuset's CPUs, not the machine's.
    const meta = sides[0].result.aggregated.meta;
    const placed = meta.placement?.state === 'on' ? meta.placement.sutCpus.length : null;
    const cores = placed ?? meta.machine.cores;
    const where = placed === null ? `this machine has ${cores} cores` : `the system under test has ${cores} CPU${cores > 1 ? 's' : ''} (placement; the client has its own)`;
    const crowded = [...new Set(sides.filter((s) => Object.values(s.result.aggregated.meta.replicas).reduce((a, b) => a + b, 0) > cores).map((s) => s.result.aggregated.meta.variant))];
    if (crowded.length) out.push(`${where}: ${crowded.join(', ')} run more app processes than that, so replication here shares CPU rather than adding it (the paper had 24 threads)`);
  }
  if (c.tests.some((t) => t.metric === 'energyWh')) {
    const sources = [...new Set(sides.map((s) => energySource(s.runs)))];
    if (sources.some((x) => x.startsWith('ESTIMATE'))) out.push('energy is the harness ESTIMATE (linear model of machine CPU, no power meter): it restates CPU use and cannot show what the paper\'s power meter did');
  }
  // Differences only mean something between runs of the same protocol (the same level: the same peak).
  for (const t of c.tests) {
    const [a, b] = [cellOf(input, t.a, t.level), cellOf(input, t.b, t.level)];
    if (a && b && protocolKey(a) !== protocolKey(b)) out.push(`the runs compared ran different protocols (${a.result.aggregated.meta.variant}: ${protocolKey(a)}; ${b.result.aggregated.meta.variant}: ${protocolKey(b)}): their differences mix protocol and configuration`);
  }
  const invalid = sides.filter((s) => s.excluded.length);
  if (invalid.length) out.push(`INVALID runs left out: ${invalid.map((s) => `${s.result.runId} run ${s.excluded.map((e) => e.run).join(',')}`).join('; ')}`);
  // Two parts over the same cells (Apdex and EFR at one load) raise the same caveat once.
  return [...new Set(out)];
}

export function protocolKey(s: Side): string {
  const p = s.result.aggregated.meta.profile;
  return `${s.result.aggregated.meta.profileName} peak ${p.peak}/s ${p.rampS}+${p.holdS} s`;
}

/** The (role, level) cells a claim's comparisons read, each once. */
function testCells(c: Claim): { role: Role; level: LoadLevel }[] {
  const all = c.tests.flatMap((t) => [{ role: t.a, level: t.level }, { role: t.b, level: t.level }]);
  return all.filter((x, i) => all.findIndex((y) => y.role === x.role && y.level === x.level) === i);
}

/** The 2 × 2's cells at the design level. */
export function designCellsOf(input: EvaluationInput): Partial<Record<Role, Side>> {
  return Object.fromEntries(DESIGN_ROLES.map((r) => [r, cellOf(input, r, DESIGN_LEVEL)]).filter(([, s]) => s)) as Partial<Record<Role, Side>>;
}

export function evaluateClaim(input: EvaluationInput, c: Claim): FindingResult {
  const parts = c.tests.map((t) => judgeTest(input, c, t));
  const designCells = designCellsOf(input);
  const design = c.design ? designRow(designCells, c.design) : null;
  const verdict = combine(parts.map((p) => p.verdict.verdict));
  const evidence = [...new Set(parts.flatMap((p) => (p.evidence ? [evidenceText(p.evidence)] : [])))];
  return {
    claim: c,
    verdict,
    rule: RULES.finding,
    parts,
    keyFigure: keyFigure(parts, verdict),
    explanation: explanation(input, c, design),
    caveats: caveats(input, c),
    design,
    evidence,
  };
}

export function evaluateFindings(input: EvaluationInput, claims = CLAIMS): FindingResult[] {
  return claims.map((c) => evaluateClaim(input, c));
}
