/**
 * Ports: what the domain needs from the outside world. Adapters live in other libs
 * (grading, persistence, storage, dispatch, brokers/*) and a variant's composition
 * root chooses which one is plugged in.
 */
import type { FeedbackItem } from './entities';

/** Everything a grading script receives (DESIGN §3, grading contract). */
export interface GradingJob {
  exerciseId: number;
  /** Python source of the exercise's grader. */
  graderScript: string;
  statementHtml: string;
  questionArchive: Buffer;
  submission: Buffer;
  locale: string;
}

export interface GradingResult {
  grade: number;
  comment: FeedbackItem[];
}

/** Runs one grading. Rejects with DomainError('invalid-archive' | 'too-large' | 'grading-failed'). */
export interface Grader {
  grade(job: GradingJob): Promise<GradingResult>;
}
export const GRADER = Symbol('Grader');

/** Stores submitted archives (postgres bytea or an object store). */
export interface ArchiveStore {
  put(productionId: number, bytes: Buffer): Promise<{ key: string; sha256: string }>;
  /** Verifies the stored sha256; rejects with DomainError on mismatch. */
  get(productionId: number): Promise<Buffer>;
  delete(productionId: number): Promise<void>;
}
export const ARCHIVE_STORE = Symbol('ArchiveStore');
