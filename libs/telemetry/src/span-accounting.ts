/**
 * Counts what happens to finished spans so a run can prove none were dropped:
 * ended (sampled), dropped because the batch queue was full, exported, failed export.
 */
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  type BufferConfig,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

export interface SpanCounts {
  ended: number;
  droppedQueueFull: number;
  exported: number;
  exportFailed: number;
}

export function newSpanCounts(): SpanCounts {
  return { ended: 0, droppedQueueFull: 0, exported: 0, exportFailed: 0 };
}

/** Exporter decorator counting exported and failed spans. */
export class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly counts: SpanCounts,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.counts.exported += spans.length;
      else this.counts.exportFailed += spans.length;
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * BatchSpanProcessor that counts queue-full drops. The SDK only logs them; it keeps the
 * queue in `_finishedSpans` (stable across the pinned 2.12 line), read defensively.
 */
export class CountingBatchSpanProcessor extends BatchSpanProcessor {
  private readonly maxQueue: number;

  constructor(
    exporter: SpanExporter,
    config: BufferConfig,
    private readonly counts: SpanCounts,
  ) {
    super(exporter, config);
    this.maxQueue = config.maxQueueSize ?? 2048;
  }

  override onEnd(span: ReadableSpan): void {
    if (span.spanContext().traceFlags & 1) {
      this.counts.ended += 1;
      const queue = (this as unknown as { _finishedSpans?: unknown[] })._finishedSpans;
      if (Array.isArray(queue) && queue.length >= this.maxQueue) this.counts.droppedQueueFull += 1;
    }
    super.onEnd(span);
  }
}
