/**
 * Latency components and the rule mapping a span on the critical path to one of them.
 * Span names of our own spans come from @shellgrade/telemetry so both sides agree.
 */
import { SPAN } from '@shellgrade/telemetry';
import type { TraceSpan } from '@shellgrade/trace-model';

export const COMPONENTS = [
  'client/queueing',
  'gateway.queueing',
  'gateway',
  'leftover.queueing',
  'leftover',
  'exercise.queueing',
  'exercise',
  'database',
  'storage',
  'cache',
  'broker.publish',
  'broker.queue_wait',
  'broker.consume',
  'grading.prepare',
  'grading.process',
  'unexplained',
] as const;

export type Component = (typeof COMPONENTS)[number];

/**
 * Not covered by any span: inferred (the client's wait around the root span) or unexplained.
 * Coverage is the share of the client-observed latency outside these.
 */
export const UNCOVERED: ReadonlySet<Component> = new Set<Component>(['client/queueing', 'unexplained']);

const QUEUEING_BEFORE: Partial<Record<Component, Component>> = {
  gateway: 'gateway.queueing',
  leftover: 'leftover.queueing',
  exercise: 'exercise.queueing',
};

/**
 * A caller's client span waiting for a downstream service that has not started (or has
 * finished) its server span: that wait is queueing before the downstream service (its accept
 * queue, its event loop), not the caller's work. Null when the downstream is no service.
 */
export function queueingBefore(downstream: Component): Component | null {
  return QUEUEING_BEFORE[downstream] ?? null;
}

export const QUEUE_WAIT_SPAN = 'broker.queue_wait';

/** Components whose generic children (pg, redis, http client) are counted as the parent's. */
const ABSORBING: ReadonlySet<Component> = new Set<Component>(['storage', 'broker.publish']);

const SERVICE_COMPONENT: Record<string, Component> = {
  'shellgrade-gateway': 'gateway',
  'shellgrade-leftover': 'leftover',
  'shellgrade-exercise': 'exercise',
  // In the monolith the SPS handler is the exercise module's code.
  'shellgrade-monolith': 'exercise',
};

const GRADING_PREPARE: ReadonlySet<string> = new Set([SPAN.grade, SPAN.validateArchive, SPAN.prepareSandbox]);

function dbSystem(span: TraceSpan): string | undefined {
  const v = span.tags['db.system.name'] ?? span.tags['db.system'];
  return typeof v === 'string' ? v : undefined;
}

/** One statement sent to PostgreSQL (instrumentation-pg's query span; its connect spans are not round trips of a statement). */
export function isDatabaseStatement(span: TraceSpan): boolean {
  return span.kind === 'client' && (dbSystem(span) === 'postgresql' || span.name.startsWith('pg.query')) && !/connect/i.test(span.name);
}

export function isProducer(span: TraceSpan): boolean {
  return span.kind === 'producer' || span.name === SPAN.brokerPublish;
}

export function isConsumer(span: TraceSpan): boolean {
  return span.kind === 'consumer' || span.name === SPAN.brokerConsume;
}

/** Component of `span`, given the component of its parent on the critical path. */
export function componentOf(span: TraceSpan, parent: Component | undefined): Component {
  if (span.synthetic && span.name === QUEUE_WAIT_SPAN) return 'broker.queue_wait';
  if (span.name === SPAN.gradingProcess) return 'grading.process';
  if (GRADING_PREPARE.has(span.name)) return 'grading.prepare';
  if (span.name === SPAN.storagePut || span.name === SPAN.storageGet) return 'storage';
  if (isProducer(span)) return 'broker.publish';
  if (isConsumer(span)) return 'broker.consume';
  if (parent !== undefined && ABSORBING.has(parent)) return parent;
  const db = dbSystem(span);
  if (db === 'postgresql' || span.name.startsWith('pg.') || span.name.startsWith('pg-pool.')) return 'database';
  if (db === 'redis') return 'cache';
  return SERVICE_COMPONENT[span.service] ?? 'unexplained';
}
