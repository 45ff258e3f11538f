/**
 * The closed vocabularies of the domain, each written once as an `as const` array: the types below
 * are derived from them, and the public API's zod schemas (libs/api-contract, z.enum(ROLES)) and the
 * token checks (libs/auth) read the same arrays, so a new value is added in one place. Imports
 * nothing: libs/api-contract, a contract shared with the browser, may import this file alone
 * (@shellgrade/domain/enums).
 */
export const ROLES = ['admin', 'teacher', 'student'] as const;
export type Role = (typeof ROLES)[number];

export const EXERCISE_STATES = ['draft', 'published', 'archived'] as const;
export type ExerciseState = (typeof EXERCISE_STATES)[number];

export const PRODUCTION_STATUSES = ['received', 'queued', 'grading', 'graded', 'failed'] as const;
export type ProductionStatus = (typeof PRODUCTION_STATUSES)[number];

/** The verdict of one numbered check of a grading (FeedbackItem.status). */
export const CHECK_STATUSES = ['OK', 'NOT OK', 'not tested'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
