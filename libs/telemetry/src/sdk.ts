/**
 * Builds and starts the tracer provider of one service process: resource per role and
 * replica, ParentBased(TraceIdRatio) sampling (see sampler.ts), W3C propagation, OTLP/protobuf export in
 * large batches, and explicit auto-instrumentations (no meta package).
 */
import { hostname } from 'node:os';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations, type Instrumentation } from '@opentelemetry/instrumentation';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { BufferConfig } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { NestInstrumentation12 } from './nest-instrumentation';
import { edgeSampler } from './sampler';
import { CountingBatchSpanProcessor, CountingExporter, newSpanCounts, type SpanCounts } from './span-accounting';

export interface TelemetrySettings {
  role: string;
  replica: number;
  variant: string;
  /** Fraction of new traces sampled (0..1); children follow their parent's decision. */
  sampleRatio: number;
  /** OTLP/HTTP base URL, e.g. http://127.0.0.1:4318 (/v1/traces is appended). */
  otlpEndpoint: string;
}

/**
 * Sized for the `small` profile: a few hundred requests/s × ~10-20 spans each. A large
 * queue absorbs bursts and Jaeger pauses; frequent 1k-span batches keep it draining.
 */
export const BATCH_CONFIG: Required<BufferConfig> = {
  maxQueueSize: 65_536,
  maxExportBatchSize: 2_048,
  scheduledDelayMillis: 500,
  exportTimeoutMillis: 15_000,
};

/** Requests that are not application work (scrapes, health checks) start no trace. */
const UNTRACED_PATHS = ['/metrics', '/health', '/docs'];

export interface RunningTelemetry {
  provider: NodeTracerProvider;
  counts: SpanCounts;
  shutdown(): Promise<void>;
}

export function serviceName(role: string): string {
  return `shellgrade-${role}`;
}

export function instrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.some((p) => (req.url ?? '').startsWith(p)),
    }),
    new UndiciInstrumentation(),
    // transport: grpc — the gateway → service hop; readiness probes are not application work.
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    // Middleware spans (cors, cookies, body parsers) would triple the span count for no insight.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    new NestInstrumentation12(),
    new PgInstrumentation({ requireParentSpan: true }),
    new AmqplibInstrumentation(),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
}

/**
 * CommonJS packages that ESM packages import (Nest 12's platform-express imports express).
 * Such imports bypass the require hook, but they reuse a module already in the require
 * cache, so loading them here, after the hooks are in place, instruments them. (An
 * import-in-the-middle loader would not help: Nest is loaded with require(esm), which
 * does not run asynchronous loader hooks.)
 */
const PRELOADED_FOR_ESM = ['express'];

function preloadForEsmImporters(): void {
  for (const name of PRELOADED_FOR_ESM) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(name);
    } catch {
      // Not installed in this process's tree: nothing imports it either.
    }
  }
}

export function startTelemetry(s: TelemetrySettings): RunningTelemetry {
  const counts = newSpanCounts();
  const exporter = new CountingExporter(
    new OTLPTraceExporter({ url: `${s.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`, timeoutMillis: BATCH_CONFIG.exportTimeoutMillis }),
    counts,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': serviceName(s.role),
      'service.instance.id': `${s.role}-${s.replica}`,
      'service.namespace': 'shellgrade',
      'deployment.environment.name': s.variant,
      variant: s.variant,
      'host.name': hostname(),
      'process.pid': process.pid,
    }),
    sampler: edgeSampler(s.sampleRatio),
    spanProcessors: [new CountingBatchSpanProcessor(exporter, BATCH_CONFIG, counts)],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  registerInstrumentations({ tracerProvider: provider, instrumentations: instrumentations() });
  preloadForEsmImporters();
  return { provider, counts, shutdown: () => provider.shutdown() };
}
