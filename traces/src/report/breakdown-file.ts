/**
 * breakdown.json: the contract read by the benchmark report (benchmarks/). Schema
 * name versioned so a reader can refuse a format it does not know.
 */
import type { VariantBreakdown } from '../attribution/aggregate';
import { COMPONENTS } from '../attribution/components';
import type { RequestBreakdown } from '../attribution/request';
import type { CollectorCounts } from '../jaeger/collector-metrics';

export interface BreakdownFile {
  schema: 'shellgrade.trace-breakdown/1';
  runId: string | null;
  window: { from: string; to: string };
  jaeger: string;
  services: string[];
  components: readonly string[];
  /** SPS traces found, and how many had a matching client sample. */
  traces: { found: number; sps: number; matchedClientSamples: number; clientSamples: number };
  /** Jaeger collector span counters at analysis time (cumulative), null when unreachable. */
  collector: CollectorCounts | null;
  variants: VariantBreakdown[];
  /** Per-request breakdowns (ms), for re-analysis. */
  requests: RequestBreakdown[];
}

export function buildBreakdownFile(input: Omit<BreakdownFile, 'schema' | 'components'>): BreakdownFile {
  return { schema: 'shellgrade.trace-breakdown/1', components: COMPONENTS, ...input };
}
