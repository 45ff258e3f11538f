/** Maps a failed Edge call (transport grpc) to the same problem+json statuses the HTTP hop answers. */
import { status, type ServiceError } from '@grpc/grpc-js';
import type { UpstreamFailure } from './upstream-errors';

/** null: the call was cancelled because the client left; there is nobody to answer. */
export function classifyGrpcError(err: Partial<ServiceError>, upstream: string, timeoutMs: number, maxBodyBytes: number): UpstreamFailure | null {
  switch (err.code) {
    case status.CANCELLED:
      return null;
    case status.DEADLINE_EXCEEDED:
      return { kind: 'timeout', status: 504, detail: `upstream ${upstream} did not answer within ${timeoutMs} ms`, markDown: false };
    case status.UNAVAILABLE:
      return {
        kind: 'refused',
        status: 503,
        detail: `upstream ${upstream} is unavailable (not running or restarting); retry shortly`,
        markDown: true,
      };
    case status.RESOURCE_EXHAUSTED:
      // The gateway refuses oversized requests itself (413), so this is an oversized answer.
      return {
        kind: 'other',
        status: 502,
        detail: `upstream ${upstream} answered more than the ${maxBodyBytes}-byte internal message limit`,
        markDown: false,
      };
    default:
      return {
        kind: 'other',
        status: 502,
        detail: `upstream ${upstream} failed: ${status[err.code ?? status.UNKNOWN] ?? err.code} ${err.details ?? err.message ?? ''}`.trim(),
        markDown: false,
      };
  }
}
