// Per-run resource figures from the 1 s samples (paper RQ3, Table III).
import { MACHINE_GROUP, type ResourceSample } from './resource-sampler';

export const K6_GROUP = 'k6';

export interface ResourceSummary {
  /** CPU seconds used by the system under test (every group but k6) over the samples. */
  variantCpuS: number;
  k6CpuS: number;
  /**
   * CPU seconds of the whole machine minus k6's. Includes the sandboxed graders, whose time
   * escapes per-process accounting (bwrap's pid namespace keeps it out of the parent's
   * cutime), and also any unrelated process running meanwhile.
   */
  machineCpuSButK6: number;
  /** Mean / min / max of the summed RSS of the system under test over the samples. */
  variantRssMeanBytes: number;
  variantRssMinBytes: number;
  variantRssMaxBytes: number;
  /** Paper Table III: (mean - min) memory as a share of the machine's memory. */
  variantMemShare: number | null;
  k6CpuMaxPct: number;
  /** Share of samples where k6 used more than the saturation threshold of one core. */
  k6SaturatedShare: number;
  samples: number;
}

/** CPU seconds a group used between its first and last sample of the set. */
function groupCpuS(samples: ResourceSample[], group: string): number {
  const own = samples.filter((s) => s.group === group);
  return own.length < 2 ? 0 : Math.max(0, own[own.length - 1].cpuS - own[0].cpuS);
}

/**
 * @param k6LoadFromMs when k6 started sending load (its setup ran): k6 samples before it are
 *   VU initialisation and do not count towards saturation.
 */
export function summarizeResources(samples: ResourceSample[], totalMemBytes: number, k6SaturationPct = 90, k6LoadFromMs = 0): ResourceSummary {
  const groups = [...new Set(samples.map((s) => s.group))];
  const variantGroups = groups.filter((g) => g !== K6_GROUP && g !== MACHINE_GROUP);
  const variantCpuS = variantGroups.reduce((sum, g) => sum + groupCpuS(samples, g), 0);
  const byTick = new Map<number, number>();
  for (const s of samples) if (s.group !== K6_GROUP && s.group !== MACHINE_GROUP) byTick.set(s.epochMs, (byTick.get(s.epochMs) ?? 0) + s.rssBytes);
  const rss = [...byTick.values()];
  const mean = rss.length ? rss.reduce((a, b) => a + b, 0) / rss.length : 0;
  const min = rss.length ? Math.min(...rss) : 0;
  const max = rss.length ? Math.max(...rss) : 0;
  // The first k6 sample has no interval yet (0%): leave it out of the saturation share.
  const k6 = samples.filter((s) => s.group === K6_GROUP).slice(1).filter((s) => s.epochMs >= k6LoadFromMs);
  const saturated = k6.filter((s) => s.cpuPct > k6SaturationPct).length;
  return {
    variantCpuS,
    k6CpuS: groupCpuS(samples, K6_GROUP),
    machineCpuSButK6: Math.max(0, groupCpuS(samples, MACHINE_GROUP) - groupCpuS(samples, K6_GROUP)),
    variantRssMeanBytes: mean,
    variantRssMinBytes: min,
    variantRssMaxBytes: max,
    variantMemShare: totalMemBytes > 0 && rss.length ? (mean - min) / totalMemBytes : null,
    k6CpuMaxPct: k6.reduce((m, s) => Math.max(m, s.cpuPct), 0),
    k6SaturatedShare: k6.length ? saturated / k6.length : 0,
    samples: byTick.size,
  };
}
