/**
 * Breakdown of one request (the SPS unless told otherwise): the root server span's critical path, plus the time the
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

/** Which request of a trace is broken down: its root server span, or undefined to leave the trace out. */
export type RootFinder = (trace: Trace) => TraceSpan | undefined;

/** The server spans that start the trace on our side (their parent is k6's, not stored), earliest first. */
function rootServerSpans(trace: Trace): TraceSpan[] {
  const ids = new Set(trace.spans.map((s) => s.spanId));
  return trace.spans.filter((s) => s.kind === 'server' && (s.parentId === undefined || !ids.has(s.parentId))).sort((a, b) => a.startUs - b.startUs);
}

/** The SPS server span that starts the trace on our side. */
export const findSpsRoot: RootFinder = (trace) => rootServerSpans(trace).find(isSpsRoot);

/**
 * Any request whose trace reaches `service` (a server span of it): the requests that cross one
 * hop, e.g. gateway → leftover, which the SPS never crosses.
 */
export function rootCrossing(service: string): RootFinder {
  return (trace) => (trace.spans.some((s) => s.kind === 'server' && s.service === service) ? rootServerSpans(trace)[0] : undefined);
}

const US_PER_MS = 1000;

export function breakdownRequest(trace: Trace, clientMs: number | null, fallbackVariant = 'unknown', findRoot: RootFinder = findSpsRoot): RequestBreakdown | undefined {
  const root = findRoot(trace);
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
