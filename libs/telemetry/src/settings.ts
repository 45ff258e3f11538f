/**
 * Reads the tracing settings from the process config the launcher sets (SG_PROCESS, JSON,
 * see libs/variant/src/process-config.ts: role, replica, spec.name, spec.tracing) and the
 * collector address (OTEL_EXPORTER_OTLP_ENDPOINT). The service validates SG_PROCESS in full
 * right after; this preload only picks its few fields and stays dependency-free so the
 * off-case loads nothing.
 *
 * Why not libs/variant's validated loader: telemetry is an adapter (tag type:adapter) and the
 * layer rules (eslint.config.mjs depConstraints, .dependency-cruiser.cjs) forbid an adapter to
 * import the spec (type:spec). The fallbacks below only matter for a process started without
 * SG_PROCESS (by hand); TODO(issue 14): move this preload to a wiring-level entry that reuses
 * decodeProcessConfig and connectionsSchema (OTEL_EXPORTER_OTLP_ENDPOINT's one default), which
 * needs infra/src/paths.ts and the deploy generators to name the new preload.
 */
import type { TelemetrySettings } from './sdk';

interface TracedProcess {
  role?: string;
  replica?: number;
  spec?: { name?: string; tracing?: { enabled?: boolean; sampleRatio?: number } };
}

function processOf(env: NodeJS.ProcessEnv): TracedProcess {
  if (!env.SG_PROCESS) return {};
  try {
    const parsed: unknown = JSON.parse(env.SG_PROCESS);
    return parsed !== null && typeof parsed === 'object' ? (parsed as TracedProcess) : {};
  } catch {
    return {}; // the service itself reports the malformed SG_PROCESS
  }
}

export function isTracingEnabled(env: NodeJS.ProcessEnv): boolean {
  return processOf(env).spec?.tracing?.enabled === true;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): TelemetrySettings {
  const p = processOf(env);
  const ratio = p.spec?.tracing?.sampleRatio ?? 1;
  if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(`SG_PROCESS spec.tracing.sampleRatio must be a number in [0, 1], got ${JSON.stringify(ratio)}`);
  }
  const replica = p.replica ?? 0;
  if (!Number.isInteger(replica) || replica < 0) throw new Error(`SG_PROCESS replica must be an integer >= 0, got ${JSON.stringify(replica)}`);
  return {
    role: p.role || 'monolith',
    replica,
    variant: p.spec?.name || 'naked-mon',
    sampleRatio: ratio,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://127.0.0.1:4318',
  };
}
