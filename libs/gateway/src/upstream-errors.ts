/** Maps a failed upstream exchange to the status and wording the client sees. */

export type UpstreamErrorKind = 'timeout' | 'refused' | 'reset' | 'unreachable' | 'down' | 'other';

export const UPSTREAM_TIMEOUT_CODE = 'SG_UPSTREAM_TIMEOUT';

export interface UpstreamFailure {
  kind: UpstreamErrorKind;
  status: 502 | 503 | 504;
  detail: string;
  /** The replica should be skipped for a while: nothing listens there. */
  markDown: boolean;
}

export function classifyUpstreamError(err: NodeJS.ErrnoException, upstream: string, timeoutMs: number): UpstreamFailure {
  switch (err.code) {
    case UPSTREAM_TIMEOUT_CODE:
      return {
        kind: 'timeout',
        status: 504,
        detail: `upstream ${upstream} did not answer within ${timeoutMs} ms`,
        markDown: false,
      };
    case 'ECONNREFUSED':
      return {
        kind: 'refused',
        status: 502,
        detail: `upstream ${upstream} refused the connection (not running?)`,
        markDown: true,
      };
    case 'ECONNRESET':
    case 'EPIPE':
      return {
        kind: 'reset',
        status: 502,
        detail: `upstream ${upstream} closed the connection before answering`,
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
        detail: `upstream ${upstream} is unreachable (${err.code})`,
        markDown: true,
      };
    default:
      return {
        kind: 'other',
        status: 502,
        detail: `upstream ${upstream} failed: ${err.code ?? err.message}`,
        markDown: false,
      };
  }
}

export function upstreamTimeoutError(timeoutMs: number): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no upstream response within ${timeoutMs} ms`);
  err.code = UPSTREAM_TIMEOUT_CODE;
  return err;
}
