/**
 * Publishes the span accounting on the services' /metrics (prom-client default
 * registry) and logs it at shutdown, so a benchmark can report dropped spans.
 */
import client from 'prom-client';
import type { SpanCounts } from './span-accounting';

export function exposeSpanCounts(counts: SpanCounts): void {
  const gauge = new client.Gauge({
    name: 'shellgrade_trace_spans',
    help: 'Sampled spans by outcome since process start (ended, dropped_queue_full, exported, export_failed)',
    labelNames: ['outcome'],
    collect() {
      this.set({ outcome: 'ended' }, counts.ended);
      this.set({ outcome: 'dropped_queue_full' }, counts.droppedQueueFull);
      this.set({ outcome: 'exported' }, counts.exported);
      this.set({ outcome: 'export_failed' }, counts.exportFailed);
    },
  });
  void gauge;
}

export function logSpanCounts(counts: SpanCounts): void {
  console.error(`[telemetry] spans ${JSON.stringify(counts)}`);
}
