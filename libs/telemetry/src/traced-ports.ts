/**
 * Decorators adding spans to domain ports, so a composition root can trace grading and
 * storage without the adapters knowing about OpenTelemetry.
 */
import type { ArchiveStore, Grader, GradingJob, GradingResult } from '@shellgrade/domain';
import { ATTR, SPAN } from './span-names';
import { withSpan } from './with-span';

/** Wraps a Grader: one `grading.grade` span per job with exercise id and grade. */
export function tracedGrader(inner: Grader, exec = 'unknown'): Grader {
  return {
    grade: (job: GradingJob): Promise<GradingResult> =>
      withSpan(
        SPAN.grade,
        { [ATTR.exerciseId]: job.exerciseId, [ATTR.archiveBytes]: job.submission.length, [ATTR.graderExec]: exec },
        async (span) => {
          const result = await inner.grade(job);
          span.setAttribute(ATTR.grade, result.grade);
          return result;
        },
      ),
  };
}

/** Wraps an ArchiveStore: `storage.put` / `storage.get` spans (delete is not on the SPS path); keeps where the store keeps its bytes. */
export function tracedArchiveStore(inner: ArchiveStore, backend: string): ArchiveStore {
  return {
    put: (productionId, bytes) =>
      withSpan(
        SPAN.storagePut,
        { [ATTR.storageBackend]: backend, [ATTR.productionId]: productionId, [ATTR.archiveBytes]: bytes.length },
        async (span) => {
          const stored = await inner.put(productionId, bytes);
          span.setAttribute(ATTR.storageKey, stored.key);
          return stored;
        },
      ),
    get: (productionId) =>
      withSpan(SPAN.storageGet, { [ATTR.storageBackend]: backend, [ATTR.productionId]: productionId }, async (span) => {
        const bytes = await inner.get(productionId);
        span.setAttribute(ATTR.archiveBytes, bytes.length);
        return bytes;
      }),
    delete: (productionId) => inner.delete(productionId),
    // Bytes kept in the production row are written and read with it, inside its pg span.
    ...(inner.inProductionRow ? { inProductionRow: true } : {}),
  };
}
