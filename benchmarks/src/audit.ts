// Zero-loss audit of one run (benchmarks/METRICS.md "Audit"): after a bounded drain (no
// production left received/queued/grading), what the platform told the client it accepted
// (SPS answered 201/202, counted by k6, ids from the SPS sample lines) must equal what the
// database kept with a final status, and for broker variants what the broker saw acked. The
// harness reads all of it from the outside: the database, RabbitMQ's management API.
import { Client } from 'pg';
import { LOOPBACK_DATABASE_URL } from '@shellgrade/variant';
import { sleep } from './shell';

const RABBITMQ_MANAGEMENT = 'http://127.0.0.1:55673';

export interface Audit {
  /** SPS the client saw accepted (201/202). */
  accepted: number;
  /** Productions in the database with a final status (graded or failed) after the drain. */
  persistedFinal: number;
  /** Of which the grader could not grade (status failed): reported, not a loss. */
  failedGrading: number;
  /**
   * Of those, not graded because their answer deadline passed before a grader was free (failure
   * reason `expired: …`): final and explicit — the client was answered 503 or had
   * already given up — never lost.
   */
  expired: number;
  /** Still received/queued/grading when the drain gave up. */
  stuck: number;
  /** Rows the client was never told were accepted (its SPS timed out or failed after the write). */
  unacknowledgedWrites: number;
  /** Broker acks during the run (RabbitMQ), null when not a broker variant or unreadable. */
  acked: number | null;
  lost: number;
  duplicated: number;
  /** Accepted productions final in the database that the broker never saw acked (a redelivery would grade them again). */
  unacked: number;
  balanced: boolean;
  /** "lost N / duplicated M" (+ details), or "balanced". */
  summary: string;
  drainS: number;
  drained: boolean;
  /** Of the stuck, left open with no client told of them and stopped with the processes (drainDecision 'untold-only'). */
  discarded: number;
}

export interface AuditInput {
  acceptedCount: number;
  /** ep_id of every accepted SPS when the sample lines carry them all; null otherwise (counts only). */
  acceptedIds: number[] | null;
  rows: { id: number; status: string; failureReason?: string | null }[];
  acked: number | null;
  drainS: number;
  drained: boolean;
  untoldBacklog?: number;
}

const FINAL = new Set(['graded', 'failed']);

/** The arithmetic of the audit, pure (benchmarks/test/audit.spec.ts). */
export function judgeAudit(input: AuditInput): Audit {
  const final = input.rows.filter((r) => FINAL.has(r.status));
  const stuck = input.rows.length - final.length;
  let lost: number;
  let duplicated: number;
  let unacknowledgedWrites: number;
  if (input.acceptedIds) {
    const finalIds = new Set(final.map((r) => r.id));
    const accepted = new Set(input.acceptedIds);
    lost = [...accepted].filter((id) => !finalIds.has(id)).length;
    // The same production acknowledged twice to the client.
    duplicated = input.acceptedIds.length - accepted.size;
    unacknowledgedWrites = input.rows.filter((r) => !accepted.has(r.id)).length;
  } else {
    lost = Math.max(0, input.acceptedCount - final.length);
    duplicated = 0;
    unacknowledgedWrites = Math.max(0, input.rows.length - input.acceptedCount);
  }
  // A broker that acked more jobs than the platform accepted graded something twice (or a stranger's job);
  // fewer acks than accepted-and-final productions leaves a job in the queue to be graded again.
  let unacked = 0;
  if (input.acked !== null) {
    duplicated += Math.max(0, input.acked - input.acceptedCount - unacknowledgedWrites);
    unacked = Math.max(0, input.acceptedCount - lost - input.acked);
  }
  const balanced = lost === 0 && duplicated === 0 && unacked === 0;
  const details = [`accepted ${input.acceptedCount}`, `persisted final ${final.length}`];
  if (input.acked !== null) details.push(`acked ${input.acked}`);
  if (unacked) details.push(`${unacked} final but never acked`);
  const discarded = input.untoldBacklog ?? 0;
  if (stuck) details.push(`${stuck} not final after a ${input.drainS.toFixed(0)} s drain${discarded ? ` (${discarded} of them no client was told of: stopped with the processes)` : ''}`);
  if (unacknowledgedWrites) details.push(`${unacknowledgedWrites} written after the client gave up`);
  const failedGrading = final.filter((r) => r.status === 'failed').length;
  const expired = final.filter((r) => r.status === 'failed' && r.failureReason?.startsWith('expired:')).length;
  if (failedGrading) details.push(`${failedGrading} failed grading${expired ? ` (${expired} expired: not graded, their client had stopped waiting)` : ''}`);
  return {
    accepted: input.acceptedCount,
    persistedFinal: final.length,
    failedGrading,
    expired,
    stuck,
    unacknowledgedWrites,
    acked: input.acked,
    lost,
    duplicated,
    unacked,
    balanced,
    summary: `${balanced ? 'balanced' : `lost ${lost} / duplicated ${duplicated}${unacked ? ` / unacked ${unacked}` : ''}`} (${details.join(', ')})`,
    drainS: input.drainS,
    drained: input.drained,
    discarded,
  };
}

async function withDb<T>(fn: (db: Client) => Promise<T>, url = process.env.DATABASE_URL ?? LOOPBACK_DATABASE_URL): Promise<T> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

export async function productionRows(): Promise<{ id: number; status: string; failureReason: string | null }[]> {
  return withDb(
    async (db) =>
      (await db.query<{ id: number; status: string; failureReason: string | null }>('SELECT id, status, failure_reason AS "failureReason" FROM exercise_productions ORDER BY id')).rows,
  );
}

/** Test hook of the audit integration test: one persisted production disappears. */
export async function deleteProduction(id: number): Promise<void> {
  await withDb((db) => db.query('DELETE FROM exercise_productions WHERE id = $1', [id]));
}

/** How a drain ends: nothing open; only work no client was told about left (discardable); out of time. */
export type DrainEnd = 'drained' | 'untold-only' | 'timeout';

export interface DrainPoll {
  /** Productions still received/queued/grading. */
  open: number;
  /** Of which the client was told were accepted (null: the told ids are not known). */
  openTold: number | null;
  elapsedS: number;
  timeoutS: number;
  /** From this many seconds on, a backlog nobody was told about ends the drain (null: never). */
  untoldAfterS: number | null;
}

/**
 * One poll of the drain, decided. A backlog of productions whose client already gave up (it was
 * never answered 201/202) is work no student waits for: after `untoldAfterS` the drain need not
 * outwait it (a blocking monolith past its capacity was seen grading such a backlog for 90–120 s).
 */
export function drainDecision(p: DrainPoll): DrainEnd | 'wait' {
  if (p.open === 0) return 'drained';
  if (p.untoldAfterS !== null && p.openTold === 0 && p.elapsedS >= p.untoldAfterS) return 'untold-only';
  return p.elapsedS >= p.timeoutS ? 'timeout' : 'wait';
}

export interface DrainResult {
  drainS: number;
  drained: boolean;
  /** Productions left open when the drain ended on 'untold-only' (the caller discards them with the processes), else 0. */
  untoldBacklog: number;
}

/**
 * Bounded drain: waits until no production is received/queued/grading, polling the database
 * once a second, at most `timeoutS`; with the told ids and `untoldAfterS`, it also ends once
 * only productions no client was told about remain.
 */
export async function drain(timeoutS: number, opts: { told?: readonly number[] | null; untoldAfterS?: number | null } = {}): Promise<DrainResult> {
  const started = Date.now();
  const told = opts.told ? new Set(opts.told) : null;
  for (;;) {
    const open = await withDb(async (db) => (await db.query<{ id: number }>("SELECT id FROM exercise_productions WHERE status NOT IN ('graded', 'failed')")).rows.map((r) => Number(r.id)));
    const drainS = (Date.now() - started) / 1000;
    const openTold = told ? open.filter((id) => told.has(id)).length : null;
    const end = drainDecision({ open: open.length, openTold, elapsedS: drainS, timeoutS, untoldAfterS: told ? (opts.untoldAfterS ?? null) : null });
    if (end !== 'wait') return { drainS, drained: end === 'drained', untoldBacklog: end === 'untold-only' ? open.length : 0 };
    await sleep(1000);
  }
}

/**
 * RabbitMQ's management API refreshes its message stats every few seconds
 * (collect_statistics_interval, 5 s by default): a reading taken right after a burst is stale.
 * Reads until two readings `settleMs` apart agree (at most `tries`), null when unreachable.
 */
export async function settledRabbitAcks(settleMs = 5500, tries = 4, read: () => Promise<number | null> = rabbitAcks): Promise<number | null> {
  let last = await read();
  for (let i = 0; i < tries && last !== null; i++) {
    await sleep(settleMs);
    const now = await read();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Cumulative acks of the RabbitMQ work queues (management API; dead-letter and amq.* queues aside), null when it is not reachable. */
export async function rabbitAcks(base = process.env.SG_RABBITMQ_MANAGEMENT_URL ?? RABBITMQ_MANAGEMENT): Promise<number | null> {
  try {
    const res = await fetch(`${base}/api/queues`, {
      headers: { authorization: `Basic ${Buffer.from('shellgrade:shellgrade').toString('base64')}` },
      signal: AbortSignal.timeout(3000),
    });
    if (!res.ok) return null;
    const queues = (await res.json()) as { name: string; message_stats?: { ack?: number } }[];
    return queues.filter((q) => !q.name.endsWith('.dead') && !q.name.startsWith('amq.')).reduce((sum, q) => sum + (q.message_stats?.ack ?? 0), 0);
  } catch {
    return null;
  }
}
