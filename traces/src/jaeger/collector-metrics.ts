/**
 * Jaeger's collector self-metrics (Prometheus text, infra/servers/jaeger.yaml): spans
 * accepted, refused or failed by the OTLP receiver and sent/failed by the storage
 * exporter. Cumulative since Jaeger started; non-zero refused/failed means lost spans.
 */
export interface CollectorCounts {
  url: string;
  acceptedSpans: number;
  refusedSpans: number;
  failedSpans: number;
  storedSpans: number;
  storeFailedSpans: number;
}

const FAMILIES: Record<string, keyof Omit<CollectorCounts, 'url'>> = {
  otelcol_receiver_accepted_spans_total: 'acceptedSpans',
  otelcol_receiver_refused_spans_total: 'refusedSpans',
  otelcol_receiver_failed_spans_total: 'failedSpans',
  otelcol_exporter_sent_spans_total: 'storedSpans',
  otelcol_exporter_send_failed_spans_total: 'storeFailedSpans',
};

/** Sums each family over its label sets. */
export function parseCollectorMetrics(url: string, text: string): CollectorCounts {
  const counts: CollectorCounts = { url, acceptedSpans: 0, refusedSpans: 0, failedSpans: 0, storedSpans: 0, storeFailedSpans: 0 };
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{[^}]*\})?\s+([0-9.eE+-]+)/.exec(line);
    const key = m ? FAMILIES[m[1]] : undefined;
    if (key) counts[key] += Number(m![2]);
  }
  return counts;
}

/** Null when the metrics endpoint is not reachable (the breakdown does not depend on it). */
export async function readCollectorCounts(url: string): Promise<CollectorCounts | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? parseCollectorMetrics(url, await res.text()) : null;
  } catch {
    return null;
  }
}
