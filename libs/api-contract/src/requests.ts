/**
 * What a client sends to the public HTTP API, written once: the controllers parse their bodies,
 * queries and path ids with these schemas (libs/api), and the OpenAPI document (openapi.ts,
 * paths.ts) describes them from the same objects, as the client writes them (the input side:
 * a base64 string, an ISO date string), so the web app's generated client cannot drift from
 * what the server accepts. Snake_case as the original SPA sends it.
 *
 * Parsing yields what the use cases take: a base64 field decodes to a Buffer, a date to a Date.
 * Those transforms run on the server only (the browser uses the generated types, not this file).
 */
import { EXERCISE_STATES, ROLES } from '@shellgrade/domain/enums';
import { z } from 'zod';

/** The named request schemas: each becomes `#/components/schemas/<id>` beside the response bodies. */
export const apiRequests = z.registry<{ id: string }>();

/** A row id, in a path, a query or a body (a path's string is coerced). */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);
export const optionalId = idParam.optional();

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Binary fields (question archives) travel as base64 in JSON. */
export const base64Bytes = z
  .string()
  .max(8 * 1024 * 1024)
  .regex(BASE64, 'must be base64')
  .transform((s) => Buffer.from(s, 'base64'));

export const isoDate = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date')
  .transform((s) => new Date(s))
  .describe('An ISO 8601 date, e.g. 2030-06-01T12:00:00Z.');

export const roleSchema = z.enum(ROLES);
export const exerciseStateSchema = z.enum(EXERCISE_STATES);

/** PATCH and PUT both accept partial bodies, but an empty update is a client error. */
export const nonEmpty = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) =>
  schema.partial().strict().refine((v) => Object.values(v).some((x) => x !== undefined), 'no field to update');

/** A file part of a multipart body (the server reads it apart from the fields, with its own size limit). */
const archiveFile = z.file().describe('The archive (.tar.gz).');

/** Shortest enrolment key a teacher may choose (a chosen key is stored hashed, like a password). */
export const MIN_ENROLMENT_KEY_LENGTH = 12;

// --- login sessions

export const loginRequest = z
  .object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(1024) })
  .describe('Log in with an email and a password.')
  .register(apiRequests, { id: 'LoginRequest' });

// --- users

const userFields = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(8).max(1024),
  firstname: z.string().max(200),
  lastname: z.string().max(200),
  role: roleSchema,
});
export const newUserRequest = userFields
  .extend({ firstname: userFields.shape.firstname.default(''), lastname: userFields.shape.lastname.default(''), role: roleSchema.default('student') })
  .strict()
  .describe('A new account (admin).')
  .register(apiRequests, { id: 'NewUser' });
/** `current_password` is required when a user changes its own password. */
export const userUpdateRequest = nonEmpty(userFields.extend({ current_password: z.string().min(1).max(1024) }))
  .describe('The fields to change (admin: any; a user: its own names, and its own password with current_password).')
  .register(apiRequests, { id: 'UserUpdate' });
export const usersQuery = pageQuery.extend({ role: roleSchema.optional() });

// --- exercises

const exerciseFields = z.object({
  slug: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'lower-case letters, digits and dashes'),
  name: z.string().trim().min(1).max(200),
  statement: z.string().max(1_000_000),
  question_archive: base64Bytes,
  grader_script: z.string().min(1).max(1_000_000),
  state: exerciseStateSchema,
  locale: z.string().min(2).max(16),
  skills: z.array(z.string().min(1).max(64)).max(50),
});
export const newExerciseRequest = exerciseFields
  .extend({ state: exerciseStateSchema.default('draft'), locale: exerciseFields.shape.locale.default('en'), skills: exerciseFields.shape.skills.default([]) })
  .strict()
  .describe('A new exercise; its question archive in base64.')
  .register(apiRequests, { id: 'NewExercise' });
export const exerciseUpdateRequest = nonEmpty(exerciseFields).describe('The fields of an exercise to change.').register(apiRequests, { id: 'ExerciseUpdate' });
export const exercisesQuery = pageQuery.extend({ state: exerciseStateSchema.optional() });

// --- sequences

const sequenceFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  exercises: z.array(idParam).max(500).refine((ids) => new Set(ids).size === ids.length, 'an exercise appears twice'),
});
export const newSequenceRequest = sequenceFields
  .extend({ description: sequenceFields.shape.description.default(''), exercises: sequenceFields.shape.exercises.default([]) })
  .strict()
  .describe('A new sequence: its exercises in order.')
  .register(apiRequests, { id: 'NewSequence' });
export const sequenceUpdateRequest = nonEmpty(sequenceFields).describe('The fields of a sequence to change.').register(apiRequests, { id: 'SequenceUpdate' });

// --- business sessions

const sessionFields = z.object({
  name: z.string().trim().min(1).max(200),
  sequence_id: idParam,
  starts_at: isoDate,
  ends_at: isoDate,
  enrolment_key: z.string().min(MIN_ENROLMENT_KEY_LENGTH, `at least ${MIN_ENROLMENT_KEY_LENGTH} characters`).max(200),
  teacher_id: idParam,
});
export const newSessionRequest = sessionFields
  .extend({ teacher_id: idParam.optional(), enrolment_key: sessionFields.shape.enrolment_key.optional() })
  .strict()
  .refine((s) => s.ends_at >= s.starts_at, { message: 'ends_at is before starts_at', path: ['ends_at'] })
  .describe('A new session; without enrolment_key the server generates one, shown in its answer only.')
  .register(apiRequests, { id: 'NewBusinessSession' });
export const sessionUpdateRequest = nonEmpty(sessionFields).describe('The fields of a session to change.').register(apiRequests, { id: 'BusinessSessionUpdate' });
export const enrolRequest = z
  .union([z.object({ enrolment_key: z.string().min(1).max(200) }).strict(), z.object({ user_ids: z.array(idParam).min(1).max(10_000) }).strict()])
  .describe('A student enrols itself with the key; staff enrol students by id.')
  .register(apiRequests, { id: 'Enrolment' });
export const reportQuery = z.object({ format: z.enum(['json', 'csv'], { message: "format must be 'json' or 'csv'" }).default('json') }).strict();

// --- student statements

export const newStatementRequest = z
  .object({
    user_id: idParam,
    session_id: idParam,
    ex_id: idParam,
    statement: z.string().max(1_000_000).optional().describe("Defaults to the exercise's statement."),
    question_archive: base64Bytes.optional().describe("Defaults to the exercise's question archive."),
    deadline: isoDate.nullable().default(null),
  })
  .strict()
  .describe("A student's statement of one exercise in one session.")
  .register(apiRequests, { id: 'NewStatement' });
export const statementUpdateRequest = nonEmpty(z.object({ statement: z.string().max(1_000_000), question_archive: base64Bytes, deadline: isoDate.nullable() }))
  .describe('The fields of a statement to change.')
  .register(apiRequests, { id: 'StatementUpdate' });
export const statementsQuery = pageQuery.extend({ user_id: optionalId, session_id: optionalId, ex_id: optionalId });

// --- productions

export const productionsQuery = pageQuery.extend({ user_id: optionalId, ex_id: optionalId, ps_id: optionalId });
/** The fields beside a multipart submission's `file`. */
export const submissionFields = z.object({ ex_id: idParam, ps_id: idParam });
export const submissionUpload = submissionFields
  .extend({ file: archiveFile })
  .describe('A submission as a form: the archive and which statement it answers.')
  .register(apiRequests, { id: 'SubmissionUpload' });
/** The original SPA's JSON submission: `data` maps byte index to byte value (an array of bytes is accepted too). */
export const spaSubmissionRequest = submissionFields
  .extend({
    production_data: z.object({
      name: z.string().max(255).optional(),
      size: z.number().int().nonnegative().optional(),
      data: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).describe('Byte index to byte value, or an array of bytes.'),
    }),
  })
  .describe("A submission as the original SPA sends it.")
  .register(apiRequests, { id: 'SpaSubmission' });

// --- grader trials

/** The fields beside a trial's `file`. */
export const trialFields = z.object({ ex_id: idParam });
export const trialUpload = trialFields
  .extend({ file: archiveFile })
  .describe("A sample archive to run an exercise's grader on (its author only); nothing is stored.")
  .register(apiRequests, { id: 'TrialUpload' });
