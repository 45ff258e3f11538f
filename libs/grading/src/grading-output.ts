/** Parses and validates what a grading script prints (DESIGN §3, grading contract). */
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

/** The result is the last non-empty stdout line; anything else is a grader failure. */
export function parseGradingOutput(stdout: string, facts: Record<string, unknown>): GradingResult {
  const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.at(-1);
  if (last === undefined) throw failed('the grader printed nothing', facts);
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    throw failed(`the grader printed invalid JSON: ${last.slice(0, 200)}`, facts);
  }
  const parsed = gradingResultSchema.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw failed(`the grader printed a result that breaks the contract: ${why}`, facts);
  }
  return parsed.data;
}

export const failed = (message: string, facts: Record<string, unknown>) => new DomainError('grading-failed', message, facts);
