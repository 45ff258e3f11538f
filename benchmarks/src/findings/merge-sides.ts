// A cell's runs live in one results folder each (interleaving brings a variant up per visit):
// merged into one Side — the valid runs of all, renumbered in run order — for the comparisons.
import type { Side } from '../compare/sides';
import type { Estimate } from '../aggregate';

function meanEstimates(all: Record<string, Estimate>[]): Record<string, Estimate> {
  const keys = new Set(all.flatMap((r) => Object.keys(r)));
  const out: Record<string, Estimate> = {};
  for (const k of keys) {
    const xs = all.map((r) => r[k]).filter((e) => e !== undefined);
    out[k] = { ...xs[0], mean: xs.reduce((s, e) => s + e.mean, 0) / xs.length };
  }
  return out;
}

export function mergeSides(sides: Side[]): Side {
  if (sides.length === 1) return sides[0];
  const first = sides[0];
  let n = 0;
  const runs = sides.flatMap((s) => s.runs.map((r) => ({ ...r, run: ++n })));
  const excluded = sides.flatMap((s) => s.excluded.map((e) => ({ ...e, reasons: [`${s.result.runId}: ${e.reasons.join('; ')}`] })));
  const aggregated = { ...first.result.aggregated, runs: sides.reduce((s, x) => s + x.result.aggregated.runs, 0), validRuns: runs.length, resources: meanEstimates(sides.map((s) => s.result.aggregated.resources)) };
  return { ref: sides.map((s) => s.ref).join('+'), result: { ...first.result, aggregated }, runs, excluded };
}
