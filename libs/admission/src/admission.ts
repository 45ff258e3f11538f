/**
 * Admission of submissions (or password checks) into one process (spec: admission).
 *
 * The gate refuses by free capacity, never by a forecast that one slow job can inflate:
 * - a concurrency limit, between 1 and `maxInFlight`, holds the work inside; a newcomer beyond it
 *   gets 503 + Retry-After before anything is stored, so nothing is lost and the student knows
 *   when to come back;
 * - the limit adapts to latency, as TCP's congestion window does to loss (AIMD): while the gate is
 *   busy and the median time its recent work took exceeds `maxWaitS`, it shrinks by a tenth per
 *   completion; while that median is comfortably under, it grows back by one. A gate that is not
 *   busy never shrinks: a job that is merely slow (a student's endless loop) occupies one place,
 *   not the whole estimate;
 * - the latencies are the last completions of a time window (`windowS`, 30 s unless the spec says):
 *   nothing decays while the process is idle, and after a quiet spell (the start of a class) the
 *   window is empty and the gate opens at its full limit, so a burst of honest logins is not read
 *   as overload;
 * - `maxInFlightPerTenant` bounds one student's work inside: a student's own slow or endless
 *   submissions wait behind themselves, never in front of the class.
 */
import { median } from 'simple-statistics';
import { DomainError, type AdmissionTicket, type SubmissionAdmission } from '@shellgrade/domain';
import { retryAfterSeconds } from '@shellgrade/refusal';

export interface AdmissionBudget {
  /** Work one process holds at once at most (validated, stored, graded or waiting): the limit's ceiling and its start. */
  maxInFlight: number;
  /** Target latency: while the gate is busy and its recent work takes longer, the limit shrinks; unset: only the count bounds. */
  maxWaitS?: number;
  /** Work one tenant (a student) may hold inside at once; unset: no bound per tenant. */
  maxInFlightPerTenant?: number;
  /** Retry-After before the gate has measured how long its work takes. */
  fallbackRetryAfterS: number;
  /** Seconds of completions the limit adapts on; a gate quiet for this long starts open again. Unset: DEFAULT_WINDOW_S. */
  windowS?: number;
  /** What is admitted (default submissions): the refusal says it in the student's words. */
  kind?: 'submission' | 'login';
  /** Refuses newcomers while it names a reason (e.g. the event loop running behind); null: admit. */
  pressure?: () => string | null;
}

export interface AdmissionSnapshot {
  inside: number;
  refused: number;
  /** The concurrency limit as adapted so far. */
  limit: number;
  /** Median seconds the recent work took (enter → release); null before there are enough samples. */
  medianLatencyS: number | null;
  /** Completions in the window now; 0: the gate has been quiet for a whole window (it starts open). */
  windowCompletions: number;
}

/** Latencies the limit adapts on: the last completions of the last window (half a minute unless the budget says). */
const WINDOW_SIZE = 32;
export const DEFAULT_WINDOW_S = 30;
/** Completions in the window before the median is trusted: one sample is one job, not the process. */
const MIN_SAMPLES = 5;
/** Busy: the work inside fills at least this share of the limit; only a busy gate shrinks its limit. */
const BUSY_SHARE = 0.5;
/** Multiplicative decrease per slow completion (AIMD). */
const DECREASE = 0.9;

interface Completion {
  atMs: number;
  latencyMs: number;
}

export class BoundedAdmission implements SubmissionAdmission {
  private inside = 0;
  private refused = 0;
  private limit: number;
  private readonly perTenant = new Map<string, number>();
  private window: Completion[] = [];
  private readonly windowMs: number;

  constructor(
    private readonly budget: AdmissionBudget,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.limit = budget.maxInFlight;
    this.windowMs = (budget.windowS ?? DEFAULT_WINDOW_S) * 1000;
  }

  enter(tenant?: string): AdmissionTicket {
    this.forgetOldCompletions();
    this.refuseTenantAtItsBound(tenant);
    this.refuseBeyondLimit();
    const behind = this.budget.pressure?.();
    if (behind) throw this.refusal(behind);
    return this.admit(tenant);
  }

  /** The load this process carries and what it refused since it started, for its metrics and tests. */
  snapshot(): AdmissionSnapshot {
    this.forgetOldCompletions();
    return { inside: this.inside, refused: this.refused, limit: Math.floor(this.limit), medianLatencyS: this.medianLatencyS(), windowCompletions: this.window.length };
  }

  private refuseTenantAtItsBound(tenant: string | undefined): void {
    const bound = this.budget.maxInFlightPerTenant;
    if (tenant === undefined || bound === undefined) return;
    const theirs = this.perTenant.get(tenant) ?? 0;
    if (theirs < bound) return;
    const yours = this.budget.kind === 'login' ? `${theirs} of your logins are` : `${theirs} of your submissions are`;
    const still = this.budget.kind === 'login' ? 'still being checked' : 'still being graded';
    throw this.refusal(`${yours} ${still}; wait for ${theirs === 1 ? 'it' : 'them'} first`, 'tenant-busy');
  }

  private refuseBeyondLimit(): void {
    if (this.inside < Math.floor(this.limit)) return;
    const noun = this.budget.kind === 'login' ? 'logins' : 'submissions';
    const doing = this.budget.kind === 'login' ? 'checked' : 'graded';
    throw this.refusal(`${this.inside} ${noun} are already being ${doing} here`);
  }

  private admit(tenant: string | undefined): AdmissionTicket {
    const enteredAt = this.nowMs();
    this.inside++;
    if (tenant !== undefined) this.perTenant.set(tenant, (this.perTenant.get(tenant) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const busy = this.inside >= this.limit * BUSY_SHARE;
        this.inside--;
        if (tenant !== undefined) this.leave(tenant);
        this.completed(this.nowMs() - enteredAt, busy);
      },
    };
  }

  private leave(tenant: string): void {
    const left = (this.perTenant.get(tenant) ?? 1) - 1;
    if (left > 0) this.perTenant.set(tenant, left);
    else this.perTenant.delete(tenant);
  }

  /** One completion's latency joins the window and moves the limit (AIMD on the window's median). */
  private completed(latencyMs: number, busy: boolean): void {
    this.window.push({ atMs: this.nowMs(), latencyMs });
    if (this.window.length > WINDOW_SIZE) this.window.shift();
    const target = this.budget.maxWaitS;
    const typical = this.medianLatencyS();
    if (target === undefined || typical === null) return;
    if (typical > target && busy) this.limit = Math.max(1, this.limit * DECREASE);
    else if (typical <= target / 2) this.limit = Math.min(this.budget.maxInFlight, this.limit + 1);
  }

  /** Completions older than the window say nothing about now; a gate quiet for a whole window starts open again. */
  private forgetOldCompletions(): void {
    const since = this.nowMs() - this.windowMs;
    if (this.window.length === 0 || this.window[0].atMs >= since) return;
    this.window = this.window.filter((c) => c.atMs >= since);
    if (this.window.length === 0) this.limit = this.budget.maxInFlight;
  }

  private medianLatencyS(): number | null {
    if (this.window.length < MIN_SAMPLES) return null;
    return median(this.window.map((c) => c.latencyMs)) / 1000;
  }

  private refusal(why: string, reason: 'overloaded' | 'tenant-busy' = 'overloaded'): DomainError {
    this.refused++;
    // One typical latency: by then every place inside has turned over at least once.
    const typical = this.medianLatencyS();
    const retryAfterS = retryAfterSeconds(typical, this.budget.fallbackRetryAfterS);
    const message =
      this.budget.kind === 'login'
        ? `the server is busy: ${why}. You are not logged in yet; try again in ${retryAfterS} s`
        : `the grader is busy: ${why}. Your submission was not saved; submit it again in ${retryAfterS} s`;
    return new DomainError(
      'unavailable',
      message,
      { reason, in_flight: this.inside, limit: Math.floor(this.limit), median_latency_s: typical === null ? null : Math.round(typical * 10) / 10 },
      retryAfterS,
    );
  }
}
