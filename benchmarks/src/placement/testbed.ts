// Which testbed a test runs on: `unscaled` (the processes share the system's CPUs as they come) or
// `scaled` (the scale model: a CPU quota of one paper CPU × s per container, scale-model.ts). The
// plan is recorded in every manifest and meta.json beside the placement; pure but for the defaults.
import { availableParallelism } from 'node:os';
import { configurationsOf, scaleModelFor, scaleModelText, type Configuration, type ScaleModel } from './scale-model';
import { CpuQuotaGroups, type CpuQuotaDetection, type Throttling } from './cpu-quota';

export type Testbed = 'unscaled' | 'scaled';
export const TESTBEDS: readonly Testbed[] = ['unscaled', 'scaled'];

export interface TestbedRequest {
  testbed: Testbed;
  /** The variants of the whole plan (findings: every cell): s fits the largest. Default: the run's variant. */
  planVariants?: string[];
  /** --scale: s given rather than derived (runs compared outside one plan). */
  scale?: number;
}

export type TestbedPlan =
  | { testbed: 'unscaled' }
  | {
      testbed: 'scaled';
      model: ScaleModel;
      cgroup: 1 | 2;
      /** The root group (relative to the cpu hierarchy), e.g. /sg-scale: the variant's processes are told <root>/<name>. */
      root: string;
    };

/** What a run folder keeps: the plan, the quota each group got, and the throttling of each measured run. */
export type TestbedRecord = TestbedPlan & {
  quotas?: Record<string, { quotaUs: number; periodUs: number }>;
  /** Per measured run: cpu.stat deltas by group ('*': the whole system under test). */
  throttling?: { run: number; byGroup: Record<string, Throttling> }[];
};

/**
 * What a file that keeps a measured figure (a calibration's capacity) says of its testbed: a
 * capacity measured under quotas is the model's, not the machine's, and must not be read as the other.
 */
export type TestbedSummary =
  | { testbed: 'unscaled' }
  | { testbed: 'scaled'; s: number; cgroup: 1 | 2; quotas: Record<string, { quotaUs: number; periodUs: number }>; sutQuotaUs: number; periodUs: number };

/** The summary of a run's testbed record (absent: unscaled, as every run before the scale model). */
export function testbedSummary(r: TestbedRecord | undefined): TestbedSummary {
  if (r?.testbed !== 'scaled') return { testbed: 'unscaled' };
  return { testbed: 'scaled', s: r.model.s, cgroup: r.cgroup, quotas: r.quotas ?? {}, sutQuotaUs: r.model.sutQuotaUs, periodUs: r.model.periodUs };
}

/** CPUs the system under test runs on, which the scale model divides: its cpuset when placed, else the machine's. */
export function sutCpuCount(placement: { state: string; sutCpus: number[] }): number {
  return placement.state === 'on' ? placement.sutCpus.length : availableParallelism();
}

/**
 * The testbed of one test. A scaled testbed that the machine cannot make (no writable cpu
 * controller, or cgroup v2 with cpuset placement on: one group per process there) is an error,
 * never a silent unscaled run: its verdicts would claim a scale model that did not exist.
 */
export function planTestbed(
  req: TestbedRequest | undefined,
  runVariant: string,
  sutCpus: number,
  detection: CpuQuotaDetection,
  placementCgroup?: 1 | 2,
  configurations: (variants: string[]) => Configuration[] = configurationsOf,
): TestbedPlan {
  if (!req || req.testbed === 'unscaled') {
    if (req?.scale !== undefined) throw new Error('--scale needs --testbed scaled');
    return { testbed: 'unscaled' };
  }
  if (!detection.available) throw new Error(`--testbed scaled needs a CPU quota per process, and this machine offers none: ${detection.reason}`);
  const { flavour } = detection;
  if (flavour.version === 2 && placementCgroup === 2) throw new Error('--testbed scaled with cpuset placement on cgroup v2: a process is in one group there, so its quota group and its cpuset group cannot both hold (use --placement off, or a machine with cgroup v1)');
  const plan = configurations([...(req.planVariants ?? []), runVariant]);
  const model = scaleModelFor(plan, sutCpus, req.scale);
  return { testbed: 'scaled', model, cgroup: flavour.version, root: new CpuQuotaGroups(flavour).pathOf() };
}

/** One line for logs: "scaled: s = 0.0714 (…)" or "unscaled". */
export function testbedText(p: TestbedPlan): string {
  return p.testbed === 'scaled' ? `scaled (cgroup v${p.cgroup} cpu quota): ${scaleModelText(p.model)}` : 'unscaled (no CPU quotas)';
}
