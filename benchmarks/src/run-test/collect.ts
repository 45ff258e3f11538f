// Step collect: resources sampled over the measured window (resources.json at the end), and a
// CPU-profiled test's profiles summarised.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { phase } from '../log';
import { ResourceSampler, type ProcessGroup } from '../resource-sampler';
import { writeResources } from '../resources-file';
import { profilesMarkdown, readProfileDir } from '../profiling/cpu-profile';
import { processGroupsOf, type VariantStatus } from '../stack';
import type { RunRecord } from '../types';
import type { Placed, Sampling, TestPlan } from './steps';

/** The measured window starts (traces/ reads it from meta.json); resources sampled from now on. */
export function startSampling(plan: TestPlan, placed: Placed, status: VariantStatus): Sampling {
  const startedAt = new Date().toISOString();
  let groups: ProcessGroup[] = processGroupsOf(status);
  // cgroup v2: a process is in one cgroup only; the sampler's per-group cgroups would take the
  // system out of its cpuset, so its CPU comes from /proc then (v1: separate hierarchies).
  const sampler = new ResourceSampler(() => groups, !(placed.placement && plan.placementPlan.cgroup === 2) && placed.quota?.groups.flavour.version !== 2);
  sampler.start();
  return {
    sampler,
    startedAt,
    follow: (now) => {
      groups = now;
    },
  };
}

export async function stopSampling(plan: TestPlan, sampling: Sampling): Promise<void> {
  writeResources(plan.dir, await sampling.sampler.stop());
}

/** profiles.md / profiles.json: the services' JavaScript CPU by component and their top functions (profiling/cpu-profile.ts). */
export function writeProfileSummary(plan: TestPlan, records: readonly RunRecord[]): void {
  const dir = join(plan.dir, 'profiles');
  if (!existsSync(dir)) {
    phase('no CPU profiles were written');
    return;
  }
  const summaries = readProfileDir(dir);
  const iterations = records.reduce((n, r) => n + r.paper.iterations.started, 0) || null;
  writeFileSync(join(plan.dir, 'profiles.json'), JSON.stringify({ iterations, summaries }, null, 2));
  writeFileSync(join(plan.dir, 'profiles.md'), profilesMarkdown(summaries, iterations) + '\n');
  phase(`wrote ${join(plan.dir, 'profiles.md')} (${summaries.length} processes; the .cpuprofile files open in Chrome DevTools or speedscope)`);
}
