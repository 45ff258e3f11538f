/**
 * Admission of submissions (or password checks) into one process (spec: admission; issue 21 item 4).
 * A process admits at most `maxInFlight` submissions at once, and none whose estimated wait
 * exceeds `maxWaitS`; the refused get 503 + Retry-After (the time the backlog ahead needs to
 * drain) before anything is stored, so nothing is lost and a student knows when to come back.
 * The wait is estimated from the process's own recent completion rate (Little's law: the
 * submissions inside ÷ the rate they leave at).
 */
import { DomainError, type AdmissionTicket, type SubmissionAdmission } from '@shellgrade/domain';
import { retryAfterSeconds } from '@shellgrade/refusal';

export interface AdmissionBudget {
  /** Submissions one process holds at once (validated, stored, graded or waiting for a grader). */
  maxInFlight: number;
  /** A submission whose estimated wait is longer is refused; unset: only the count bounds. */
  maxWaitS?: number;
  /** Retry-After before the process has finished enough submissions to estimate a rate. */
  fallbackRetryAfterS: number;
  /** What is admitted (default submissions): the refusal says it in the student's words. */
  kind?: 'submission' | 'login';
  /** Refuses newcomers while it names a reason (e.g. the event loop running behind); null: admit. */
  pressure?: () => string | null;
}

export interface AdmissionSnapshot {
  inside: number;
  refused: number;
  completionsPerS: number | null;
  estimatedWaitS: number | null;
}

/** Completions the rate is measured over: enough to smooth one slow grading, few enough to follow a change of load. */
const RATE_WINDOW = 32;

export class BoundedAdmission implements SubmissionAdmission {
  private inside = 0;
  private refused = 0;
  private readonly completions: number[] = [];

  constructor(
    private readonly budget: AdmissionBudget,
    private readonly nowMs: () => number = Date.now,
  ) {}

  enter(): AdmissionTicket {
    const waitS = this.estimatedWaitS();
    const noun = this.budget.kind === 'login' ? 'logins' : 'submissions';
    const doing = this.budget.kind === 'login' ? 'checked' : 'graded';
    if (this.inside >= this.budget.maxInFlight) throw this.refusal(`${this.inside} ${noun} are already being ${doing} here`, waitS);
    const behind = this.budget.pressure?.();
    if (behind) throw this.refusal(behind, waitS);
    if (this.budget.maxWaitS !== undefined && waitS !== null && waitS > this.budget.maxWaitS) {
      throw this.refusal(`the ${this.inside} ${noun} ahead of yours would make you wait about ${Math.ceil(waitS)} s`, waitS);
    }
    this.inside++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inside--;
        this.completed();
      },
    };
  }

  /** The load this process carries and what it refused since it started, for its metrics and tests. */
  snapshot(): AdmissionSnapshot {
    return { inside: this.inside, refused: this.refused, completionsPerS: this.completionRate(), estimatedWaitS: this.estimatedWaitS() };
  }

  /** Seconds the submissions inside need to leave at the recent completion rate; null before there is a rate. */
  private estimatedWaitS(): number | null {
    const rate = this.completionRate();
    if (rate === null) return null;
    return this.inside / rate;
  }

  private completionRate(): number | null {
    const n = this.completions.length;
    if (n < 2) return null;
    // Up to now, not to the last completion: a process that stopped finishing work has no rate left.
    const spanMs = this.nowMs() - this.completions[0];
    return spanMs > 0 ? ((n - 1) * 1000) / spanMs : null;
  }

  private completed(): void {
    this.completions.push(this.nowMs());
    if (this.completions.length > RATE_WINDOW) this.completions.shift();
  }

  private refusal(why: string, waitS: number | null): DomainError {
    this.refused++;
    const retryAfterS = retryAfterSeconds(waitS, this.budget.fallbackRetryAfterS);
    const message =
      this.budget.kind === 'login'
        ? `the server is busy: ${why}. You are not logged in yet; try again in ${retryAfterS} s`
        : `the grader is busy: ${why}. Your submission was not saved; submit it again in ${retryAfterS} s`;
    return new DomainError(
      'unavailable',
      message,
      { reason: 'overloaded', in_flight: this.inside, estimated_wait_s: waitS === null ? null : Math.round(waitS * 10) / 10 },
      retryAfterS,
    );
  }
}
