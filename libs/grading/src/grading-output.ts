/**
 * What a grading prints, read: the result's JSON line parsed against the grading contract, an
 * archive the sandbox refused read as the student's 422, and what reaches a student bounded —
 * feedback texts quote student files and output, so they are cut to a fixed size and stripped of
 * the job's host paths (docs/design.md: Grading contract, Untrusted input). The typed failure
 * every grading path throws is here too. SandboxGrader reads its runs with it; the grading
 * contract tests read it alone.
 */
import { z } from 'zod';
import { DomainError, type GradingResult } from '@shellgrade/domain';

export const gradingResultSchema = z.object({
  grade: z.number().int().min(0).max(100),
  comment: z.array(
    z.object({
      numQ: z.number().int(),
      verif: z.string(),
      status: z.enum(['OK', 'NOT OK', 'not tested']),
      expl: z.string(),
    }),
  ),
});

/** Same bounds as the helper library's (shellgrade_grader/feedback.py), for graders that skip it. */
export const FEEDBACK_BOUNDS = { verif: 200, expl: 500, items: 200 } as const;

/**
 * A failed grading. `message` and `details` are what a student may read (they end up in the
 * production's failure reason); `diagnostics` (the grader's stderr, its raw output, host errors)
 * are for the server log only.
 */
export class GradingFailure extends DomainError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly diagnostics: Record<string, unknown> = {},
  ) {
    super('grading-failed', message, details);
  }
}

/** Facts of a grader run, split between the student-safe details and the log-only diagnostics. */
export interface RunFacts {
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  durationMs?: number;
  [diagnostic: string]: unknown;
}

export function failed(message: string, facts: RunFacts, diagnostics: Record<string, unknown> = {}): GradingFailure {
  const { exitCode, signal, timedOut, durationMs, ...rest } = facts;
  const details = Object.fromEntries(Object.entries({ exitCode, signal, timedOut, durationMs }).filter(([, v]) => v !== undefined));
  return new GradingFailure(message, details, { ...rest, ...diagnostics });
}

/** The last non-empty stdout line: where a grader prints its result (or the helper library its refusal). */
const lastLine = (stdout: string): string | undefined =>
  stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);

/** The result is the last non-empty stdout line; anything else is a grader failure. */
export function parseGradingOutput(stdout: string, facts: RunFacts, hostPaths: string[] = []): GradingResult {
  const last = lastLine(stdout);
  if (last === undefined) throw failed('the grader printed nothing', facts);
  const stdoutTail = last.slice(-500);
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    throw failed('the grader printed a result that is not valid JSON', facts, { stdoutTail });
  }
  const parsed = gradingResultSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw failed(`the grader printed a result that breaks the contract: ${why.slice(0, 300)}`, facts, { stdoutTail });
  }
  const shown = (text: string, limit: number) => bound(hidePaths(text, hostPaths), limit);
  return {
    grade: parsed.data.grade,
    comment: parsed.data.comment.slice(0, FEEDBACK_BOUNDS.items).map((c) => ({
      ...c,
      verif: shown(c.verif, FEEDBACK_BOUNDS.verif),
      expl: shown(c.expl, FEEDBACK_BOUNDS.expl),
    })),
  };
}

/** The grader's exit status for a submission that reads differently in the sandbox than it was validated (extract.py refuse_archive). */
export const ARCHIVE_REFUSED = 65;

const archiveRefusalSchema = z.object({ archive_refused: z.object({ reason: z.string().max(40), message: z.string().max(300) }) });

/** The student's 422, like any archive the validator refuses; a status 65 without the refusal line is a failed grading. */
export function parseArchiveRefusal(stdout: string, facts: RunFacts): DomainError {
  let json: unknown;
  try {
    json = JSON.parse(lastLine(stdout) ?? '');
  } catch {
    json = undefined;
  }
  const refusal = archiveRefusalSchema.safeParse(json);
  if (!refusal.success) return failed(`the grader stopped with an error (exit code ${ARCHIVE_REFUSED})`, facts);
  const { reason, message } = refusal.data.archive_refused;
  return new DomainError('invalid-archive', `the archive was refused: ${message}; create it with a plain \`tar czf\``, { reason });
}

/** Replaces host paths (the job directory under isolation none) with the sandbox's "/job". */
function hidePaths(text: string, hostPaths: string[]): string {
  return hostPaths.reduce((t, p) => (p.length > 1 ? t.split(p).join('/job') : t), text);
}

function bound(text: string, limit: number): string {
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}
