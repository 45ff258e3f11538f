/**
 * Reads the tracing settings from the environment the launcher sets (see
 * libs/variant/src/runtime-config.ts: SG_TRACING, SG_TRACE_SAMPLE, SG_ROLE, SG_REPLICA,
 * SG_VARIANT, OTEL_EXPORTER_OTLP_ENDPOINT). Kept dependency-free so the off-case loads nothing.
 */
import type { TelemetrySettings } from './sdk';

export function isTracingEnabled(env: NodeJS.ProcessEnv): boolean {
  const v = (env.SG_TRACING ?? '').trim().toLowerCase();
  return v === 'true' || v === '1';
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): TelemetrySettings {
  const ratio = env.SG_TRACE_SAMPLE === undefined || env.SG_TRACE_SAMPLE === '' ? 1 : Number(env.SG_TRACE_SAMPLE);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(`SG_TRACE_SAMPLE must be a number in [0, 1], got "${env.SG_TRACE_SAMPLE}"`);
  }
  const replica = Number(env.SG_REPLICA ?? '0');
  if (!Number.isInteger(replica) || replica < 0) throw new Error(`SG_REPLICA must be an integer >= 0, got "${env.SG_REPLICA}"`);
  return {
    role: env.SG_ROLE || 'monolith',
    replica,
    variant: env.SG_VARIANT || 'naked-mon',
    sampleRatio: ratio,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://127.0.0.1:4318',
  };
}
