import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SamplingDecision, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { edgeSampler } from '../src/sampler';
import { NEST_SUPPORTED_VERSIONS, NestInstrumentation12 } from '../src/nest-instrumentation';
import { CountingBatchSpanProcessor, CountingExporter, newSpanCounts } from '../src/span-accounting';

describe('span accounting', () => {
  it('counts exported and failed spans', async () => {
    const counts = newSpanCounts();
    const failing: SpanExporter = { export: (_s, done) => done({ code: ExportResultCode.FAILED }), shutdown: async () => undefined };
    const ok = new CountingExporter(new InMemorySpanExporter(), counts);
    const bad = new CountingExporter(failing, counts);
    const spans = [{}, {}] as ReadableSpan[];
    await new Promise((r) => ok.export(spans, r));
    await new Promise((r) => bad.export(spans.slice(0, 1), r));
    expect(counts).toMatchObject({ exported: 2, exportFailed: 1 });
  });

  it('counts spans dropped because the batch queue is full', async () => {
    const counts = newSpanCounts();
    const exporter = new CountingExporter(new InMemorySpanExporter(), counts);
    const processor = new CountingBatchSpanProcessor(exporter, { maxQueueSize: 4, maxExportBatchSize: 4, scheduledDelayMillis: 60_000 }, counts);
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('unit');
    for (let i = 0; i < 10; i++) tracer.startSpan(`s${i}`).end();
    await processor.forceFlush();
    await processor.shutdown();
    expect(counts.ended).toBe(10);
    // The queue flushes itself when it reaches a full batch, so some spans get through.
    expect(counts.exported + counts.droppedQueueFull).toBe(10);
    expect(counts.droppedQueueFull).toBeGreaterThan(0);
  });
});

describe('Nest 12 instrumentation', () => {
  it('widens the supported range of the module and its patched files', () => {
    const inst = new NestInstrumentation12({ enabled: false });
    const definitions = (inst as unknown as { getModuleDefinitions(): { supportedVersions: string[]; files: { supportedVersions: string[] }[] }[] }).getModuleDefinitions();
    expect(definitions[0].supportedVersions).toEqual(NEST_SUPPORTED_VERSIONS);
    expect(definitions[0].files.every((f) => f.supportedVersions === NEST_SUPPORTED_VERSIONS)).toBe(true);
  });
});

describe('edge sampler', () => {
  const traceIds = Array.from({ length: 2000 }, () => randomBytes(16).toString('hex'));
  const remote = (traceId: string, sampled: boolean) =>
    trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '00f067aa0ba902b7', traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true });
  const decide = (ratio: number, ctx: ReturnType<typeof remote>, traceId: string) =>
    edgeSampler(ratio).shouldSample(ctx, traceId, 'POST', SpanKind.SERVER, {}, []).decision;

  it('applies the ratio to sampled remote parents (k6 always sets the flag)', () => {
    const sampled = traceIds.filter((id) => decide(0.25, remote(id, true), id) === SamplingDecision.RECORD_AND_SAMPLED).length;
    expect(sampled / traceIds.length).toBeGreaterThan(0.15);
    expect(sampled / traceIds.length).toBeLessThan(0.35);
  });

  it('decides the same way in every service for one trace id, and never samples unsampled parents', () => {
    for (const id of traceIds.slice(0, 200)) expect(decide(0.5, remote(id, true), id)).toBe(decide(0.5, remote(id, true), id));
    expect(decide(1, remote(traceIds[0], false), traceIds[0])).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(1, remote(traceIds[0], true), traceIds[0])).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(0, remote(traceIds[0], true), traceIds[0])).toBe(SamplingDecision.NOT_RECORD);
  });
});
