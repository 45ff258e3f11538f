export * from './archive-limits';
export { validateArchive, type ArchiveInfo, type ArchiveEntry, type ArchiveEntryType } from './validate-archive';
export * from './grader-options';
export { SandboxGrader } from './sandbox-grader';
export { gradingResultSchema, parseGradingOutput, GradingFailure, FEEDBACK_BOUNDS } from './grading-output';
export * from './catalog';
export * from './grader-python';
export { gradingLibDir, helperLibDir, catalogDir } from './assets';
