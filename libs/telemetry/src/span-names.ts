/**
 * Names of the spans shellgrade creates itself, and of their attributes. The trace
 * analyser (traces/) maps span names to latency components, so keep both sides in sync
 * by importing these constants rather than retyping strings.
 */
export const SPAN = {
  /** Whole Grader.grade() call (added by tracedGrader); its children are the three below. */
  grade: 'grading.grade',
  validateArchive: 'grading.validate_archive',
  prepareSandbox: 'grading.prepare_sandbox',
  gradingProcess: 'grading.process',
  storagePut: 'storage.put',
  storageGet: 'storage.get',
  brokerPublish: 'broker.publish',
  brokerConsume: 'broker.consume',
} as const;

export type SpanName = (typeof SPAN)[keyof typeof SPAN];

/** Attribute keys of our spans (namespaced under `shellgrade.`). */
export const ATTR = {
  exerciseId: 'shellgrade.exercise.id',
  productionId: 'shellgrade.production.id',
  archiveBytes: 'shellgrade.archive.bytes',
  exitCode: 'shellgrade.grading.exit_code',
  cpuTimeMs: 'shellgrade.grading.cpu_time_ms',
  grade: 'shellgrade.grading.grade',
  graderExec: 'shellgrade.grading.exec',
  storageBackend: 'shellgrade.storage.backend',
  storageKey: 'shellgrade.storage.key',
  queue: 'messaging.destination.name',
  messagingSystem: 'messaging.system',
  /** Milliseconds between publish and the start of consumption (set on broker.consume). */
  queueWaitMs: 'shellgrade.broker.queue_wait_ms',
  /** Epoch milliseconds at publish, carried in message headers to compute queue wait. */
  publishedAtMs: 'shellgrade.broker.published_at_ms',
} as const;

/** Message header carrying the publish time (epoch ms) next to traceparent. */
export const PUBLISHED_AT_HEADER = 'x-sg-published-at';

/** Attributes of a finished grading child process (set on the `grading.process` span). */
export function gradingProcessAttributes(r: { exitCode: number | null; cpuTimeMs?: number; grade?: number }) {
  return {
    [ATTR.exitCode]: r.exitCode ?? -1,
    ...(r.cpuTimeMs === undefined ? {} : { [ATTR.cpuTimeMs]: r.cpuTimeMs }),
    ...(r.grade === undefined ? {} : { [ATTR.grade]: r.grade }),
  };
}
