/**
 * The public HTTP API (DESIGN §4) as the browser uses it: same origin, httpOnly cookies (no
 * token ever reaches script or storage), JSON bodies, problem+json errors turned into ApiError
 * whose message is the server's `detail`. An expired access cookie is renewed once through
 * GET /api/auth/verify (the refresh cookie) and the request retried.
 */
import type { components } from './api-types.generated';

/** A response body of the public API, as the services document it at /docs (libs/api-contract). */
type Body<Name extends keyof components['schemas']> = components['schemas'][Name];

export type SessionUser = Body<'SessionUser'>;
export type Exercise = Body<'Exercise'>;
export type Sequence = Body<'Sequence'>;
export type BusinessSession = Body<'BusinessSession'>;
export type Statement = Body<'Statement'>;
export type FeedbackItem = Body<'FeedbackItem'>;
export type Production = Body<'Production'>;
/** 201 (sync variants: graded) or 202 (async variants: queued, with how many wait ahead and about how long). */
export type SubmissionReply = Body<'SubmissionGraded'> | Body<'SubmissionQueued'>;
/** GET /api/business-session/:id/report — the session's results (paper 001's S2), computed by the server. */
export type SessionReport = Body<'SessionReport'>;

export interface AppConfig {
  maxArchiveBytes: number;
  traces: boolean;
  /** Served by the standalone console (npm run console): its pages only, signed in with the console's token. */
  standalone: boolean;
}

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

async function errorOf(res: Response): Promise<ApiError> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const body = (await res.json()) as Record<string, unknown>;
      const detail = typeof body.detail === 'string' && body.detail ? body.detail : typeof body.title === 'string' ? body.title : undefined;
      return new ApiError(res.status, detail ?? `${res.status} ${res.statusText}`, body);
    } catch {
      // fall through: a JSON type with a broken body
    }
  }
  return new ApiError(res.status, `the server answered ${res.status} ${res.statusText || ''}`.trim());
}

let renewing: Promise<boolean> | undefined;
/** One renewal at a time, shared by the requests that found their access cookie expired. */
function renewAccess(): Promise<boolean> {
  renewing ??= fetch('/api/auth/verify', { credentials: 'same-origin' })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => (renewing = undefined));
  return renewing;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Do not try the refresh cookie on 401 (login, verify, logout). */
  noRenew?: boolean;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const init: RequestInit = { method: opts.method ?? 'GET', credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (opts.body instanceof FormData) init.body = opts.body;
  else if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  let res: Response;
  try {
    res = await fetch(path, init);
    if (res.status === 401 && !opts.noRenew && (await renewAccess())) res = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, `the server could not be reached (${(error as Error).message})`);
  }
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export const api = {
  login: (email: string, password: string) => request<SessionUser>('/api/user/login', { method: 'POST', body: { email, password }, noRenew: true }),
  verify: () => request<SessionUser>('/api/auth/verify', { noRenew: true }),
  logout: () => request<unknown>('/api/user/logout', { method: 'DELETE', noRenew: true }),
  config: () => request<AppConfig>('/app-config.json'),

  sessions: () => request<BusinessSession[]>('/api/business-session?limit=1000'),
  session: (id: number) => request<BusinessSession>(`/api/business-session/${id}`),
  createSession: (body: { name: string; sequence_id: number; starts_at: string; ends_at: string; enrolment_key?: string }) =>
    request<BusinessSession>('/api/business-session', { method: 'POST', body }),
  report: (id: number) => request<SessionReport>(`/api/business-session/${id}/report`),
  reportCsv: (id: number) => request<string>(`/api/business-session/${id}/report?format=csv`),
  enrolled: (id: number) => request<{ session_id: number; user_ids: number[] }>(`/api/business-session/${id}/enrolments`),
  enrol: (id: number, userIds: number[]) => request<{ enrolled: number }>(`/api/business-session/${id}/enrolments`, { method: 'POST', body: { user_ids: userIds } }),
  enrolWithKey: (id: number, key: string) => request<{ enrolled: number }>(`/api/business-session/${id}/enrolments`, { method: 'POST', body: { enrolment_key: key } }),

  sequences: () => request<Sequence[]>('/api/sequence?limit=1000'),
  createSequence: (body: { name: string; description?: string; exercises: number[] }) => request<Sequence>('/api/sequence', { method: 'POST', body }),
  updateSequence: (id: number, body: Partial<{ name: string; exercises: number[] }>) => request<Sequence>(`/api/sequence/${id}`, { method: 'PATCH', body }),

  exercises: () => request<Exercise[]>('/api/exercise?limit=1000'),
  exercise: (id: number) => request<Exercise>(`/api/exercise/${id}`),
  createExercise: (body: Partial<Exercise>) => request<Exercise>('/api/exercise', { method: 'POST', body }),
  updateExercise: (id: number, body: Partial<Exercise>) => request<Exercise>(`/api/exercise/${id}`, { method: 'PATCH', body }),

  statements: (query = '') => request<Statement[]>(`/api/student-statement?limit=1000${query}`),
  statement: (id: number) => request<Statement>(`/api/student-statement/${id}`),
  createStatement: (body: { user_id: number; session_id: number; ex_id: number }) => request<Statement>('/api/student-statement', { method: 'POST', body }),

  users: (role?: string) => request<SessionUser[]>(`/api/users?limit=1000${role ? `&role=${role}` : ''}`),
  createUser: (body: { email: string; password: string; firstname?: string; lastname?: string; role?: string }) =>
    request<SessionUser>('/api/users', { method: 'POST', body }),

  productions: (query = '') => request<Production[]>(`/api/exercise-production?limit=1000${query}`),
  production: (id: number) => request<Production>(`/api/exercise-production/${id}`),
  submit: (exId: number, psId: number, file: File) => {
    const form = new FormData();
    form.set('ex_id', String(exId));
    form.set('ps_id', String(psId));
    form.set('file', file, file.name);
    return request<SubmissionReply>('/api/exercise-production', { method: 'POST', body: form });
  },

  /** The exercise's grader on a sample archive (its author only); nothing stored. */
  trialGrader: (exId: number, file: File) => {
    const form = new FormData();
    form.set('ex_id', String(exId));
    form.set('file', file, file.name);
    return request<TrialReply>('/api/exercise-trial', { method: 'POST', body: form });
  },

  health: () => request<Record<string, unknown>>('/health'),
};

export type TrialReply =
  | { ex_id: number; outcome: 'graded'; grade: number; comment: FeedbackItem[] }
  | { ex_id: number; outcome: 'grader-failed'; reason: string; details: Record<string, unknown>; grader_stderr: string };

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
