/**
 * The public HTTP API's operations: for each path and method, what it takes (query, JSON or
 * multipart body, from requests.ts) and what it answers (bodies.ts). openapi.ts turns this table
 * into the OpenAPI document's paths, from which the web app's typed client is generated; the
 * controllers of libs/api serve exactly these (libs/api/src/contract-routes.spec.ts holds them
 * together). A resource served under a singular and a plural path (`/api/exercise`,
 * `/api/exercises`) is written here under the one the web app calls.
 */
import { z } from 'zod';
import {
  businessSessionBody,
  enrolledBody,
  enrolmentsBody,
  exerciseBody,
  exerciseDeletedBody,
  loggedOutBody,
  productionBody,
  sequenceBody,
  sequenceDeletedBody,
  sessionDeletedBody,
  sessionProductionsBody,
  sessionReportBody,
  sessionUserBody,
  statementBody,
  statementDeletedBody,
  submissionGradedBody,
  submissionQueuedBody,
  trialReplyBody,
  unenrolledBody,
  userDeletedBody,
  webAppConfigBody,
} from './bodies';
import {
  enrolRequest,
  exercisesQuery,
  exerciseUpdateRequest,
  loginRequest,
  newExerciseRequest,
  newSequenceRequest,
  newSessionRequest,
  newStatementRequest,
  newUserRequest,
  pageQuery,
  productionsQuery,
  reportQuery,
  sequenceUpdateRequest,
  sessionUpdateRequest,
  spaSubmissionRequest,
  statementsQuery,
  statementUpdateRequest,
  submissionUpload,
  trialUpload,
  usersQuery,
  userUpdateRequest,
} from './requests';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ApiAnswer {
  description: string;
  /** The JSON body: a registered body, or an array of one. */
  json?: z.ZodType;
  /** Also answers text/csv (a report's ?format=csv). */
  csv?: string;
}

export interface ApiOperation {
  summary: string;
  /** The query's fields (a z.object whose keys are the parameters). */
  query?: z.ZodObject;
  /** The JSON body: a registered request schema. */
  json?: z.ZodType;
  /** The multipart/form-data body: a registered request schema whose `file` is the archive. */
  multipart?: z.ZodType;
  /** By status code. */
  answers: Record<number, ApiAnswer>;
}

export type ApiPaths = Record<string, Partial<Record<HttpMethod, ApiOperation>>>;

/** 200 with a body (reads, updates). */
const ok = (description: string, json: z.ZodType): Record<number, ApiAnswer> => ({ 200: { description, json } });
/** 201 with the body created. */
const created = (description: string, json: z.ZodType): Record<number, ApiAnswer> => ({ 201: { description, json } });

/** The reads and writes every catalogue resource has (list, one, create, replace, update, delete). */
function resource(o: {
  name: string;
  body: z.ZodType;
  listQuery: z.ZodObject;
  listSummary: string;
  create: z.ZodType;
  update: z.ZodType;
  deleted: z.ZodType;
  deleteSummary: string;
  createSummary?: string;
  updateSummary?: string;
}): { collection: Partial<Record<HttpMethod, ApiOperation>>; one: Partial<Record<HttpMethod, ApiOperation>> } {
  const update: ApiOperation = { summary: o.updateSummary ?? `Update ${o.name} (staff)`, json: o.update, answers: ok(`the ${o.name} as updated`, o.body) };
  return {
    collection: {
      get: { summary: o.listSummary, query: o.listQuery, answers: ok(`a page of ${o.name}s`, z.array(o.body)) },
      post: { summary: o.createSummary ?? `Create ${o.name} (staff)`, json: o.create, answers: created(`the ${o.name} created`, o.body) },
    },
    one: {
      get: { summary: `One ${o.name}`, answers: ok(`the ${o.name}`, o.body) },
      put: { ...update, summary: `${update.summary}: the same as PATCH` },
      patch: update,
      delete: { summary: o.deleteSummary, answers: ok(`the ${o.name} is deleted`, o.deleted) },
    },
  };
}

const users = resource({
  name: 'account',
  body: sessionUserBody,
  listQuery: usersQuery,
  listSummary: 'Users (staff: all, filtered by role; a student: itself)',
  create: newUserRequest,
  createSummary: 'Create an account (admin)',
  update: userUpdateRequest,
  updateSummary: 'Update an account (admin: any field; a user: own names, and own password with current_password). A new password ends the other sessions.',
  deleted: userDeletedBody,
  deleteSummary: 'Delete an account (admin)',
});
const exercises = resource({
  name: 'exercise',
  body: exerciseBody,
  listQuery: exercisesQuery,
  listSummary: 'Exercises without archives (students: published only)',
  create: newExerciseRequest,
  update: exerciseUpdateRequest,
  deleted: exerciseDeletedBody,
  deleteSummary: 'Delete an exercise (409 once students have statements or productions for it)',
});
const sequences = resource({
  name: 'sequence',
  body: sequenceBody,
  listQuery: pageQuery,
  listSummary: 'Sequences of exercises',
  create: newSequenceRequest,
  update: sequenceUpdateRequest,
  deleted: sequenceDeletedBody,
  deleteSummary: 'Delete a sequence (staff)',
});
const sessions = resource({
  name: 'business session',
  body: businessSessionBody,
  listQuery: pageQuery,
  listSummary: 'Business sessions (students: those they are enrolled in)',
  create: newSessionRequest,
  createSummary: 'Create a session; the enrolment key (generated when omitted) is shown in this answer only',
  update: sessionUpdateRequest,
  deleted: sessionDeletedBody,
  deleteSummary: 'Delete a session (409 while it has student statements)',
});
const statements = resource({
  name: 'student statement',
  body: statementBody,
  listQuery: statementsQuery,
  listSummary: 'Statements without archives (students: their own)',
  create: newStatementRequest,
  update: statementUpdateRequest,
  deleted: statementDeletedBody,
  deleteSummary: 'Delete a statement (409 once productions reference it)',
});

export const apiPaths = {
  '/app-config.json': {
    get: { summary: 'What the web app needs to know of the server that serves it', answers: ok('the settings', webAppConfigBody) },
  },
  '/api/user/login': {
    post: { summary: 'Log in: sets httpOnly access_token and refresh_token cookies', json: loginRequest, answers: ok('the account logged in', sessionUserBody) },
  },
  '/api/auth/verify': {
    get: {
      summary: 'Rotates the refresh token (cookie or bearer) and sets a fresh access token; a reused refresh token revokes its login',
      answers: ok('the account still logged in', sessionUserBody),
    },
  },
  '/api/user/logout': {
    delete: { summary: 'Revokes this session (every replica) and clears the cookies', answers: ok('logged out', loggedOutBody) },
  },
  '/api/users': users.collection,
  '/api/users/me': { get: { summary: 'The account logged in', answers: ok('the account', sessionUserBody) } },
  '/api/users/{id}': users.one,
  '/api/exercise': exercises.collection,
  '/api/exercise/{id}': exercises.one,
  '/api/sequence': sequences.collection,
  '/api/sequence/{id}': sequences.one,
  '/api/business-session': sessions.collection,
  '/api/business-session/{id}': sessions.one,
  '/api/business-session/{id}/enrolments': {
    get: { summary: 'The students enrolled (staff)', answers: ok('their ids', enrolmentsBody) },
    post: { summary: 'Student: enrol with {enrolment_key}; staff: enrol {user_ids}', json: enrolRequest, answers: ok('how many were enrolled', enrolledBody) },
  },
  '/api/business-session/{id}/enrolments/{user_id}': {
    delete: { summary: 'Unenrol a student (staff), or leave the session (the student itself)', answers: ok('unenrolled', unenrolledBody) },
  },
  '/api/business-session/{id}/report': {
    get: {
      summary: 'Results of a session (grade distribution, per-exercise pass rates, per-student progress); ?format=csv for the per-student CSV',
      query: reportQuery,
      answers: { 200: { description: "the session's results", json: sessionReportBody, csv: 'one line per student (?format=csv)' } },
    },
  },
  '/api/student-statement': statements.collection,
  '/api/student-statement/{id}': statements.one,
  '/api/exercise-production': {
    get: { summary: 'Productions, newest first (staff: all, filterable; students: their own)', query: productionsQuery, answers: ok('a page of productions', z.array(productionBody)) },
    post: {
      summary: 'Student production submission (SPS): store, grade, answer with the feedback',
      json: spaSubmissionRequest,
      multipart: submissionUpload,
      answers: {
        201: { description: 'graded before the reply (sync variants)', json: submissionGradedBody },
        202: { description: 'stored, graded later (async variants): poll GET /api/exercise-production/{ep_id}', json: submissionQueuedBody },
      },
    },
  },
  '/api/exercise-production/{ep_id}': {
    get: { summary: 'One production with its status and feedback', answers: ok('the production', productionBody) },
  },
  '/api/exercise-productions/by-session/{session_id}': {
    get: { summary: 'Every production of a session (compact rows), for its report (its teacher or an admin)', answers: ok('the rows', sessionProductionsBody) },
  },
  '/api/exercise-trial': {
    post: { summary: "Run an exercise's grader on a sample archive (its author only); nothing is stored", multipart: trialUpload, answers: ok("the grader's outcome", trialReplyBody) },
  },
} satisfies ApiPaths;
