/**
 * The scale-model testbed's hook (benchmarks/src/placement/quota-session.ts writes the quotas):
 * each process of the variant is told the cpu control group it is charged to, SG_CPU_CGROUP =
 * <root>/<pm2 name>, so the per-grading groups it makes (libs/grading grading-cgroups.ts) nest under
 * it and its sandboxes spend its quota. The harness moves the process in; a process started
 * without the root keeps its gradings where they always were.
 */
import type { Ecosystem } from './ecosystem';

export const CPU_CGROUP_ENV = 'SG_CPU_CGROUP';

/** The apps, each told its group under `root` (unchanged without a root). */
export function withCpuGroups(eco: Ecosystem, root: string | undefined): Ecosystem {
  if (!root) return eco;
  return { apps: eco.apps.map((app) => ({ ...app, env: { ...app.env, [CPU_CGROUP_ENV]: `${root.replace(/\/$/, '')}/${app.name}` } })) };
}
