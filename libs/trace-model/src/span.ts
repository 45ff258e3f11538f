/**
 * The span model the analysis works on: one span of one trace, times in microseconds
 * since the epoch (Jaeger's unit), parent by id (absent for a root or a remote parent).
 */
export type SpanKind = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

export type TagValue = string | number | boolean;

export interface TraceSpan {
  traceId: string;
  spanId: string;
  parentId?: string;
  name: string;
  /** Resource service.name, e.g. shellgrade-gateway. */
  service: string;
  kind: SpanKind;
  startUs: number;
  endUs: number;
  tags: Record<string, TagValue>;
  /** Resource attributes of the emitting process (variant, service.instance.id, ...). */
  resource: Record<string, TagValue>;
  /** True for spans the analysis adds (broker queue wait). */
  synthetic?: boolean;
}

export interface Trace {
  traceId: string;
  spans: TraceSpan[];
}
