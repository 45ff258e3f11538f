/**
 * Maps a failed upstream exchange to the status and wording the client sees. The wording names
 * the service (exercise, leftover), never its internal address: the gateway logs that.
 */

export type UpstreamErrorKind = 'timeout' | 'refused' | 'reset' | 'unreachable' | 'down' | 'other';

export const UPSTREAM_TIMEOUT_CODE = 'SG_UPSTREAM_TIMEOUT';

export interface UpstreamFailure {
  kind: UpstreamErrorKind;
  status: 502 | 503 | 504;
  detail: string;
  /** The replica should be skipped for a while: nothing listens there. */
  markDown: boolean;
}

export function classifyUpstreamError(err: NodeJS.ErrnoException, service: string, timeoutMs: number): UpstreamFailure {
  const upstream = `the ${service} service`;
  switch (err.code) {
    case UPSTREAM_TIMEOUT_CODE:
      return {
        kind: 'timeout',
        status: 504,
        detail: `${upstream} did not answer within ${timeoutMs} ms`,
        markDown: false,
      };
    case 'ECONNREFUSED':
      return {
        kind: 'refused',
        status: 502,
        detail: `${upstream} is not available right now; retry shortly`,
        markDown: true,
      };
    case 'ECONNRESET':
    case 'EPIPE':
      return {
        kind: 'reset',
        status: 502,
        detail: `${upstream} closed the connection before answering`,
        markDown: false,
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return {
        kind: 'unreachable',
        status: 502,
        detail: `${upstream} is unreachable; retry shortly`,
        markDown: true,
      };
    default:
      return {
        kind: 'other',
        status: 502,
        detail: `${upstream} failed to answer`,
        markDown: false,
      };
  }
}

export function upstreamTimeoutError(timeoutMs: number): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no upstream response within ${timeoutMs} ms`);
  err.code = UPSTREAM_TIMEOUT_CODE;
  return err;
}
