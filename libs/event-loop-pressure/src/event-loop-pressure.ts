/**
 * How far behind this process's event loop runs: the login gate refuses new
 * sessions while it is behind, so the students already inside keep their response times and the
 * backlog drains instead of growing. The delay is Node's own event-loop-delay histogram
 * (perf_hooks), read per window of `windowMs`: its p99 over the last full window.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The timer's own period, ms: the histogram records whole intervals, the delay is what exceeds it. */
const RESOLUTION_MS = 10;

export class EventLoopPressure {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private lastDelayMs = 0;
  private windowStartMs: number;

  constructor(
    /** Behind by more than this (p99 of the last window): new logins are refused. */
    readonly maxDelayMs: number,
    private readonly windowMs = 500,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.windowStartMs = this.nowMs();
    this.histogram.enable();
  }

  /** p99 event-loop delay of the last full window, ms beyond the timer's period. */
  delayMs(): number {
    const now = this.nowMs();
    if (now - this.windowStartMs >= this.windowMs) {
      const p99Ms = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 : RESOLUTION_MS;
      this.lastDelayMs = Math.max(0, p99Ms - RESOLUTION_MS);
      this.histogram.reset();
      this.windowStartMs = now;
    }
    return this.lastDelayMs;
  }

  /** Why a newcomer should come back later, or null while the loop keeps up. */
  behind(): string | null {
    const delay = this.delayMs();
    return delay > this.maxDelayMs ? `this server is running ${Math.round(delay)} ms behind` : null;
  }

  stop(): void {
    this.histogram.disable();
  }
}
