// Per-run resource figures from the 1 s samples (paper RQ3, Table III; benchmarks/METRICS.md).
import { HARNESS_GROUP, MACHINE_GROUP, underTest, type ResourceSample } from './resource-sampler';

export const K6_GROUP = 'k6';

export interface ResourceSummary {
  /** CPU seconds used by the system under test (every group but the client's and the machine) over the samples. */
  variantCpuS: number;
  /** Per process group (variant processes and servers), CPU seconds over the run. */
  cpuSByGroup: Record<string, number>;
  k6CpuS: number;
  /** CPU seconds of the harness process (sampling every second, driving k6); 0 in runs sampled before it was counted. */
  harnessCpuS: number;
  /**
   * CPU seconds of the whole machine (/proc/stat) minus the client's: k6 and the harness. What
   * the reports call a system's CPU ("machine busy minus the client's own").
   */
  machineCpuSButClient: number;
  /**
   * (machine − client − Σ groups) / (machine − client): the CPU no group accounts for (other
   * users of the machine, pm2, kernel threads, or a gap in the accounting). Null without machine CPU.
   */
  cpuResidualShare: number | null;
  /**
   * The same residual as a rate: cores' worth of CPU (1 = one core busy all along) no group
   * accounts for, over the run's samples. Quiet runs here leave ~0.05 (the harness sampling,
   * pm2, kernel threads) whatever the load; more is someone else on the machine.
   */
  cpuResidualCores: number | null;
  /** How group CPU was measured: cgroup (forked children included) or proc. */
  cpuSource: 'cgroup' | 'proc' | 'mixed';
  /** Mean / min / max of the summed PSS of the system under test over the samples. */
  variantPssMeanBytes: number;
  variantPssMinBytes: number;
  variantPssMaxBytes: number;
  /** Summed RSS (counts shared pages once per process: kept for comparison only). */
  variantRssMeanBytes: number;
  variantRssMaxBytes: number;
  /** Paper Table III: (mean − min) memory (PSS) as a share of the machine's memory. */
  variantMemShare: number | null;
  k6CpuMaxPct: number;
  /** k6 samples in the hold stage, and how many of them above the saturation threshold. */
  k6HoldSamples: number;
  k6SaturatedSamples: number;
  k6SaturatedShare: number;
  /**
   * k6's mean run-queue delay per time slice in the hold stage, ms: how long k6 waited for a CPU
   * each time it had work (a request to send, a response to time). Null when unmeasured.
   */
  k6SchedDelayMs: number | null;
  /** Share of k6's runnable time in the hold stage spent waiting (context for the delay). */
  k6WaitShare: number | null;
  /**
   * With placement (placement/): the client's CPU — k6 plus the harness — in the hold stage as a
   * share of its cpuset (1 = every client CPU busy), per tick: mean, max, ticks judged and ticks
   * above the limit. Absent without placement.
   */
  client?: ClientCpu;
  samples: number;
}

export interface ClientCpu {
  cores: number;
  limitShare: number;
  holdSamples: number;
  overSamples: number;
  meanShare: number | null;
  maxShare: number | null;
}

/** k6 + harness per hold-stage tick of k6 (its first sample has no interval yet), as a share of `cores`. */
export function clientCpu(samples: ResourceSample[], window: LoadWindow, cores: number, limitShare: number): ClientCpu {
  const k6 = samples.filter((s) => s.group === K6_GROUP).slice(1).filter((s) => s.epochMs >= window.loadFromMs && s.epochMs >= window.holdFromMs && s.epochMs <= window.holdToMs);
  const harness = new Map(samples.filter((s) => s.group === HARNESS_GROUP).map((s) => [s.epochMs, s.cpuPct]));
  const shares = k6.map((s) => (s.cpuPct + (harness.get(s.epochMs) ?? 0)) / (100 * cores));
  return {
    cores,
    limitShare,
    holdSamples: shares.length,
    overSamples: shares.filter((x) => x > limitShare).length,
    meanShare: shares.length ? mean(shares) : null,
    maxShare: shares.length ? Math.max(...shares) : null,
  };
}

/** The load window of one run (epoch ms): VU initialisation before `loadFromMs` is not load. */
export interface LoadWindow {
  loadFromMs: number;
  holdFromMs: number;
  holdToMs: number;
}

/** CPU seconds a group used between its first and last sample of the set. */
function groupCpuS(samples: ResourceSample[], group: string): number {
  const own = samples.filter((s) => s.group === group);
  return own.length < 2 ? 0 : Math.max(0, own[own.length - 1].cpuS - own[0].cpuS);
}

function perTick(samples: ResourceSample[], value: (s: ResourceSample) => number): number[] {
  const byTick = new Map<number, number>();
  for (const s of samples) byTick.set(s.epochMs, (byTick.get(s.epochMs) ?? 0) + value(s));
  return [...byTick.values()];
}

const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** k6's scheduling delay between the first and last hold-stage samples. */
function starvation(k6Hold: ResourceSample[]): { delayMs: number | null; waitShare: number | null } {
  const withSched = k6Hold.filter((s) => s.waitS !== undefined && s.runS !== undefined && s.slices !== undefined);
  if (withSched.length < 2) return { delayMs: null, waitShare: null };
  const a = withSched[0];
  const b = withSched[withSched.length - 1];
  const wait = b.waitS! - a.waitS!;
  const run = b.runS! - a.runS!;
  const slices = b.slices! - a.slices!;
  return { delayMs: slices > 0 ? (1000 * wait) / slices : null, waitShare: wait + run > 0 ? wait / (wait + run) : null };
}

/** Residual CPU-seconds per second of the machine's samples (null without two of them). */
function residualCores(samples: ResourceSample[], residualCpuS: number): number | null {
  const machine = samples.filter((s) => s.group === MACHINE_GROUP);
  if (machine.length < 2) return null;
  const spanS = (machine[machine.length - 1].epochMs - machine[0].epochMs) / 1000;
  return spanS > 0 ? Math.max(0, residualCpuS) / spanS : null;
}

/** `client`: with placement, the client's cpuset size and the share of it its CPU may use (validity.ts). */
export function summarizeResources(
  samples: ResourceSample[],
  totalMemBytes: number,
  k6SaturationPct = 90,
  window: LoadWindow = { loadFromMs: 0, holdFromMs: 0, holdToMs: Infinity },
  client?: { cores: number; limitShare: number },
): ResourceSummary {
  const variant = samples.filter(underTest);
  const groups = [...new Set(variant.map((s) => s.group))];
  const cpuSByGroup = Object.fromEntries(groups.map((g) => [g, groupCpuS(samples, g)]));
  const variantCpuS = Object.values(cpuSByGroup).reduce((a, b) => a + b, 0);
  const k6CpuS = groupCpuS(samples, K6_GROUP);
  const harnessCpuS = groupCpuS(samples, HARNESS_GROUP);
  const machineCpuSButClient = Math.max(0, groupCpuS(samples, MACHINE_GROUP) - k6CpuS - harnessCpuS);
  const pss = perTick(variant, (s) => s.pssBytes ?? 0);
  const rss = perTick(variant, (s) => s.rssBytes);
  const sources = new Set(variant.map((s) => s.cpuSource ?? 'proc'));
  // The first k6 sample has no interval yet (0%); only the hold stage is judged.
  const k6 = samples.filter((s) => s.group === K6_GROUP).slice(1).filter((s) => s.epochMs >= window.loadFromMs);
  const k6Hold = k6.filter((s) => s.epochMs >= window.holdFromMs && s.epochMs <= window.holdToMs);
  const saturated = k6Hold.filter((s) => s.cpuPct > k6SaturationPct).length;
  const pssMin = pss.length ? Math.min(...pss) : 0;
  const starved = starvation(k6Hold);
  return {
    variantCpuS,
    cpuSByGroup,
    k6CpuS,
    harnessCpuS,
    machineCpuSButClient,
    cpuResidualShare: machineCpuSButClient > 0 ? (machineCpuSButClient - variantCpuS) / machineCpuSButClient : null,
    cpuResidualCores: residualCores(samples, machineCpuSButClient - variantCpuS),
    cpuSource: sources.size === 1 ? ([...sources][0] as 'cgroup' | 'proc') : sources.size === 0 ? 'proc' : 'mixed',
    variantPssMeanBytes: mean(pss),
    variantPssMinBytes: pssMin,
    variantPssMaxBytes: pss.length ? Math.max(...pss) : 0,
    variantRssMeanBytes: mean(rss),
    variantRssMaxBytes: rss.length ? Math.max(...rss) : 0,
    variantMemShare: totalMemBytes > 0 && pss.length ? (mean(pss) - pssMin) / totalMemBytes : null,
    k6CpuMaxPct: k6.reduce((m, s) => Math.max(m, s.cpuPct), 0),
    k6HoldSamples: k6Hold.length,
    k6SaturatedSamples: saturated,
    k6SaturatedShare: k6Hold.length ? saturated / k6Hold.length : 0,
    k6SchedDelayMs: starved.delayMs,
    k6WaitShare: starved.waitShare,
    ...(client ? { client: clientCpu(samples, window, client.cores, client.limitShare) } : {}),
    samples: pss.length,
  };
}
