import { DomainError } from '@shellgrade/domain';
import { S3Error } from 'minio';

/** Seconds a client is told to wait (Retry-After) when the object store is down. */
export const OBJECT_STORE_RETRY_AFTER_S = 5;

/** S3 error code of a failed request, if the server answered at all. */
export const s3Code = (error: unknown): string | undefined => (error instanceof S3Error ? error.code : undefined);

/**
 * Any failure talking to the object store, as the 503 the SPS caller must answer:
 * refused/reset/timed-out connections ("unreachable") and server-side refusals alike.
 */
export function objectStoreUnavailable(error: unknown, endpoint: string, operation: string, consequence = 'retry later'): DomainError {
  if (error instanceof DomainError) return error;
  const code = s3Code(error) ?? (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  const what = s3Code(error) ? 'object store refused the request' : 'object store unreachable';
  return new DomainError(
    'unavailable',
    `${what} (${operation} at ${endpoint}: ${reason}); ${consequence}`,
    { store: 'minio', operation, code: code ?? null },
    OBJECT_STORE_RETRY_AFTER_S,
  );
}
