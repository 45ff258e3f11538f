/**
 * Breakdown of one SPS request: the root server span's critical path, plus the time the
 * client waited before that span began or after it ended (connection/accept queueing,
 * event-loop stall, response transfer) when the client-observed duration is known.
 */
import type { Trace, TraceSpan } from '@shellgrade/trace-model';
import { attributeCriticalPath, indexSpans, linkBrokerHandoffs } from './critical-path';
import { isDatabaseStatement, type Component } from './components';

export const SPS_PATH = '/api/exercise-production';

export interface RequestBreakdown {
  traceId: string;
  variant: string;
  rootService: string;
  startUs: number;
  /** Duration of the root server span, ms. */
  serverMs: number;
  /** Client-observed duration (k6), ms; null when no client sample matched. */
  clientMs: number | null;
  /** clientMs ?? serverMs. */
  totalMs: number;
  status: number | null;
  /** Milliseconds per component; they sum to totalMs. */
  components: Partial<Record<Component, number>>;
  /**
   * PostgreSQL statements the whole trace sent (every service, the grading consumer included),
   * whether on the critical path or not: the database round trips one submission costs. Absent
   * in breakdown files written before it was counted.
   */
  databaseRoundTrips?: number;
}

function tag(span: TraceSpan, ...keys: string[]): string | number | boolean | undefined {
  for (const k of keys) if (span.tags[k] !== undefined) return span.tags[k];
  return undefined;
}

function requestPath(span: TraceSpan): string {
  const raw = tag(span, 'url.path', 'http.target', 'http.route', 'http.url', 'url.full') ?? span.name;
  const text = String(raw);
  const path = text.includes('://') ? new URL(text).pathname : text.split('?')[0];
  return path.replace(/^(POST|GET)\s+/, '');
}

export function isSpsRoot(span: TraceSpan): boolean {
  const method = String(tag(span, 'http.request.method', 'http.method') ?? span.name.split(' ')[0]).toUpperCase();
  return span.kind === 'server' && method === 'POST' && requestPath(span).endsWith(SPS_PATH);
}

/** The SPS server span that starts the trace on our side (its parent is k6's, not stored). */
export function findSpsRoot(trace: Trace): TraceSpan | undefined {
  const ids = new Set(trace.spans.map((s) => s.spanId));
  return trace.spans
    .filter((s) => (s.parentId === undefined || !ids.has(s.parentId)) && isSpsRoot(s))
    .sort((a, b) => a.startUs - b.startUs)[0];
}

const US_PER_MS = 1000;

export function breakdownRequest(trace: Trace, clientMs: number | null, fallbackVariant = 'unknown'): RequestBreakdown | undefined {
  const root = findSpsRoot(trace);
  if (!root) return undefined;
  const spans = linkBrokerHandoffs(trace.spans);
  const times = attributeCriticalPath(root, indexSpans(spans));
  const serverMs = (root.endUs - root.startUs) / US_PER_MS;
  const components: Partial<Record<Component, number>> = {};
  for (const [c, us] of Object.entries(times)) components[c as Component] = us / US_PER_MS;
  if (clientMs !== null) {
    // A client duration below the server's is measurement noise (clock granularity): no queueing.
    components['client/queueing'] = Math.max(0, clientMs - serverMs);
  }
  const status = tag(root, 'http.response.status_code', 'http.status_code');
  const totalMs = clientMs !== null ? Math.max(clientMs, serverMs) : serverMs;
  return {
    traceId: trace.traceId,
    variant: String(root.resource['variant'] ?? fallbackVariant),
    rootService: root.service,
    startUs: root.startUs,
    serverMs,
    clientMs,
    totalMs,
    status: status === undefined ? null : Number(status),
    components,
    databaseRoundTrips: trace.spans.filter(isDatabaseStatement).length,
  };
}
