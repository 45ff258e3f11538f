/**
 * The public HTTP API's response bodies, written once. The services' views return these types;
 * /docs serves them as OpenAPI components (openapi.ts), the operations that answer them are in
 * paths.ts, and the web app's client is generated from that document
 * (apps/web/src/api-types.generated.ts, `node apps/web/api-types.mjs`); lint fails when the
 * generated file no longer matches. What a client sends is in requests.ts.
 * Snake_case as the original SPA reads it; timestamps travel as ISO 8601 strings.
 */
import { CHECK_STATUSES, EXERCISE_STATES, PRODUCTION_STATUSES, ROLES } from '@shellgrade/domain/enums';
import { z } from 'zod';

/** The named schemas of the contract: each becomes `#/components/schemas/<id>` in the OpenAPI. */
export const apiContract = z.registry<{ id: string }>();

const id = z.number().int();
const timestamp = z.iso.datetime();

export const sessionUserBody = z
  .object({ user_id: id, email: z.string(), firstname: z.string(), lastname: z.string(), role: z.enum(ROLES) })
  .describe('An account as its owner and staff see it (login, verify, users).')
  .register(apiContract, { id: 'SessionUser' });

export const exerciseBody = z
  .object({
    ex_id: id,
    slug: z.string(),
    name: z.string(),
    statement: z.string(),
    state: z.enum(EXERCISE_STATES),
    locale: z.string(),
    skills: z.array(z.string()),
    author_id: id.nullable(),
    question_archive: z.string().optional().describe('The question archive (.tar.gz), base64; in a single exercise, not in lists.'),
    grader_script: z.string().optional().describe('Python source of the grader; to staff only.'),
  })
  .describe('An exercise of the catalog.')
  .register(apiContract, { id: 'Exercise' });

export const sequenceBody = z
  .object({ sequence_id: id, name: z.string(), description: z.string(), exercises: z.array(id), author_id: id.nullable() })
  .describe('An ordered list of exercises.')
  .register(apiContract, { id: 'Sequence' });

export const businessSessionBody = z
  .object({
    session_id: id,
    name: z.string(),
    sequence_id: id,
    starts_at: timestamp,
    ends_at: timestamp,
    teacher_id: id.nullable(),
    enrolment_key: z.string().optional().describe('Only in the answer that set it: the key is stored hashed.'),
  })
  .describe('A teaching session: a sequence over a period.')
  .register(apiContract, { id: 'BusinessSession' });

export const statementBody = z
  .object({
    ps_id: id,
    user_id: id,
    session_id: id,
    ex_id: id,
    statement: z.string(),
    deadline: timestamp.nullable(),
    question_archive: z.string().optional().describe('The question archive (.tar.gz), base64; in a single statement, not in lists.'),
  })
  .describe("A student's statement of one exercise in one session.")
  .register(apiContract, { id: 'Statement' });

export const feedbackItemBody = z
  .object({ numQ: id, verif: z.string(), status: z.enum(CHECK_STATUSES), expl: z.string() })
  .describe('One numbered check of a grading.')
  .register(apiContract, { id: 'FeedbackItem' });

const productionStatus = z.enum(PRODUCTION_STATUSES);

export const productionBody = z
  .object({
    ep_id: id,
    ex_id: id,
    ps_id: id,
    user_id: id,
    status: productionStatus,
    grade: z.number().nullable(),
    comment: z.array(feedbackItemBody),
    failure_reason: z.string().nullable(),
    archive_size: id,
    archive_sha256: z.string(),
    created_at: timestamp,
    graded_at: timestamp.nullable(),
  })
  .describe('A submitted production and, once graded, its grade and feedback.')
  .register(apiContract, { id: 'Production' });

export const submissionGradedBody = z
  .object({ ep_id: id, ex_id: id, grade: z.number().nullable(), comment: z.array(feedbackItemBody) })
  .describe('The answer (201) to a submission graded before the reply.')
  .register(apiContract, { id: 'SubmissionGraded' });

export const submissionQueuedBody = z
  .object({
    ep_id: id,
    status: productionStatus,
    queued_ahead: id.optional().describe('Submissions waiting ahead of this one.'),
    estimated_wait_s: z.number().nullable().optional().describe('About how long until it is graded; null before the server has a rate.'),
  })
  .describe('The answer (202) to a submission graded later: poll its production.')
  .register(apiContract, { id: 'SubmissionQueued' });

export const sessionProductionBody = z
  .object({ ep_id: id, user_id: id, ex_id: id, ps_id: id, status: productionStatus, grade: z.number().nullable(), created_at: timestamp })
  .describe("One production of a session's statements.")
  .register(apiContract, { id: 'SessionProduction' });

export const sessionReportBody = z
  .object({
    session_id: id,
    name: z.string(),
    pass_mark: z.number(),
    totals: z.object({ students: id, exercises: id, productions: id, graded: id, failed: id, pending: id }),
    grade_distribution: z.record(z.string(), id).describe('Graded productions per grade bucket.'),
    mean_grade: z.number().nullable(),
    exercises: z.array(
      z.object({
        ex_id: id,
        attempts: id,
        students_attempted: id,
        students_passed: id,
        pass_rate: z.number(),
        mean_best_grade: z.number().nullable(),
      }),
    ),
    students: z.array(
      z.object({
        user_id: id,
        firstname: z.string(),
        lastname: z.string(),
        email: z.string(),
        attempts: id,
        best_grades: z.record(z.string(), z.number().nullable()).describe('Best grade per exercise id; null: none graded yet.'),
        exercises_passed: id,
        progress: z.number(),
        last_submission_at: timestamp.nullable(),
      }),
    ),
  })
  .describe("A session's results (paper 001's S2), computed by the server.")
  .register(apiContract, { id: 'SessionReport' });

export const sessionProductionsBody = z
  .object({ session_id: id, productions: z.array(sessionProductionBody) })
  .describe("Every production of a session (compact rows), for its report.")
  .register(apiContract, { id: 'SessionProductions' });

export const trialReplyBody = z
  .discriminatedUnion('outcome', [
    z.object({ ex_id: id, outcome: z.literal('graded'), grade: z.number(), comment: z.array(feedbackItemBody) }),
    z.object({
      ex_id: id,
      outcome: z.literal('grader-failed'),
      reason: z.string(),
      details: z.record(z.string(), z.unknown()),
      grader_stderr: z.string().describe("The grader's standard error, bounded: what its author needs to fix it."),
    }),
  ])
  .describe("An exercise's grader run on a sample archive: its grade, or why the grader failed. Nothing is stored.")
  .register(apiContract, { id: 'TrialReply' });

export const enrolmentsBody = z
  .object({ session_id: id, user_ids: z.array(id) })
  .describe('The students enrolled in a session.')
  .register(apiContract, { id: 'Enrolments' });

export const enrolledBody = z
  .object({ session_id: id, enrolled: id.describe('How many students this request enrolled.') })
  .describe('The answer to an enrolment.')
  .register(apiContract, { id: 'Enrolled' });

export const unenrolledBody = z
  .object({ session_id: id, user_id: id, unenrolled: z.literal(true) })
  .describe('The answer to an unenrolment.')
  .register(apiContract, { id: 'Unenrolled' });

export const loggedOutBody = z
  .object({ logged_out: z.literal(true), revoked: z.boolean().describe('Whether a login session was found and revoked.') })
  .describe('The answer to a logout: the cookies are cleared either way.')
  .register(apiContract, { id: 'LoggedOut' });

export const userDeletedBody = z.object({ deleted: z.literal(true), user_id: id }).describe('An account deleted.').register(apiContract, { id: 'UserDeleted' });
export const exerciseDeletedBody = z.object({ deleted: z.literal(true), ex_id: id }).describe('An exercise deleted.').register(apiContract, { id: 'ExerciseDeleted' });
export const sequenceDeletedBody = z.object({ deleted: z.literal(true), sequence_id: id }).describe('A sequence deleted.').register(apiContract, { id: 'SequenceDeleted' });
export const sessionDeletedBody = z.object({ deleted: z.literal(true), session_id: id }).describe('A session deleted.').register(apiContract, { id: 'BusinessSessionDeleted' });
export const statementDeletedBody = z.object({ deleted: z.literal(true), ps_id: id }).describe('A statement deleted.').register(apiContract, { id: 'StatementDeleted' });

export const webAppConfigBody = z
  .object({
    maxArchiveBytes: id.describe('The largest archive a submission or a trial may carry.'),
    traces: z.boolean().describe('The Jaeger relay is on: the console shows traces.'),
    standalone: z.boolean().describe('Served by the standalone console (npm run console): its pages only, signed in with its token.'),
  })
  .describe('GET /app-config.json: what the web app needs to know of the server that serves it.')
  .register(apiContract, { id: 'WebAppConfig' });

export type SessionUserBody = z.infer<typeof sessionUserBody>;
export type ExerciseBody = z.infer<typeof exerciseBody>;
export type SequenceBody = z.infer<typeof sequenceBody>;
export type BusinessSessionBody = z.infer<typeof businessSessionBody>;
export type StatementBody = z.infer<typeof statementBody>;
export type FeedbackItemBody = z.infer<typeof feedbackItemBody>;
export type ProductionBody = z.infer<typeof productionBody>;
export type SubmissionGradedBody = z.infer<typeof submissionGradedBody>;
export type SubmissionQueuedBody = z.infer<typeof submissionQueuedBody>;
export type SessionProductionBody = z.infer<typeof sessionProductionBody>;
export type SessionReportBody = z.infer<typeof sessionReportBody>;
export type SessionProductionsBody = z.infer<typeof sessionProductionsBody>;
export type TrialReplyBody = z.infer<typeof trialReplyBody>;
export type EnrolmentsBody = z.infer<typeof enrolmentsBody>;
export type EnrolledBody = z.infer<typeof enrolledBody>;
export type LoggedOutBody = z.infer<typeof loggedOutBody>;
export type WebAppConfigBody = z.infer<typeof webAppConfigBody>;
