// Steps launch and place, the system under test: the variant up (and back up after a crash), its
// processes placed on their cpusets and quota groups, and at the end the variant left as it was
// found and the placement undone.
import { phase } from '../log';
import { entryUrl, processGroupsOf, variantDown, variantRunning, variantStatus, variantUp, type VariantStatus } from '../stack';
import type { RunRecord } from '../types';
import { formatCpuList } from '../placement/cpu-list';
import { PlacementSession } from '../placement/session';
import { QuotaSession } from '../placement/quota-session';
import { isUp, upFlags, type Launched, type Placed, type TestPlan } from './steps';
import { writeProfileSummary } from './collect';

/**
 * Without overrides, the variant up under the run's name is used as it is, however its caller
 * set it up (the faults runner routes a hop through its fault proxy and traces it first). With
 * --kdf-cost or --tracing it must be running the run's own spec: a preset started by hand at its
 * own hash cost is not the run's --kdf-cost 1. A CPU-profiled run always starts its own processes
 * (they write their profiles at exit).
 */
async function upAsWanted(plan: TestPlan): Promise<boolean> {
  if (plan.opts.cpuProfile) return false;
  if (plan.upTarget !== plan.opts.variant) return variantRunning(plan.upTarget).catch(() => false);
  const before = await variantStatus().catch(() => null);
  return before !== null && isUp(before, plan.opts.variant);
}

/** The variant up (left as found at the end), its entry URL. */
export async function launch(plan: TestPlan): Promise<Launched> {
  const wasUp = await upAsWanted(plan);
  phase(wasUp ? `variant ${plan.opts.variant} already up` : `bringing up ${plan.opts.variant}${plan.opts.cpuProfile ? ' with CPU profiling' : ''}`);
  if (!wasUp) await variantUp(plan.upTarget, upFlags(plan));
  const status = await variantStatus();
  const entry = entryUrl(status);
  phase(`entry ${entry}; processes: ${status.processes.map((p) => `${p.name}(${p.pid ?? '-'})`).join(' ')}; servers: ${status.servers.map((s) => s.name).join(' ')}`);
  return { wasUp, status, entry };
}

/**
 * The launcher is shared and a crashed process may still be down: re-assert the variant before
 * each phase (a no-op when it is up) and answer it as it is now. Between runs only — never a
 * reason to repeat a run.
 */
export async function ensureUp(plan: TestPlan, placed: Placed): Promise<VariantStatus> {
  const now = await variantStatus();
  if (isUp(now, plan.specName)) return now;
  phase(`variant is now ${now.variant ?? 'none'}${now.variant === plan.specName ? ' (a process is down)' : ''}: bringing ${plan.opts.variant} back up`);
  await variantUp(plan.upTarget, upFlags(plan));
  const status = await variantStatus();
  await placeSut(placed, status);
  return status;
}

/** The pids the system under test is rooted at: every process of the variant and every native server. */
export function sutRoots(status: VariantStatus): number[] {
  return processGroupsOf(status).map((g) => g.pid);
}

/**
 * The scale model's quota groups (testbed scaled), then (placement on) the system under test —
 * variant processes, native servers, their descendants and pm2's daemon — into its cpuset, the
 * harness into the client's (k6 and every other child it starts from now on is born there). What
 * it made it undoes itself when it fails part-way; checkPlacement holds it against the kernel.
 */
export async function place(plan: TestPlan, status: VariantStatus): Promise<Placed> {
  const testbed = plan.placementPlan.testbed;
  const quota = testbed?.testbed === 'scaled' ? new QuotaSession(testbed, plan.cpuQuota!) : null;
  let placement: PlacementSession | null = null;
  try {
    if (quota) await applyQuotas(quota, status);
    if (plan.placementPlan.state !== 'on') return { placement, quota };
    placement = new PlacementSession(plan.placementPlan, plan.cpuset!);
    await placeSut({ placement, quota }, status);
    placement.placeClient();
    return { placement, quota };
  } catch (err) {
    undoPlacement({ placement, quota });
    throw err;
  }
}

/** Every process of the system under test off the client's CPUs and the harness off the system's, by the kernel's Cpus_allowed_list. */
export async function checkPlacement(placed: Placed, status: VariantStatus): Promise<void> {
  const { placement } = placed;
  if (!placement) return;
  const wrong = [...(await placement.trespassers(sutRoots(status))), ...placement.clientTrespassers([process.pid])];
  if (wrong.length) throw new Error(`placement did not hold: ${wrong.map((t) => `pid ${t.pid} allowed on CPU ${formatCpuList(t.cpus)}`).join(', ')}`);
  const r = placement.record;
  phase(`placed: ${r.sutProcesses} processes of the system under test on CPU ${formatCpuList(r.sutCpus)}, the harness (and k6 to come) on CPU ${formatCpuList(r.clientCpus)} (${placement.dir})`);
}

/** (Re-)places the system under test: idempotent, after a re-up or a restart. */
export async function placeSut(placed: Placed, status: VariantStatus): Promise<void> {
  if (placed.quota) await applyQuotas(placed.quota, status);
  if (placed.placement) await placed.placement.placeSut(sutRoots(status));
}

/**
 * Testbed scaled: each container of the system under test — variant process with its
 * descendants, native server with its children — into its quota group (placement/quota-session.ts).
 * Idempotent: again after a re-up. The processes were started told their group (upFlags), so the
 * groups of their gradings nest under it.
 */
export async function applyQuotas(quota: QuotaSession, status: VariantStatus): Promise<void> {
  const moved = await quota.apply(processGroupsOf(status).map((g) => ({ name: g.name, pid: g.pid })));
  phase(`scale model: ${moved} processes moved into their quota groups under ${quota.groups.root}`);
}

export function undoPlacement(placed: Placed): void {
  placed.quota?.undo();
  placed.placement?.undo();
}

/** The variant left as it was found (a CPU-profiled one restarted unprofiled), and the profiles summarised. */
export async function tearDown(plan: TestPlan, launched: Launched, records: readonly RunRecord[]): Promise<void> {
  if (!launched.wasUp && !plan.opts.keepUp) {
    phase(`bringing ${plan.opts.variant} down`);
    await variantDown();
  } else if (plan.opts.cpuProfile) {
    // Profiles are written when a process exits: restart it unprofiled.
    await variantUp(plan.upTarget);
  }
  if (plan.opts.cpuProfile) writeProfileSummary(plan, records);
}
