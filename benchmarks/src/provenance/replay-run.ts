// `bench replay <manifest>`: plan, run the recorded protocol again, compare with the original
// and say whether they agree (provenance/agreement.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { runComparison, type ComparisonOutput } from '../compare/write';
import { k6Path, k6Version } from '../k6-tool';
import { machineFacts } from '../machine';
import { resultsDir } from '../paths';
import { loadProfiles } from '../profiles';
import { runTest } from '../run-test';
import { replayAgreement, type Agreement } from './agreement';
import { environmentFacts } from './facts';
import { manifestOrReconstruction } from './legacy';
import { planReplay, type ReplayPlan } from './replay-plan';
import { exclusive } from '../harness-lock';

export async function replayPlanFor(manifestPath: string): Promise<ReplayPlan> {
  const { manifest: m, reconstructed } = manifestOrReconstruction(manifestPath);
  const machine = machineFacts(await k6Version(await k6Path()));
  const plan = planReplay(m, { at: new Date(), resultsRoot: resultsDir(), profile: loadProfiles()[m.profile.name] ?? null, env: await environmentFacts(), machine });
  if (reconstructed) plan.drift.unshift('no manifest.json (recorded before provenance): rebuilt from meta.json and spec.yaml; commit and server versions unknown');
  return plan;
}

export function executeReplay(plan: ReplayPlan): Promise<{ comparison: ComparisonOutput; agreement: Agreement; valid: boolean }> {
  return exclusive('bench replay', () => executeReplayNow(plan));
}

async function executeReplayNow(plan: ReplayPlan): Promise<{ comparison: ComparisonOutput; agreement: Agreement; valid: boolean }> {
  mkdirSync(dirname(plan.specFile), { recursive: true });
  writeFileSync(plan.specFile, stringify(plan.spec));
  const a = await runTest(plan.options);
  const comparison = runComparison(plan.original, a.meta.runId, join(resultsDir(), a.meta.runId, 'replay'));
  const agreement = replayAgreement(comparison.comparison);
  writeFileSync(join(comparison.dir, 'agreement.json'), JSON.stringify({ ...agreement, drift: plan.drift }, null, 2));
  return { comparison, agreement, valid: a.valid };
}
