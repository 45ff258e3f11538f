// Spike recovery (paper 002's spike suite): the time from the end of the burst until the windowed p95 of OK
// requests is back within (1 + tolerance) × the pre-spike p95 — with at most 1 % KO in the
// window — and stays there until the end of the load. Resolution: one window.
import { summarize } from './latency';
import type { RequestSample } from './samples';
import type { ScheduledStep } from './step-stats';
import { between, timeline, type TimeWindow } from './timeline';

/** A window with more KO than this is not recovered, however fast its few OK answers. */
export const RECOVERED_MAX_KO_SHARE = 0.01;

export interface SpikeInput {
  requests: RequestSample[];
  loadFromMs: number;
  schedule: ScheduledStep[];
  /** Index of the burst step; the step before it is the baseline. */
  burstStep: number;
  windowS: number;
  tolerance: number;
}

export interface SpikeVerdict {
  baselineRate: number;
  burstRate: number;
  /** p95 of OK requests started in the baseline step before the burst. */
  preP95Ms: number | null;
  boundMs: number | null;
  burstFromS: number;
  burstEndS: number;
  tolerance: number;
  /** Seconds from the end of the burst to the start of the first window of the recovered tail; null: never recovered. */
  recoveryS: number | null;
  recovered: boolean;
  windows: TimeWindow[];
}

export function isRecovered(w: TimeWindow, boundMs: number): boolean {
  return w.p95 !== null && w.p95 <= boundMs && (w.koShare ?? 0) <= RECOVERED_MAX_KO_SHARE;
}

/** Index of the first window from which every window with requests is recovered; null if none. */
export function recoveredFrom(windows: TimeWindow[], boundMs: number): number | null {
  let from: number | null = null;
  for (let i = windows.length - 1; i >= 0; i--) {
    if (windows[i].requests === 0) continue; // no request, no evidence either way
    if (!isRecovered(windows[i], boundMs)) break;
    from = i;
  }
  return from;
}

export function spikeRecovery(input: SpikeInput): SpikeVerdict {
  const { schedule, burstStep } = input;
  if (burstStep < 1 || burstStep >= schedule.length) throw new Error(`burst step ${burstStep} needs a baseline step before it (${schedule.length} steps)`);
  const base = schedule[burstStep - 1];
  const burst = schedule[burstStep];
  const endS = schedule[schedule.length - 1].toS;
  const preP95Ms = summarize(between(input.requests, input.loadFromMs, base.fromS, base.toS)).p95;
  const boundMs = preP95Ms === null ? null : preP95Ms * (1 + input.tolerance);
  const windows = timeline(input.requests, input.loadFromMs, burst.toS, endS, input.windowS);
  const from = boundMs === null ? null : recoveredFrom(windows, boundMs);
  return {
    baselineRate: base.rate,
    burstRate: burst.rate,
    preP95Ms,
    boundMs,
    burstFromS: burst.fromS,
    burstEndS: burst.toS,
    tolerance: input.tolerance,
    recoveryS: from === null ? null : windows[from].fromS - burst.toS,
    recovered: from !== null,
    windows,
  };
}
