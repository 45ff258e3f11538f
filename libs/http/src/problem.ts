/**
 * RFC 9457 problem details: the one error shape every service answers with.
 */
import type { DomainErrorKind } from '@shellgrade/domain';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'rate-limited': 429,
  'invalid-archive': 422,
  'grading-failed': 500,
  unavailable: 503,
  'upstream-timeout': 504,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function problem(status: number, detail: string, extra: Record<string, unknown> = {}): Problem {
  const title = TITLES[status] ?? 'Error';
  return {
    type: `https://shellgrade.dev/problems/${title.toLowerCase().replace(/\s+/g, '-')}`,
    title,
    status,
    detail,
    ...extra,
  };
}

/** Minimal response surface, so node's http.ServerResponse and express' Response both fit. */
export interface ProblemSink {
  statusCode: number;
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

export function sendProblem(res: ProblemSink, p: Problem, retryAfterSeconds?: number): void {
  if (res.headersSent) return;
  res.statusCode = p.status;
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.end(JSON.stringify(p));
}
