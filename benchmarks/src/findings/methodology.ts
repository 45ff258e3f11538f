// The methodology section: the eight principles of Papadopoulos et al., "Methodological
// Principles for Reproducible Performance Evaluation in Cloud Computing" (IEEE TSE 2019), each
// with this run's evidence in numbers and a visible flag where the run falls short of it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from 'simple-statistics';
import type { Side } from '../compare/sides';
import { resultsDir } from '../paths';
import { formatCpuList } from '../placement/cpu-list';
import type { FindingResult } from './evaluate';
import { METRICS } from './metrics';
import type { FindingsPlan } from './plan';
import type { Continuation, FindingsRecord } from './record';
import { cellKey } from './schedule';
import { settle, watchedComparisons } from './watched';

export interface Principle {
  id: string;
  name: string;
  evidence: string;
  /** What falls short; absent when the principle is met. */
  flag?: string;
}

export interface MethodologyInput {
  plan: FindingsPlan;
  cells: Record<string, Side>;
  results: FindingResult[];
  record?: FindingsRecord;
  /** Where the recorded runs' folders are (default: results/). */
  resultsRoot?: string;
}

function repeated(i: MethodologyInput): Principle {
  const rule = i.plan.protocol.stopping;
  const counts = i.plan.cells.map((c) => ({ key: cellKey(c), n: i.cells[cellKey(c)]?.runs.length ?? 0 }));
  const ns = counts.map((c) => c.n);
  const comparisons = watchedComparisons(i.plan);
  settle(i.plan, comparisons, i.cells);
  const precise = comparisons.filter((w) => w.state!.reason === 'precise').length;
  const atMax = comparisons.filter((w) => w.state!.reason === 'maximum' && w.state!.halfWidth !== null && w.state!.target !== null && w.state!.halfWidth > w.state!.target);
  const few = counts.filter((c) => c.n < rule.minRuns);
  const flags = [
    few.length ? `fewer valid runs than the rule's minimum of ${rule.minRuns}: ${few.map((c) => `${c.key} ${c.n}`).join(', ')}` : '',
    // A continuation may have raised the maximum for some claims: each comparison says its own runs.
    atMax.length ? `${atMax.length} comparison(s) stopped at the maximum of runs with the half-width above ${100 * rule.precision}% of the baseline median: ${atMax.map((w) => `${w.b} vs ${w.a} (${w.metric}, ${w.state!.nB} and ${w.state!.nA} runs)`).join(', ')}` : '',
    rule.minRuns < 3 ? `this mode's rule asks only ${rule.minRuns} runs per cell` : '',
    i.record?.stoppedEarly ? `rounds stopped early, comparisons still too wide got no further runs: ${i.record.stoppedEarly}` : '',
    ...(i.record?.continuations ?? []).filter((c) => c.stoppedEarly).map((c) => `continuation of ${c.startedAt.slice(0, 16)} stopped early: ${c.stoppedEarly}`),
    ...(i.record?.continuations ?? []).filter((c) => c.interrupted).map((c) => `continuation of ${c.startedAt.slice(0, 16)} was interrupted (its process stopped): the run it was in is not in the record, its wall time counted to its last save`),
    ...(i.record?.continuations ?? []).filter((c) => c.claims !== 'all').map((c) => `continuation of ${c.startedAt.slice(0, 16)} ran only for claims ${(c.claims as string[]).join(', ')}: other comparisons got no further runs`),
  ].filter(Boolean);
  const sessions = i.record?.continuations?.length ? `; ${sessionsText(i.record)}` : '';
  return {
    id: 'P1',
    name: 'Repeated experiments',
    evidence: `${ns.length} cells, valid runs per cell ${ns.length ? `${Math.min(...ns)}–${Math.max(...ns)} (median ${median(ns)})` : 'none'}; rule: ${rule.minRuns}–${rule.maxRuns} runs until the 95% half-width of B − A ≤ ${100 * rule.precision}% of A's median; ${precise}/${comparisons.length} comparisons reached that precision; runs interleaved in a seeded random order (seed ${i.record?.seed ?? i.plan.seed})${sessions}`,
    ...(flags.length ? { flag: flags.join('; ') } : {}),
  };
}

/**
 * What later sessions added: "planned with claims v1, continued 1× (claims v2, seed 7, from round
 * 4, commit abcdef012345); rerun msa-1-1@paper (3 runs set aside: why)".
 */
function sessionsText(r: FindingsRecord): string {
  const cs = r.continuations ?? [];
  const sup = (r.superseded ?? []).map((s) => `${s.cell} (${s.runs.length} runs set aside: ${s.reason})`);
  const maxRunsText = (c: Continuation): string => (c.maxRuns !== undefined ? `, up to ${c.maxRuns} runs a cell` : '');
  return `planned with claims v${r.claimsVersion ?? 1}, continued ${cs.length}× (${cs.map((c) => `claims v${c.claimsVersion}, seed ${c.seed}, from round ${c.firstRound + 1}, commit ${c.commit.slice(0, 12)}${maxRunsText(c)}`).join('; ')})${sup.length ? `; rerun ${sup.join('; ')}` : ''}`;
}

function coverage(i: MethodologyInput): Principle {
  const run = i.plan.cells.filter((c) => i.cells[cellKey(c)]);
  const missing = i.plan.cells.filter((c) => !i.cells[cellKey(c)]).map(cellKey);
  const peaks = i.record ? Object.entries(i.record.peaks).map(([l, p]) => `${l} = ${p} it/s`).join(', ') : 'not recorded';
  const paper = i.record?.paper.multiple != null ? `paper-equivalent ${i.record.paper.multiple}× (naked-mon EFR ${(100 * i.record.paper.efr!).toFixed(1)}% vs 61.5%, ${i.record.paper.probes.length} probes)` : 'paper-equivalent load not found';
  const flags = [missing.length ? `planned cells without runs: ${missing.join(', ')}` : '', i.plan.notRun.length ? `role@level pairs not run in --${i.plan.mode}: ${i.plan.notRun.join(', ')}` : '', i.record && i.record.paper.multiple === null ? paper : ''].filter(Boolean);
  return {
    id: 'P2',
    name: 'Workload and configuration coverage',
    evidence: `${new Set(run.map((c) => c.variant)).size} configurations × ${new Set(run.map((c) => c.level)).size} load levels = ${run.length}/${i.plan.cells.length} planned cells run; levels as multiples of naked-mon's sustainable rate ${i.record?.capacity.rate ?? i.plan.capacity?.rate ?? '?'} it/s (${i.record?.capacity.source ?? i.plan.capacity?.source ?? 'no calibration'}): ${peaks}; ${paper}`,
    ...(flags.length ? { flag: flags.join('; ') } : {}),
  };
}

function setup(i: MethodologyInput): Principle {
  const sides = Object.values(i.cells);
  const m = sides[0]?.result.aggregated.meta;
  if (!m) return { id: 'P3', name: 'Experimental setup description', evidence: 'no run', flag: 'no run to describe' };
  const placements = new Set(sides.map((s) => s.result.aggregated.meta.placement?.state ?? 'not recorded'));
  const p = m.placement;
  const notPlaced = [...placements].filter((x) => x !== 'on');
  return {
    id: 'P3',
    name: 'Experimental setup description',
    evidence: `${m.machine.cpuModel}, ${m.machine.cores} cores, ${(m.machine.memBytes / 2 ** 30).toFixed(0)} GiB, kernel ${m.machine.kernel}, ${m.machine.k6}; client on CPU ${p ? formatCpuList(p.clientCpus) : '?'}, system under test on CPU ${p ? formatCpuList(p.sutCpus) : '?'} (placement ${[...placements].join('/')}); each run's spec.yaml, machine.json and manifest.json in its folder; profile ${i.plan.protocol.profile}, ramp ${i.plan.protocol.rampS} s + hold ${i.plan.protocol.holdS} s`,
    ...(notPlaced.length ? { flag: `runs without client/system placement (${notPlaced.join(', ')}): the load generator shared the system's CPUs` } : {}),
  };
}

/** Every run folder behind the report: each recorded run (a cell merges several), else each cell's folder. */
function runDirs(i: MethodologyInput): string[] {
  const ids = i.record ? Object.values(i.record.runs).flat() : [];
  return ids.length ? ids.map((id) => join(i.resultsRoot ?? resultsDir(), id)) : Object.values(i.cells).map((s) => s.result.dir);
}

function artifact(i: MethodologyInput): Principle {
  const projects = runDirs(i).map((dir) => {
    const file = join(dir, 'manifest.json');
    return existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as { project?: { commit?: string | null; dirty?: boolean | null } }).project ?? {}) : {};
  });
  const commits = [...new Set(projects.map((p) => p.commit ?? 'unknown'))];
  const dirty = projects.filter((p) => p.dirty).length;
  const flags = [commits.includes('unknown') ? 'runs without a recorded commit' : '', dirty ? `${dirty} run folder(s) from a working tree with uncommitted changes` : '', commits.length > 1 ? `runs from ${commits.length} commits` : ''].filter(Boolean);
  return {
    id: 'P4',
    name: 'Open access artifact',
    evidence: `code at commit ${commits.map((c) => c.slice(0, 12)).join(', ')}; every run folder (manifest.json, spec.yaml, run-N.json, k6 summaries) and findings-runs.json (seed, order, run ids) beside this report; bench replay <run-id> repeats a run`,
    ...(flags.length ? { flag: flags.join('; ') } : {}),
  };
}

function probabilistic(i: MethodologyInput): Principle {
  const parts = i.results.flatMap((r) => r.parts);
  const noInterval = parts.filter((p) => p.difference && p.difference.lo === null);
  return {
    id: 'P5',
    name: 'Probabilistic result description',
    evidence: `performance as each run's Apdex (the paper's aggregate of its response-time ratios, Gatling report: T 1.5 s, a KO frustrated) beside its percentiles (p95 of OK responses, SPS p95), then means over runs with 95% intervals; ${parts.filter((p) => p.difference?.lo != null).length}/${parts.length} claim parts with an interval; failure as EFR shares per run`,
    ...(noInterval.length ? { flag: `${noInterval.length} part(s) with a side of fewer than 2 valid runs: no interval` } : {}),
  };
}

function statistical(i: MethodologyInput): Principle {
  const cmp = i.results.flatMap((r) => r.parts).map((p) => p.comparison).filter((c) => c !== null);
  const withTost = cmp.filter((c) => c.tost).length;
  const disagree = cmp.filter((c) => c.rank && c.welch.lo !== null && c.welch.significant !== c.rank.p <= 0.05).length;
  return {
    id: 'P6',
    name: 'Statistical evaluation',
    evidence: `${cmp.length} comparisons, each with Welch's 95% interval, Mann–Whitney U (exact below 50 runs without ties) with Cliff's δ, and TOST at the claim's margin (${withTost} with a TOST); Welch and the rank test disagree on ${disagree}`,
    ...(cmp.length === 0 ? { flag: 'no comparison could be made' } : disagree ? { flag: `${disagree} comparison(s) where Welch and Mann–Whitney disagree at 5 %: read those verdicts with their rank test` } : {}),
  };
}

function units(i: MethodologyInput): Principle {
  const used = [...new Set(i.results.flatMap((r) => r.parts.map((p) => p.test.metric)))];
  const unitless = used.filter((m) => METRICS[m].unit === '' && m !== 'efr');
  return {
    id: 'P7',
    name: 'Measurement units',
    evidence: used.map((m) => `${METRICS[m].label} ${METRICS[m].unit === 'index' ? 'as an index from 0 (every request frustrated) to 1 (every one satisfied)' : `in ${METRICS[m].unit || 'share of requests (%)'}`}`).join('; ') + '; loads in iterations (new users) per second, each iteration the paper\'s 10 requests',
    ...(unitless.length ? { flag: `metrics without a unit: ${unitless.join(', ')}` } : {}),
  };
}

function cost(i: MethodologyInput): Principle {
  const runs = Object.values(i.cells).reduce((s, c) => s + c.result.aggregated.runs, 0) + (i.record?.paper.probes.length ?? 0) + (i.record?.superseded ?? []).reduce((s, x) => s + x.runs.length, 0);
  const cores = Object.values(i.cells)[0]?.result.aggregated.meta.machine.cores ?? 0;
  const spans = i.record ? [[i.record.startedAt, i.record.endedAt], ...(i.record.continuations ?? []).map((c) => [c.startedAt, c.endedAt])] : [];
  const calibrationMin = (i.record?.calibratedFirst?.seconds ?? 0) / 60;
  const wallMin = spans.length && spans.every(([, e]) => e) ? calibrationMin + spans.reduce((s, [a, e]) => s + (Date.parse(e!) - Date.parse(a!)) / 60000, 0) : null;
  const budget = (i.record?.budgetMin ?? i.plan.protocol.budgetMin) + (i.record?.continuations ?? []).reduce((s, c) => s + c.budgetMin, 0);
  return {
    id: 'P8',
    name: 'Cost',
    evidence: `${runs} runs${i.record?.continuations?.length ? ` over ${1 + i.record.continuations.length} sessions` : ''}${wallMin === null ? '' : ` in ${wallMin.toFixed(0)} min wall time${calibrationMin ? ` (${calibrationMin.toFixed(0)} of them calibrating naked-mon first)` : ''} = ${((wallMin / 60) * cores).toFixed(1)} core-hours on this ${cores}-core machine`}; planned ${i.plan.estimate.minimumMin} min for the minimum runs (${i.plan.estimate.totalMin} min at the maximum), budget ${budget} min`,
    ...(wallMin === null ? { flag: 'wall time not recorded (evaluated from results, not run)' } : wallMin > budget ? { flag: `over the ${budget} min budget` } : {}),
  };
}

export function methodology(i: MethodologyInput): Principle[] {
  return [repeated(i), coverage(i), setup(i), artifact(i), probabilistic(i), statistical(i), units(i), cost(i)];
}
