// The scale-model testbed (docs/design.md, Testing claims about scale): paper 000 ran each app replica, PostgreSQL, HAProxy, the
// gateway (and, in our variants, Redis, the broker, the object store) as a container on a server
// of 12 cores / 24 threads; one CPU here cannot show what replication buys there. So every such
// process gets a CPU quota of one paper CPU × s, s chosen so the largest configuration of the plan
// fits the CPUs of the system under test, and the load is the paper's × s. Then a second replica
// adds capacity here as it did there. Pure: the arithmetic is unit-tested on fabricated plans.
import { loadVariant, variantProcesses, variantServers, type VariantSpec } from '@shellgrade/variant';

/** Paper 000 §IV-A: Intel Core i9-10920X @ 3.50GHz, 12 physical cores, 24 logical CPUs (hyper-threading). */
export const PAPER_SERVER = { model: 'Intel Core i9-10920X @ 3.50GHz', physicalCores: 12, threads: 24 } as const;

/** Paper 000 §IV-B: the peak arrival rate of scenario R, new users per second. */
export const PAPER_PEAK_USERS_PER_S = 200;

/** The kernel refuses a CFS quota below 1 ms (cpu.cfs_quota_us / cpu.max). */
export const MIN_QUOTA_US = 1000;
/** The kernel's default CFS period, and the longest we use: Docker's --cpus uses it too. */
export const MAX_PERIOD_US = 100_000;
/**
 * The shortest period we use. A throttled group waits out the rest of its period: with a quota of
 * 7 ms in a 100 ms period a replica would stall up to 93 ms at a time — latency the paper never
 * saw. A short period keeps each stall short (≤ period − quota) at the cost of more timer work.
 */
export const MIN_PERIOD_US = 10_000;

/** One configuration of the plan: its name and the processes the paper would have run as containers. */
export interface Configuration {
  variant: string;
  containers: string[];
}

export interface ScaleModel {
  /** The scale factor: one paper CPU is s CPUs here. */
  s: number;
  /** CFS period and each container's quota in it (quota / period = s). */
  periodUs: number;
  quotaUs: number;
  /**
   * The whole system under test's quota: the paper's server (24 logical CPUs) × s, bounded by the
   * CPUs given here — a configuration with more containers than the paper's server had threads
   * contends here as it did there. Equal to the largest configuration's share when that fits.
   */
  sutQuotaUs: number;
  /** CPUs of the system under test here (its cpuset, or the machine's). */
  sutCpus: number;
  /** The configuration s was chosen for (the most containers). */
  largest: Configuration;
  /** s given (--scale) rather than derived from the plan. */
  pinned: boolean;
  /** The paper's peak (200 users/s) × s: the nominal scaled load; the paper-equivalent load is searched in the model. */
  paperPeakScaled: number;
  /** What does not scale with the quota, said beside every result. */
  notScaled: string[];
}

/** The processes paper 000 would have run as containers: replicas, HAProxy, the servers (Jaeger is tracing, not the system). */
export function containersOf(spec: VariantSpec): string[] {
  const processes = variantProcesses(spec).map((p) => p.name);
  const servers = variantServers(spec).filter((s) => s !== 'haproxy' && s !== 'jaeger');
  return [...processes, ...servers];
}

/** A configuration per variant (preset name or spec file), its containers counted from the spec. */
export function configurationsOf(variants: string[], load: (v: string) => VariantSpec = loadVariant): Configuration[] {
  return [...new Set(variants)].map((variant) => ({ variant, containers: containersOf(load(variant)) }));
}

export const NOT_SCALED = [
  'fixed latencies do not shrink: loopback round trips, process spawns, disk syncs and timeouts take the same wall time at any s',
  'the kernel and interrupts run outside the quotas (charged to no container)',
  `throttling is per period: a group over its quota waits out the rest of its period (up to period − quota), the paper's containers never waited`,
  `a paper CPU is one of ${PAPER_SERVER.threads} hyper-threads of an i9-10920X, not a CPU of this machine: speeds differ, and two threads of one core are not two cores`,
  'the load generator is not scaled: k6 runs on CPUs of its own, without a quota',
];

/**
 * s = CPUs of the system under test / containers of the largest configuration (at most the
 * paper's 24 threads: beyond that the paper's containers shared its threads, and ours share the
 * system's quota), never above 1. `s` given pins it (comparable runs outside one plan).
 */
export function scaleModelFor(plan: Configuration[], sutCpus: number, pinned?: number): ScaleModel {
  if (plan.length === 0) throw new Error('a scale model needs at least one configuration');
  if (!(sutCpus > 0)) throw new Error(`a scale model needs the CPUs of the system under test (got ${sutCpus})`);
  const largest = plan.reduce((a, b) => (b.containers.length > a.containers.length ? b : a));
  const fitted = Math.min(largest.containers.length, PAPER_SERVER.threads);
  const s = pinned ?? Math.min(1, sutCpus / fitted);
  if (!(s > 0 && s <= 1)) throw new Error(`scale factor ${s} must lie in (0, 1]`);
  if (MAX_PERIOD_US * s < MIN_QUOTA_US) throw new Error(`scale factor ${s} is below ${MIN_QUOTA_US / MAX_PERIOD_US}: its quota would be under the kernel's 1 ms in the longest period`);
  const periodUs = Math.min(MAX_PERIOD_US, Math.max(MIN_PERIOD_US, Math.ceil(MIN_QUOTA_US / s)));
  const quotaUs = Math.max(MIN_QUOTA_US, Math.floor(periodUs * s));
  const sutQuotaUs = Math.min(sutCpus * periodUs, PAPER_SERVER.threads * quotaUs);
  return {
    s,
    periodUs,
    quotaUs,
    sutQuotaUs,
    sutCpus,
    largest,
    pinned: pinned !== undefined,
    paperPeakScaled: Math.round(PAPER_PEAK_USERS_PER_S * s * 100) / 100,
    notScaled: NOT_SCALED,
  };
}

/** Whether a configuration's containers each get their whole quota at once (their sum fits the system's). */
export function fits(model: ScaleModel, c: Configuration): boolean {
  return c.containers.length * model.quotaUs <= model.sutQuotaUs;
}

/** "s = 0.0714 (1 CPU / 14 containers of mon-x12): 7.1 ms every 14 ms per container, the system 14 ms". */
export function scaleModelText(m: ScaleModel): string {
  const ms = (us: number) => `${Math.round(us / 100) / 10} ms`;
  const why = m.pinned ? 'given' : `${m.sutCpus} CPU${m.sutCpus > 1 ? 's' : ''} / ${Math.min(m.largest.containers.length, PAPER_SERVER.threads)} containers of ${m.largest.variant}`;
  return `s = ${m.s.toPrecision(3)} (${why}): ${ms(m.quotaUs)} every ${ms(m.periodUs)} per container, the system under test ${ms(m.sutQuotaUs)}; the paper's 200 users/s is ${m.paperPeakScaled}/s here`;
}
