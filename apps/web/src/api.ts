/**
 * The public HTTP API as the browser uses it: same origin, httpOnly cookies (no token ever reaches
 * script or storage), problem+json errors turned into ApiError whose message is the server's
 * `detail`. An expired access cookie is renewed once through GET /api/auth/verify (the refresh
 * cookie) and the request retried.
 *
 * The /api calls go through a client generated from the contract's OpenAPI document
 * (openapi-fetch over `paths` in api-types.generated.ts, libs/api-contract): paths, parameters,
 * request bodies and answers are the contract's, so none is typed here by hand. Pages import
 * the contract's types from api-types.generated.ts (lint refuses a hand-written copy).
 */
import createClient from 'openapi-fetch';
import type {
  BusinessSession,
  Exercise,
  ExerciseUpdate,
  FeedbackItem,
  NewBusinessSession,
  NewExercise,
  NewSequence,
  NewStatement,
  NewUser,
  paths,
  Production,
  Sequence,
  SequenceUpdate,
  SessionReport,
  SessionUser,
  Statement,
  SubmissionGraded,
  SubmissionQueued,
  TrialReply,
  WebAppConfig,
} from './api-types.generated';

// The contract's bodies the pages name, as generated (not declared here).
export type { BusinessSession, Exercise, ExerciseUpdate, FeedbackItem, NewExercise, Production, Sequence, SessionReport, SessionUser, Statement, TrialReply, WebAppConfig };
/** 201 (sync variants: graded) or 202 (async variants: queued, with how many wait ahead and about how long). */
export type SubmissionReply = SubmissionGraded | SubmissionQueued;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error a refusal stands for: the problem's detail (or title) when its body is one. */
function problemError(res: Response, body: unknown): ApiError {
  if (body !== null && typeof body === 'object') {
    const problem = body as Record<string, unknown>;
    const detail = typeof problem.detail === 'string' && problem.detail ? problem.detail : typeof problem.title === 'string' ? problem.title : undefined;
    return new ApiError(res.status, detail ?? `${res.status} ${res.statusText}`, problem);
  }
  return new ApiError(res.status, `the server answered ${res.status} ${res.statusText || ''}`.trim());
}

async function errorOf(res: Response): Promise<ApiError> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return problemError(res, await res.json());
    } catch {
      // fall through: a JSON type with a broken body
    }
  }
  return problemError(res, undefined);
}

const unreachable = (error: unknown) => new ApiError(0, `the server could not be reached (${(error as Error).message})`);

let renewing: Promise<boolean> | undefined;
/** One renewal at a time, shared by the requests that found their access cookie expired. */
function renewAccess(): Promise<boolean> {
  renewing ??= fetch('/api/auth/verify', { credentials: 'same-origin' })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => (renewing = undefined));
  return renewing;
}

/** Login, verify and logout answer 401 for themselves: no renewal behind them. */
const NO_RENEWAL = new Set(['/api/user/login', '/api/auth/verify', '/api/user/logout']);

/** fetch, retried once after a renewal when the access cookie had expired. */
async function renewingFetch(request: Request): Promise<Response> {
  const retry = NO_RENEWAL.has(new URL(request.url).pathname) ? undefined : request.clone();
  const res = await fetch(request);
  if (res.status === 401 && retry && (await renewAccess())) return fetch(retry);
  return res;
}

/** The contract's client: `client.GET('/api/exercise/{id}', { params: { path: { id } } })`. */
export const client = createClient<paths>({ credentials: 'same-origin', headers: { Accept: 'application/json' }, fetch: renewingFetch });

/** The answer of a call of the client, or the ApiError it was refused with. */
async function answer<R extends { data?: unknown; error?: unknown; response: Response }>(pending: Promise<R>): Promise<Exclude<R['data'], undefined>> {
  let result: R;
  try {
    result = await pending;
  } catch (error) {
    throw unreachable(error);
  }
  if (!result.response.ok) throw problemError(result.response, result.error);
  return result.data as Exclude<R['data'], undefined>;
}

/** A multipart body as the browser sends it (the archive as its `file` part). */
function formData(fields: object): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof File) form.set(name, value, value.name);
    else form.set(name, value instanceof Blob ? value : String(value));
  }
  return form;
}

/** A report asked for as JSON (the same operation answers text/csv when asked: reportCsv). */
function json<T extends object>(body: T | string): T {
  if (typeof body === 'string') throw new ApiError(200, 'the server answered text where a JSON report was expected');
  return body;
}

/** The lists the pages show: every row (the API pages by 100 by default). */
const ALL = { limit: 1000 };

export const api = {
  login: (email: string, password: string) => answer(client.POST('/api/user/login', { body: { email, password } })),
  verify: () => answer(client.GET('/api/auth/verify')),
  logout: () => answer(client.DELETE('/api/user/logout')),
  config: () => answer(client.GET('/app-config.json')),

  sessions: () => answer(client.GET('/api/business-session', { params: { query: ALL } })),
  session: (id: number) => answer(client.GET('/api/business-session/{id}', { params: { path: { id } } })),
  createSession: (body: NewBusinessSession) => answer(client.POST('/api/business-session', { body })),
  report: (id: number) => answer(client.GET('/api/business-session/{id}/report', { params: { path: { id } } })).then(json),
  reportCsv: (id: number) =>
    answer(client.GET('/api/business-session/{id}/report', { params: { path: { id }, query: { format: 'csv' } }, parseAs: 'text', headers: { Accept: 'text/csv' } })),
  enrolled: (id: number) => answer(client.GET('/api/business-session/{id}/enrolments', { params: { path: { id } } })),
  enrol: (id: number, userIds: number[]) => answer(client.POST('/api/business-session/{id}/enrolments', { params: { path: { id } }, body: { user_ids: userIds } })),
  enrolWithKey: (id: number, key: string) => answer(client.POST('/api/business-session/{id}/enrolments', { params: { path: { id } }, body: { enrolment_key: key } })),

  sequences: () => answer(client.GET('/api/sequence', { params: { query: ALL } })),
  createSequence: (body: NewSequence) => answer(client.POST('/api/sequence', { body })),
  updateSequence: (id: number, body: SequenceUpdate) =>
    answer(client.PATCH('/api/sequence/{id}', { params: { path: { id } }, body })),

  exercises: () => answer(client.GET('/api/exercise', { params: { query: ALL } })),
  exercise: (id: number) => answer(client.GET('/api/exercise/{id}', { params: { path: { id } } })),
  createExercise: (body: NewExercise) => answer(client.POST('/api/exercise', { body })),
  updateExercise: (id: number, body: ExerciseUpdate) =>
    answer(client.PATCH('/api/exercise/{id}', { params: { path: { id } }, body })),

  statements: (query: paths['/api/student-statement']['get']['parameters']['query'] = {}) =>
    answer(client.GET('/api/student-statement', { params: { query: { ...ALL, ...query } } })),
  statement: (id: number) => answer(client.GET('/api/student-statement/{id}', { params: { path: { id } } })),
  createStatement: (body: NewStatement) => answer(client.POST('/api/student-statement', { body })),

  users: (role?: NonNullable<paths['/api/users']['get']['parameters']['query']>['role']) => answer(client.GET('/api/users', { params: { query: { ...ALL, role } } })),
  createUser: (body: NewUser) => answer(client.POST('/api/users', { body })),

  productions: (query: paths['/api/exercise-production']['get']['parameters']['query'] = {}) =>
    answer(client.GET('/api/exercise-production', { params: { query: { ...ALL, ...query } } })),
  production: (id: number) => answer(client.GET('/api/exercise-production/{ep_id}', { params: { path: { ep_id: id } } })),
  submit: (exId: number, psId: number, file: File): Promise<SubmissionReply> =>
    answer(client.POST('/api/exercise-production', { body: { ex_id: exId, ps_id: psId, file }, bodySerializer: formData })),

  /** The exercise's grader on a sample archive (its author only); nothing stored. */
  trialGrader: (exId: number, file: File) => answer(client.POST('/api/exercise-trial', { body: { ex_id: exId, file }, bodySerializer: formData })),
};

export interface RequestOptions {
  method?: string;
  body?: unknown;
}

/** A call outside the contract's paths (the console's /ops routes, /health), typed by its caller. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const init: RequestInit = { method: opts.method ?? 'GET', credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (opts.body instanceof FormData) init.body = opts.body;
  else if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  let res: Response;
  try {
    res = await renewingFetch(new Request(path, init));
  } catch (error) {
    throw unreachable(error);
  }
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
