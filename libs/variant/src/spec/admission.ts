// The admission section: how many submissions (and logins) one process takes in before it answers
// 503 + Retry-After, the answer deadline, and the defaults a preset reproducing no paper gets.
import { z } from 'zod';
import { positiveInt } from './values';

/**
 * Admission of submissions per process (libs/admission BoundedAdmission): beyond the budget a
 * submission gets 503 + Retry-After before anything is stored. Unset bounds: every submission is
 * admitted, as in the papers' systems. Logins and reads are never counted, so a submission backlog
 * cannot starve them of a place. On by default in every preset that reproduces no paper
 * configuration (no `paper` field; ADMISSION_DEFAULTS fill the bounds it leaves unset); a paper
 * preset keeps the paper's behaviour (admit everything, grade everything) unless it sets a bound.
 * `enabled: false` is off: no gate, no answer deadline, whatever bounds an extended preset set.
 */
export const admissionSchema = z.strictObject({
  /**
   * Unset: on unless the spec names a paper configuration (a paper preset still applies the bounds it
   * sets itself, without defaults); false: off, the papers' behaviour — a bound inherited through
   * `extends` must not keep shedding submissions in a spec that turned admission off.
   */
  enabled: z.boolean().optional(),
  /**
   * How long after a submission arrived its client still waits for the answer (its timeout; the
   * proxies' 60 s): a grading that could only start later is not started and the production ends
   * failed, `expired: …`. Unset: every accepted submission is graded, however late.
   */
  answerDeadlineS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /** Submissions one process holds at once (validated, stored, graded or waiting for a grader or a reply). */
  maxSubmissionsInFlight: positiveInt().optional(),
  /**
   * Target latency of a submission (arrival → answer): while the gate is busy and the median of its
   * recent submissions took longer, the gate's concurrency limit shrinks (down to 1), and grows back
   * when they are fast again. An idle or merely slow process never shrinks it.
   */
  maxWaitS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /**
   * Submissions one student may have in flight in one process at once: a student's own slow or
   * endless submissions wait behind themselves (503 + Retry-After), never in front of the class.
   */
  maxSubmissionsInFlightPerStudent: positiveInt().optional(),
  /**
   * The gates' window, in seconds: their limits adapt on the completions of the last windowS, and a
   * gate that completed nothing for a whole window starts open again (the start of a class). Unset:
   * 30 s (libs/admission DEFAULT_WINDOW_S). A test that checks the reopening shortens it, so it waits
   * seconds, not half a minute, for the same event.
   */
  windowS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /** Retry-After of a refusal before the process has measured how long its work takes. */
  retryAfterS: positiveInt('a positive number of seconds').default(5),
  /** Password checks (scrypt) one process runs or queues at once; a login beyond gets 503 + Retry-After instead of a growing queue. */
  maxLoginsInFlight: positiveInt().optional(),
  /** Target latency of a password check, as maxWaitS is for submissions: the login gate's limit adapts to it. */
  maxLoginWaitS: z.number({ error: 'expected a positive number of seconds' }).positive({ error: 'expected a positive number of seconds' }).optional(),
  /**
   * A login arriving while the process's event loop runs further behind than this (p99 delay of
   * the last half second, ms) is refused: new sessions wait until the students inside are served.
   */
  maxLoginEventLoopDelayMs: positiveInt('a positive number of milliseconds').optional(),
});

/**
 * The bounds admission control takes when it is on and the spec leaves them unset: the measured
 * naked-mon-zygote-admission budget, and the proxies' and the default client's 60 s as
 * the answer deadline. The event-loop bound of logins stays opt-in: a blocking grader stalls the
 * loop after every grading and would refuse every login.
 */
export const ADMISSION_DEFAULTS = {
  maxSubmissionsInFlight: 64,
  maxWaitS: 5,
  maxSubmissionsInFlightPerStudent: 2,
  // The ceiling of an adaptive limit, not a forecast: a class arriving at once (tens of logins in
  // the same second) is admitted; the limit shrinks only when checks really take longer than 0.5 s.
  maxLoginsInFlight: 64,
  maxLoginWaitS: 0.5,
  answerDeadlineS: 60,
} as const;

type Admission = z.output<typeof admissionSchema>;

/**
 * The admission a spec runs with: off (no bound at all) when it says `enabled: false`; its own bounds
 * completed by ADMISSION_DEFAULTS when on (explicitly, or by not reproducing a paper); a paper
 * preset's own bounds alone otherwise (on when it sets any).
 */
export function effectiveAdmission(admission: Admission, reproducesPaper: boolean): Admission {
  if (admission.enabled === false) return { enabled: false, retryAfterS: admission.retryAfterS };
  if (admission.enabled === true || !reproducesPaper) return { ...ADMISSION_DEFAULTS, ...admission, enabled: true };
  const own = { ...admission, enabled: true };
  return admissionBounded(own) || loginAdmissionBounded(own) || answerBudgetMsOf(own) !== undefined ? own : { ...admission, enabled: false };
}

/** Whether the spec bounds the admission of submissions at all (on, and either bound set). */
export function admissionBounded(a: z.output<typeof admissionSchema>): boolean {
  return a.enabled !== false && (a.maxSubmissionsInFlight !== undefined || a.maxWaitS !== undefined);
}

/** How long after its arrival a submission's client still waits for the answer, in ms; undefined: no answer deadline (or admission off). */
export function answerBudgetMsOf(a: z.output<typeof admissionSchema>): number | undefined {
  return a.enabled === false || a.answerDeadlineS === undefined ? undefined : Math.round(a.answerDeadlineS * 1000);
}

/** Whether the spec bounds the password checks of logins (on, and any bound set). */
export function loginAdmissionBounded(a: z.output<typeof admissionSchema>): boolean {
  return a.enabled !== false && (a.maxLoginsInFlight !== undefined || a.maxLoginWaitS !== undefined || a.maxLoginEventLoopDelayMs !== undefined);
}
