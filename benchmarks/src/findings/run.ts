// The live side of `npm run findings`: run the plan's tests one after the other (as `bench
// matrix` does), or pick the latest finished ones (--from-results), then evaluate and write.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadVariant, mergeSpec, validateVariant } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { loadSide, type Side } from '../compare/sides';
import { phase } from '../log';
import { resultsDir } from '../paths';
import { latestRunIds, loadResult } from '../report/load-results';
import { makeRunId, runTest } from '../run-test';
import { evaluateFindings } from './evaluate';
import type { DerivedVariant, FindingsPlan } from './plan';
import { writeFindingsReport } from './report';
import { designTable } from './two-by-two';
import { writeDesignCompares } from './design-compares';
import type { Role } from './claims';
import type { PlacementRequest } from '../placement/plan';

export function findingsDir(at = new Date()): string {
  return join(resultsDir(), 'findings', at.toISOString().slice(0, 10));
}

/** A derived cell as a resolved spec file named after it (the runner names the test by it). */
export function writeDerivedSpec(d: DerivedVariant, dir: string): string {
  const base = loadVariant(d.from) as unknown as Record<string, unknown>;
  const spec = validateVariant({ ...mergeSpec(base, d.set), name: d.name, description: `${d.from} with ${JSON.stringify(d.set)} (findings 2 × 2 cell)` }, d.name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${d.name}.yaml`);
  writeFileSync(file, stringify(spec));
  return file;
}

/** Runs every planned test; a test that fails is logged and left out (its claims stay inconclusive). */
/** `placement`: the client and the system on cpusets apart — on by default for findings (placement/plan.ts). */
export async function runPlan(plan: FindingsPlan, dir: string, placement?: PlacementRequest): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const pr = plan.protocol;
  for (const [i, t] of plan.tests.entries()) {
    phase(`findings: ${t.variant} (${i + 1}/${plan.tests.length}) for ${t.usedBy.join(', ')}`);
    const variant = t.derived ? writeDerivedSpec(t.derived, join(dir, 'specs')) : t.variant;
    try {
      const a = await runTest({ variant, profile: pr.profile, runs: pr.runs, rampS: pr.rampS, holdS: pr.holdS, pauseS: pr.pauseS, runId: t.derived ? makeRunId(t.derived.name, pr.profile, undefined) : undefined, findings: true, placement });
      ids[t.variant] = a.meta.runId;
    } catch (err) {
      phase(`findings: ${t.variant} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return ids;
}

/** The latest finished test (tracing off) of every planned variant on the plan's profile. */
export function latestPlannedRuns(plan: FindingsPlan): Record<string, string> {
  const wanted = new Set(plan.tests.map((t) => t.variant));
  const ids: Record<string, string> = {};
  for (const id of latestRunIds()) {
    const m = loadResult(id).aggregated.meta;
    if (wanted.has(m.variant) && m.profileName === plan.protocol.profile && !m.tracing) ids[m.variant] = id;
  }
  return ids;
}

/** Verdicts, the 2 × 2 and its compare pages, written under `dir` (links to runs relative to resultsRoot). */
export function evaluateCells(plan: FindingsPlan, cells: Record<string, Side>, dir: string, resultsRoot = resultsDir()): { markdown: string; files: string[] } {
  const results = evaluateFindings({ plan, cells });
  const designCells = Object.fromEntries(Object.entries(plan.roles).filter(([, v]) => cells[v]).map(([r, v]) => [r, cells[v]])) as Partial<Record<Role, Side>>;
  const compares = writeDesignCompares(designCells, dir);
  return writeFindingsReport(results, designTable(designCells), { plan, cells, dir, resultsRel: relative(dir, resultsRoot) || '.', generatedAt: new Date().toISOString(), compares });
}

export function evaluateRuns(plan: FindingsPlan, runIds: Record<string, string>, dir: string): { markdown: string; files: string[] } {
  return evaluateCells(plan, Object.fromEntries(Object.entries(runIds).map(([v, id]) => [v, loadSide(id)])), dir);
}
