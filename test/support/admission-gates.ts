/**
 * The admission gates of a launched variant as their metrics report them (libs/admission
 * admission-metrics.ts), read from each process that holds gates, straight from its port: the
 * entry (HAProxy, a Node gateway) holds none, and would answer for one replica only.
 */
import type { ProcessStatus } from '@shellgrade/launcher';
import { metricsText } from './metrics';

/** The roles whose processes admit submissions or logins (services/*: app.module.ts). */
const GATED_ROLES = new Set(['monolith', 'leftover', 'exercise']);

export interface GateReading {
  process: string;
  gate: 'submission' | 'login';
  inFlight: number;
  limit: number;
  /** NaN before the gate's window holds enough completions for a median. */
  medianLatencyS: number;
  /** Completions in the gate's window; 0 once it has been quiet for a whole window. */
  windowCompletions: number;
}

const SERIES = /^shellgrade_admission_(in_flight|limit|median_latency_seconds|window_completions)\{gate="(submission|login)"\} (\S+)$/;

/** Every gate of every gated process, as its /metrics reads now. */
export async function gateReadings(processes: ProcessStatus[]): Promise<GateReading[]> {
  const readings: GateReading[] = [];
  for (const p of processes.filter((p) => GATED_ROLES.has(p.role))) {
    const byGate = new Map<string, GateReading>();
    for (const line of (await metricsText(`http://127.0.0.1:${p.port}`)).split('\n')) {
      const m = SERIES.exec(line);
      if (!m) continue;
      const gate = m[2] as GateReading['gate'];
      const r = byGate.get(gate) ?? { process: p.name, gate, inFlight: Number.NaN, limit: Number.NaN, medianLatencyS: Number.NaN, windowCompletions: Number.NaN };
      const value = Number(m[3]);
      if (m[1] === 'in_flight') r.inFlight = value;
      else if (m[1] === 'limit') r.limit = value;
      else if (m[1] === 'window_completions') r.windowCompletions = value;
      else r.medianLatencyS = value;
      byGate.set(gate, r);
    }
    readings.push(...byGate.values());
  }
  return readings;
}

/** The ceilings of the gates (their limit when open), from the effective spec's admission. */
export interface GateCeilings {
  maxSubmissionsInFlight?: number;
  maxLoginsInFlight?: number;
}

const isQuiet = (r: GateReading, c: GateCeilings): boolean =>
  r.inFlight === 0 && r.windowCompletions === 0 && Number.isNaN(r.medianLatencyS) && r.limit === (r.gate === 'login' ? c.maxLoginsInFlight : c.maxSubmissionsInFlight);

/**
 * Waits for the event "every gate is quiet": nothing in flight, no completion left in its window
 * (so no median) and its limit back at its ceiling, i.e. open as a process that just started. Polls
 * the metrics (reading them is what lets a gate forget its old completions, as a newcomer would);
 * bounded in attempts, not timed. Returns the quiet readings.
 */
export async function untilGatesQuiet(processes: ProcessStatus[], ceilings: GateCeilings): Promise<GateReading[]> {
  let last: GateReading[] = [];
  for (let attempt = 0; attempt < 3000; attempt++) {
    last = await gateReadings(processes);
    if (last.length > 0 && last.every((r) => isQuiet(r, ceilings))) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the admission gates never became quiet (in flight 0, window empty, limit at its ceiling): ${JSON.stringify(last)}`);
}

/**
 * Waits for the event "every submission gate has forgotten its completions while work is still
 * inside it": no completion left in its window (a whole window since the last one, so no median)
 * and something in flight. Polled and bounded in attempts like untilGatesQuiet. Returns the readings.
 */
export async function untilSubmissionWindowsForgotten(processes: ProcessStatus[]): Promise<GateReading[]> {
  let last: GateReading[] = [];
  for (let attempt = 0; attempt < 3000; attempt++) {
    last = (await gateReadings(processes)).filter((r) => r.gate === 'submission');
    if (last.length > 0 && last.every((r) => r.windowCompletions === 0 && r.inFlight > 0)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the submission gates never held work with an empty window (in flight > 0, no completion in the window): ${JSON.stringify(last)}`);
}
