// A run measures the system only if the load generator kept up and the books balance
// (docs/design.md, Honest measurement; benchmarks/METRICS.md "Validity"). A run is INVALID when, over the hold stage
// (the ramp is reported, never judged: k6 starting its VUs is not the system's doing):
//   - k6 was CPU-saturated (above k6SaturationPct of one core) in more than maxSaturatedShare of
//     its samples, and in at least minSaturatedSamples of them (one busy second is a spike);
//   - k6 was CPU-starved: each time its threads had work, they waited on average more than
//     k6MaxSchedDelayMs for a CPU (run-queue delay per time slice, /proc/<pid>/task/*/schedstat)
//     — the error that adds to every timestamp it takes;
// and, over the whole run, when k6 dropped arrivals, hit client-side errors (script exceptions,
// local resource exhaustion), crashed, when the variant was switched by someone else, or when the
// zero-loss audit found submissions lost or duplicated, or when something besides the variant and
// k6 kept more than maxForeignCores of the machine busy (another user of this shared machine:
// the variant's figures, latency first, are then partly someone else's). A crash of a variant process is data, not
// a reason: the run counts with the KOs it caused.
// With placement (placement/: the client and the system under test on cpusets of their own),
// also when the client — k6 plus the harness — used more than clientMaxCpusetShare of its
// cpuset on average over the hold stage, or in more than maxSaturatedShare of its hold-stage
// samples (and at least minSaturatedSamples of them), and when a process of the system under
// test could run on a client CPU (the placement did not hold). A dropped iteration is a latency
// sample never taken (coordinated omission): INVALID with or without placement.
import type { Audit } from './audit';
import type { ResourceSummary } from './resource-summary';
import { busyReason, type QuietWait } from './quiet';

export interface ValidityRules {
  /** k6 CPU above this (100 = one core) counts as a saturated sample. */
  k6SaturationPct: number;
  /** INVALID when more than this share of hold-stage k6 samples are saturated... */
  maxSaturatedShare: number;
  /** ...and at least this many of them. */
  minSaturatedSamples: number;
  /** INVALID when k6's mean run-queue delay per time slice in the hold stage exceeds this (ms). */
  k6MaxSchedDelayMs: number;
  /**
   * INVALID when CPU that belongs to no process of the variant nor to k6 (the CPU residual) kept
   * more than this many cores busy on average. Quiet runs here leave ~0.05 (the harness's
   * sampling, pm2, kernel threads), at any load: a rate, not a share of a small run's total.
   */
  maxForeignCores: number;
  /** With placement: INVALID when the client's CPU exceeds this share of its cpuset. */
  clientMaxCpusetShare: number;
}

export const DEFAULT_VALIDITY: ValidityRules = { k6SaturationPct: 90, maxSaturatedShare: 0.1, minSaturatedSamples: 3, k6MaxSchedDelayMs: 10, maxForeignCores: 0.15, clientMaxCpusetShare: 0.7 };

export interface Validity {
  valid: boolean;
  reasons: string[];
}

export interface ValidityInput {
  droppedIterations: number;
  k6ExitCode: number;
  /** Script exceptions counted by k6 plus local resource errors found in its log. */
  clientErrors: number;
  resources: Pick<ResourceSummary, 'k6HoldSamples' | 'k6SaturatedSamples' | 'k6CpuMaxPct' | 'k6SchedDelayMs' | 'samples' | 'cpuResidualShare' | 'cpuResidualCores' | 'client'>;
  /** Another launcher user switched the variant during the run (not a crash of ours). */
  variantSwitched?: boolean;
  audit?: Pick<Audit, 'balanced' | 'summary'> | null;
  /** The test's placement (placement/plan.ts) and, when on, what the kernel allowed at the run's end. */
  placement?: PlacementCheck;
  /** The wait for an idle system before the load (quiet.ts); absent when the run did not wait. */
  quiet?: QuietWait | null;
}

export interface PlacementCheck {
  state: 'on' | 'off' | 'unavailable';
  /** The client's CPUs, e.g. "1" (for the reasons). */
  clientCpus: string;
  /** Processes of the system under test whose Cpus_allowed_list includes a client CPU. */
  trespassers: { pid: number; cpus: number[] }[];
}

export function judgeRun(input: ValidityInput, rules: ValidityRules = DEFAULT_VALIDITY): Validity {
  const reasons: string[] = [];
  const r = input.resources;
  if (input.droppedIterations > 0) {
    reasons.push(`k6 dropped ${input.droppedIterations} iterations (not enough VUs to keep the arrival rate: latency samples never taken, coordinated omission)`);
  }
  if (input.placement?.state === 'on') reasons.push(...placementReasons(input.placement, r.client, rules));
  // The share is over the samples it counts: k6's own hold-stage samples.
  const share = r.k6HoldSamples > 0 ? r.k6SaturatedSamples / r.k6HoldSamples : 0;
  if (share > rules.maxSaturatedShare && r.k6SaturatedSamples >= rules.minSaturatedSamples) {
    reasons.push(
      `k6 CPU above ${rules.k6SaturationPct}% of a core in ${r.k6SaturatedSamples}/${r.k6HoldSamples} hold-stage samples (${(100 * share).toFixed(0)}%, max ${r.k6CpuMaxPct.toFixed(0)}%)`,
    );
  }
  if (r.k6SchedDelayMs !== null && r.k6SchedDelayMs > rules.k6MaxSchedDelayMs) {
    reasons.push(`k6 starved of CPU: in the hold stage it waited ${r.k6SchedDelayMs.toFixed(1)} ms for a CPU each time it had work (limit ${rules.k6MaxSchedDelayMs} ms)`);
  }
  if (r.cpuResidualCores !== null && r.cpuResidualCores > rules.maxForeignCores) {
    const share = r.cpuResidualShare === null ? '' : `, ${(100 * r.cpuResidualShare).toFixed(0)}% of the machine's busy CPU minus k6`;
    reasons.push(
      `foreign CPU load: ${r.cpuResidualCores.toFixed(2)} cores on average used by no process of the variant nor k6${share} (limit ${rules.maxForeignCores} cores)`,
    );
  }
  if (input.clientErrors > 0) reasons.push(`${input.clientErrors} client-side errors (k6 script exceptions or local resource exhaustion)`);
  const busy = busyReason(input.quiet);
  if (busy) reasons.push(busy);
  if (input.variantSwitched) reasons.push('the variant was switched by another launcher user during the run');
  if (input.audit && !input.audit.balanced) reasons.push(`zero-loss audit: ${input.audit.summary}`);
  if (r.samples === 0) reasons.push('no resource samples were taken');
  // 99 = thresholds crossed: a measurement, not a harness failure. Anything else is.
  if (input.k6ExitCode !== 0 && input.k6ExitCode !== 99) reasons.push(`k6 exited with code ${input.k6ExitCode}`);
  return { valid: reasons.length === 0, reasons };
}

const pct0 = (x: number): string => `${(100 * x).toFixed(0)}%`;

/** The client's share of its cpuset, and whether the system under test stayed off it. */
function placementReasons(p: PlacementCheck, client: ResourceSummary['client'], rules: ValidityRules): string[] {
  const out: string[] = [];
  const cpuset = `its cpuset (CPU ${p.clientCpus})`;
  if (!client || client.holdSamples === 0) out.push(`placement on but no client CPU sample in the hold stage: the client's share of ${cpuset} is unknown`);
  else {
    const limit = rules.clientMaxCpusetShare;
    if (client.meanShare !== null && client.meanShare > limit) out.push(`client CPU (k6 + harness) averaged ${pct0(client.meanShare)} of ${cpuset} in the hold stage (limit ${pct0(limit)})`);
    else if (client.overSamples / client.holdSamples > rules.maxSaturatedShare && client.overSamples >= rules.minSaturatedSamples) {
      out.push(`client CPU (k6 + harness) above ${pct0(limit)} of ${cpuset} in ${client.overSamples}/${client.holdSamples} hold-stage samples (max ${pct0(client.maxShare ?? 0)})`);
    }
  }
  if (p.trespassers.length) {
    const list = p.trespassers.slice(0, 5).map((t) => `${t.pid} on CPU ${t.cpus.join(',')}`).join(', ');
    out.push(`placement broken: ${p.trespassers.length} process(es) of the system under test may run on the client's CPU ${p.clientCpus} (${list})`);
  }
  return out;
}
