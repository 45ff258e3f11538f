/** What one cached submission context looks like in Redis. */
import type { SubmissionContext } from '@shellgrade/domain';
import { decodeJson, encodeJson } from './json-codec';

/** Bumped when the entry's shape changes: replicas of a new build then ignore old entries. */
const ENTRY_FORMAT = 2;

export function encodeContextEntry(context: SubmissionContext): string {
  return encodeJson({ v: ENTRY_FORMAT, context });
}

/** The context, or null when the text is not an entry of this format. */
export function decodeContextEntry(text: string): SubmissionContext | null {
  let parsed: unknown;
  try {
    parsed = decodeJson(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.v !== ENTRY_FORMAT || !isRecord(parsed.context)) return null;
  const { statement, exercise, session } = parsed.context;
  if (!isRecord(statement) || !isRecord(exercise) || typeof statement.id !== 'number' || typeof exercise.id !== 'number') return null;
  if (!isRecord(session) || !(session.endsAt instanceof Date) || typeof parsed.context.enrolled !== 'boolean') return null;
  return parsed.context as unknown as SubmissionContext;
}

/** The request's own statement: the cache is keyed by statement id only, ownership is checked here. */
export function contextAnswers(context: SubmissionContext, userId: number, exerciseId: number): boolean {
  return context.statement.userId === userId && context.statement.exerciseId === exerciseId && context.exercise.id === exerciseId;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
