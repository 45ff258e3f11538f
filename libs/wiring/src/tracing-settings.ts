/**
 * What the telemetry preload starts, read from the same validated values the service reads
 * right after: SG_PROCESS decoded by the spec schema (role, replica, spec.name, spec.tracing)
 * and the collector address from the connections schema (its one default). A process started
 * by hand without SG_PROCESS is not traced.
 */
import { decodeProcessConfig, loadConnections, PROCESS_ENV } from '@shellgrade/variant';
import type { TelemetrySettings } from '@shellgrade/telemetry';

/** null: tracing is off for this process. */
export function tracingSettingsOf(env: NodeJS.ProcessEnv): TelemetrySettings | null {
  const raw = env[PROCESS_ENV];
  if (raw === undefined || raw === '') return null;
  const { role, replica, spec } = decodeProcessConfig(raw);
  if (!spec.tracing.enabled) return null;
  return {
    role,
    replica,
    variant: spec.name,
    sampleRatio: spec.tracing.sampleRatio,
    otlpEndpoint: loadConnections(env).OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}
