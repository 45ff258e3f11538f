export {
  validateArchive,
  resolveArchiveLimits,
  ARCHIVE_FORMAT_LIMITS,
  type ArchiveBounds,
  type ArchiveLimits,
  type ArchiveInfo,
  type ArchiveEntry,
  type ArchiveEntryType,
} from './validate-archive';
export * from './grader-options';
export { SandboxGrader } from './sandbox-grader';
export type { JobRunner, JobRunnerFactory, JobSlot } from './job-runner';
export type { JobSandbox } from './job-sandbox';
export { asyncJobRunner, blockingJobRunner } from './process-runner';
export { warmPoolJobRunner } from './warm-pool';
export { zygoteJobRunner } from './zygote-pool';
export { gradingResultSchema, parseGradingOutput, GradingFailure, FEEDBACK_BOUNDS } from './grading-output';
export * from './catalog';
export * from './grader-python';
export { gradingLibDir, helperLibDir, catalogDir } from './assets';
