/**
 * Converts Jaeger's query-API JSON (GET /api/traces, /api/traces/{id}) into TraceSpan.
 * Jaeger keeps OTel's span kind in the `span.kind` tag and resource attributes as
 * process tags.
 */
import type { SpanKind, TagValue, Trace, TraceSpan } from './span';

export interface JaegerTag {
  key: string;
  type?: string;
  value: unknown;
}

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references?: { refType: string; traceID: string; spanID: string }[];
  startTime: number;
  duration: number;
  tags?: JaegerTag[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags?: JaegerTag[] }>;
}

const KINDS: SpanKind[] = ['server', 'client', 'producer', 'consumer', 'internal'];

function tagMap(tags: JaegerTag[] | undefined): Record<string, TagValue> {
  const out: Record<string, TagValue> = {};
  for (const t of tags ?? []) {
    if (typeof t.value === 'string' || typeof t.value === 'number' || typeof t.value === 'boolean') out[t.key] = t.value;
  }
  return out;
}

export function normalizeTrace(raw: JaegerTrace): Trace {
  const spans: TraceSpan[] = raw.spans.map((s) => {
    const process = raw.processes[s.processID] ?? { serviceName: 'unknown' };
    const tags = tagMap(s.tags);
    const kindTag = String(tags['span.kind'] ?? 'internal').toLowerCase();
    const parent = (s.references ?? []).find((r) => r.refType === 'CHILD_OF' && r.traceID === s.traceID) ?? s.references?.[0];
    return {
      traceId: s.traceID,
      spanId: s.spanID,
      parentId: parent?.spanID,
      name: s.operationName,
      service: process.serviceName,
      kind: (KINDS as string[]).includes(kindTag) ? (kindTag as SpanKind) : 'internal',
      startUs: s.startTime,
      endUs: s.startTime + s.duration,
      tags,
      resource: tagMap(process.tags),
    };
  });
  return { traceId: raw.traceID, spans };
}
