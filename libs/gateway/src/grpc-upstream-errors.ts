/**
 * Maps a failed Edge call (transport grpc) to the same problem+json statuses and wording the
 * HTTP hop answers: the service is named (exercise, leftover), never its address or the gRPC
 * details (the gateway logs those).
 */
import { status, type ServiceError } from '@grpc/grpc-js';
import type { UpstreamFailure } from './upstream-errors';

/**
 * null: the gateway cancelled the call because its client left; there is nobody to answer.
 * A CANCELLED the gateway did not ask for (a server shutting down, or Node reporting a dropped
 * connection as a cancel) is the service going away: answered like UNAVAILABLE, never left hanging.
 */
export function classifyGrpcError(
  err: Partial<ServiceError>,
  service: string,
  timeoutMs: number,
  maxBodyBytes: number,
  clientLeft = false,
): UpstreamFailure | null {
  const upstream = `the ${service} service`;
  if (err.code === status.CANCELLED && clientLeft) return null;
  switch (err.code) {
    case status.DEADLINE_EXCEEDED:
      return { kind: 'timeout', status: 504, detail: `${upstream} did not answer within ${timeoutMs} ms`, markDown: false };
    case status.CANCELLED: // the service cancelled it
    case status.UNAVAILABLE:
      return { kind: 'refused', status: 503, detail: `${upstream} is unavailable (not running or restarting); retry shortly`, markDown: true };
    case status.RESOURCE_EXHAUSTED:
      // The gateway refuses oversized requests itself (413), so this is an oversized answer.
      return { kind: 'other', status: 502, detail: `${upstream} answered more than the ${maxBodyBytes}-byte internal message limit`, markDown: false };
    default:
      return { kind: 'other', status: 502, detail: `${upstream} failed to answer`, markDown: false };
  }
}
