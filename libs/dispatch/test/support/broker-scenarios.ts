import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { DomainError, isExpired, type Grader, type GradingDispatch } from '@shellgrade/domain';
import { ATTR, withSpan } from '@shellgrade/telemetry';
import type { BrokerFixture } from './broker-fixture';
import { spawnWorker } from './child-process';
import { brokerHops, type InMemoryTracing } from './in-memory-tracing';
import { GOOD_ANSWER, slowAnswer } from './real-grader';
import { restartServer, sleep } from './servers';

/** Concurrent submissions of the load scenarios (each one a real sandboxed grading). */
export const LOAD = 24;

type Submitted = Awaited<ReturnType<BrokerFixture['submit']>>;

/** `n` concurrent submissions of `answer` (the paper's good answer unless told otherwise). */
export function submitMany(fx: BrokerFixture, dispatch: GradingDispatch, n: number, answer = GOOD_ANSWER): Promise<Submitted[]> {
  const service = fx.submissions(dispatch);
  return Promise.all(Array.from({ length: n }, () => fx.submit(service, answer)));
}

/** The ids the client was told were accepted: the only list loss is counted against. */
export const acceptedIds = (results: Submitted[]) => results.flatMap((x) => (x.production ? [x.production.id] : []));

const countProductions = async (fx: BrokerFixture, where = 'true') =>
  (await fx.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM exercise_productions WHERE ${where}`)).rows[0].n;

/** The stored status of each production, in the order of `ids` ('missing' for an id without a row). */
async function storedStatuses(fx: BrokerFixture, ids: number[]): Promise<string[]> {
  const { rows } = await fx.pool.query<{ id: number; status: string }>('SELECT id, status FROM exercise_productions WHERE id = ANY($1::int[])', [ids]);
  const byId = new Map(rows.map((r) => [r.id, r.status]));
  return ids.map((id) => byId.get(id) ?? 'missing');
}

/** Polls the database until `condition` holds (an event, not a duration); fails with `what` after `maxPolls`. */
async function until(what: string, condition: () => Promise<boolean>, maxPolls = 200): Promise<void> {
  for (let i = 0; i < maxPolls; i++) {
    if (await condition()) return;
    await sleep(100);
  }
  throw new Error(`never happened: ${what}`);
}

/** Sync: LOAD concurrent submissions answer graded; dispatching a graded production again does not regrade it. */
export async function expectSyncGradedOnce(fx: BrokerFixture, dispatch: GradingDispatch, label: string) {
  const results = await submitMany(fx, dispatch, LOAD);

  expect(results.filter((x) => x.error)).toEqual([]);
  expect(results.map((x) => x.production?.status)).toEqual(Array(LOAD).fill('graded'));
  expect(results.map((x) => x.production?.grade)).toEqual(Array(LOAD).fill(100));

  // The first production dispatched again (a duplicate delivery / job id): not regraded.
  const first = results[0].production!;
  const again = await dispatch.dispatch({ productionId: first.id });
  expect(again.status).toBe('graded');
  expect(again.gradedAt).toEqual(first.gradedAt);

  const audit = await fx.audit(`${label} sync`, acceptedIds(results));
  expect(audit).toMatchObject({ accepted: LOAD, productions: LOAD, lost: 0, unaccounted: 0, stuck: 0, graded: LOAD });
}

/**
 * Sync with a reply timeout (300 ms) shorter than the grading (an answer that sleeps 2 s):
 * the answer comes while the production is still being graded — an order of events, not a
 * duration — and the job still completes.
 */
export async function expectReplyTimeout(fx: BrokerFixture, dispatch: GradingDispatch, label: string) {
  const { production } = await fx.submit(fx.submissions(dispatch), slowAnswer(2));
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(60_000)).toBe(0);
  const audit = await fx.audit(`${label} sync-timeout`, acceptedIds([{ key: '', production }]));
  expect(audit).toMatchObject({ lost: 0, unaccounted: 0, stuck: 0, graded: 1 });
}

/**
 * Sync with a 5 s reply timeout, for a request that entered the system 4.8 s ago (queued in a
 * proxy): only the remaining 0.2 s is waited, so the answer comes before the 2 s grading ends.
 * Waiting the whole 5 s from the dispatch would answer graded.
 */
export async function expectReplyBudgetFromArrival(fx: BrokerFixture, dispatch: GradingDispatch, label: string) {
  const { production } = await fx.submit(fx.submissions(dispatch), slowAnswer(2), Date.now() - 4_800);
  expect(['queued', 'grading']).toContain(production?.status);
  expect(await fx.waitAllFinal(60_000)).toBe(0);
  const audit = await fx.audit(`${label} sync-budget`, acceptedIds([{ key: '', production }]));
  expect(audit).toMatchObject({ lost: 0, unaccounted: 0, stuck: 0, graded: 1 });
}

/** 12 sequential submissions to a bounded queue nobody consumes; the accepted and refused ones. */
export async function fillBoundedQueue(fx: BrokerFixture, dispatch: GradingDispatch, retryAfterSeconds: number) {
  const service = fx.submissions(dispatch);
  const results = [];
  for (let i = 0; i < 12; i++) results.push(await fx.submit(service, GOOD_ANSWER));
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unavailable');
    expect((error as DomainError).retryAfterSeconds).toBe(retryAfterSeconds);
  }
  return { accepted, refused, stored: await countProductions(fx) };
}

export const POISON_KEY_PREFIX = 'poison-';

/**
 * A real poison message: the database itself refuses to record that one production started
 * grading (a trigger in the test database), so every delivery fails with a plain, non-domain
 * error — what a broken dependency does — while the real grader grades all the others.
 */
export async function installPoisonTrigger(pool: Pool): Promise<void> {
  await pool.query(`
    CREATE OR REPLACE FUNCTION sg_test_poison() RETURNS trigger AS $$
    BEGIN
      RAISE EXCEPTION 'the database refuses to record the grading of production %', NEW.id;
    END $$ LANGUAGE plpgsql;
    DROP TRIGGER IF EXISTS sg_test_poison ON exercise_productions;
    CREATE TRIGGER sg_test_poison BEFORE UPDATE ON exercise_productions FOR EACH ROW
      WHEN (NEW.status = 'grading' AND NEW.submission_key LIKE '${POISON_KEY_PREFIX}%') EXECUTE FUNCTION sg_test_poison();`);
}

/** 12 submissions, the 8th of them poison (retries = 2): it alone fails, after 3 attempts. */
export async function poisonRound(fx: BrokerFixture, dispatch: GradingDispatch) {
  await installPoisonTrigger(fx.pool);
  const service = fx.submissions(dispatch);
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      fx.submit(service, GOOD_ANSWER, undefined, i === 7 ? `${POISON_KEY_PREFIX}${randomBytes(6).toString('hex')}` : undefined),
    ),
  );
  const poisoned = results[7].production!;
  expect(poisoned.status).toBe('failed');
  expect(poisoned.failureReason).toMatch(/gave up after 3 attempts.*refuses to record the grading/);
  expect(results.filter((_, i) => i !== 7).map((x) => x.production?.grade)).toEqual(Array(11).fill(100));
  return { results, poisoned };
}

export async function expectPoisonAudit(fx: BrokerFixture, label: string, results: Submitted[]) {
  const audit = await fx.audit(`${label} poison`, acceptedIds(results));
  expect(audit).toMatchObject({ accepted: 12, lost: 0, unaccounted: 0, stuck: 0, graded: 11, failed: 1 });
}

/**
 * kill -9 of a worker process (`script`, configured by `env`) holding real gradings in flight;
 * more submissions are accepted while no worker runs; a second worker process finishes the
 * queue. Counted from what the client was told: every accepted id graded, no other row, none
 * stuck. `publisher` is the (non-consuming) dispatch of the same queue; `onKilled` logs what
 * the broker saw.
 */
export async function expectKill9Recovered(
  fx: BrokerFixture,
  label: string,
  worker: { script: string; env: Record<string, string> },
  publisher: () => Promise<GradingDispatch>,
  onKilled: (grading: number) => Promise<void>,
) {
  const first = spawnWorker(worker.script, worker.env);
  let dispatch: GradingDispatch;
  let before: Submitted[];
  let grading: number;
  try {
    await first.ready;
    dispatch = await publisher();
    // Slow answers (hello.sh sleeps 1 s): the worker surely holds gradings when it dies.
    before = await submitMany(fx, dispatch, LOAD / 2, slowAnswer(1));
    expect(before.filter((x) => x.error)).toEqual([]);
    await until('the worker holds a grading in flight', async () => (await countProductions(fx, `status = 'grading'`)) > 0);
    grading = await countProductions(fx, `status = 'grading'`);
  } catch (error) {
    // A live worker would keep Jest from exiting: stop it, and show what it printed.
    await first.kill9();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nworker output:\n${first.output()}`);
  }
  await first.kill9();
  await onKilled(grading);

  // Accepted while no worker is alive: they wait in the queue.
  const during = await submitMany(fx, dispatch, LOAD / 2);
  expect(during.filter((x) => x.error)).toEqual([]);

  const second = spawnWorker(worker.script, worker.env);
  try {
    await second.ready;
    expect(await fx.waitAllFinal(120_000)).toBe(0);
  } finally {
    await second.stop();
  }
  const results = [...before, ...during];
  const audit = await fx.audit(`${label} kill-9`, acceptedIds(results));
  expect(audit).toMatchObject({ accepted: LOAD, productions: LOAD, lost: 0, unaccounted: 0, stuck: 0, graded: LOAD });
  expect(results.map((x) => x.production!.id).length).toBe(LOAD);
}

/**
 * Sync submissions while the broker server restarts: half before (restart once ≥ 4 are not
 * final), half while it goes down and comes back. Refusals may only be 503s; every accepted
 * submission answers graded.
 */
export async function submitAcrossRestart(
  fx: BrokerFixture,
  label: string,
  dispatch: GradingDispatch,
  server: 'rabbitmq' | 'redis',
  pauseMs: number,
) {
  const service = fx.submissions(dispatch);
  const firstHalf = Promise.all(Array.from({ length: LOAD / 2 }, () => fx.submit(service, GOOD_ANSWER)));
  // Restart once jobs are queued and in flight.
  const notFinal = () => countProductions(fx, `status NOT IN ('graded', 'failed')`);
  await until('4 productions in flight', async () => (await notFinal()) >= 4);
  const pendingAtRestart = await notFinal();
  const restart = restartServer(server);
  await sleep(pauseMs);
  // The second half is submitted while the broker is going down / coming back.
  const secondHalf = Promise.all(Array.from({ length: LOAD / 2 }, () => fx.submit(service, GOOD_ANSWER)));
  const restartMs = await restart;
  const results = [...(await firstHalf), ...(await secondHalf)];
  const accepted = results.filter((x) => x.production);
  const refused = results.filter((x) => x.error);
  for (const { error } of refused) expect((error as DomainError).kind).toBe('unavailable');
  expect(accepted.map((x) => x.production?.status)).toEqual(accepted.map(() => 'graded'));
  console.log(
    `${label} restart: took ${restartMs} ms; ${pendingAtRestart} productions not final when it began; accepted=${accepted.length} refused(503)=${refused.length}`,
  );

  expect(await fx.waitAllFinal(90_000)).toBe(0);
  // A refusal whose publish the broker did not confirm keeps its row, made final as failed (the
  // message may still arrive: libs/dispatch refusal.ts) — never graded, never left waiting. Any
  // other row beyond the accepted ones is unaccounted.
  const refusedKeys = refused.map((x) => x.key);
  const audit = await fx.audit(`${label} restart`, acceptedIds(accepted), refusedKeys);
  expect(audit).toMatchObject({ lost: 0, unaccounted: 0, stuck: 0 });
  // The answers said graded: every accepted row must end graded too, not failed behind the student's back.
  const ids = acceptedIds(accepted);
  expect(await storedStatuses(fx, ids)).toEqual(ids.map(() => 'graded'));
  const quoted = refusedKeys.map((k) => `'${k.replace(/'/g, "''")}'`).join(',') || "''";
  expect(await countProductions(fx, `submission_key IN (${quoted}) AND status <> 'failed'`)).toBe(0);
  expect(accepted.length).toBeGreaterThan(LOAD / 2);
  return { accepted, audit };
}

/** One traced SPS: sps → broker.publish → broker.consume (child, with queue wait), `system` on the consume span. */
export async function expectOneTrace(fx: BrokerFixture, tracing: InMemoryTracing, dispatch: GradingDispatch, system: string) {
  const service = fx.submissions(dispatch);
  const production = await withSpan('test.sps', {}, () =>
    service.submit({ ...fx.seeded, archive: GOOD_ANSWER, submissionKey: randomBytes(8).toString('hex') }),
  );
  expect(production.status).toBe('graded');

  const { root, publish, consume } = brokerHops(tracing.spans(), 'test.sps');
  expect(root).toBeDefined();
  expect(publish?.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
  expect(consume?.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
  expect(consume?.attributes['messaging.system']).toBe(system);
  expect(consume?.attributes[ATTR.productionId]).toBe(production.id);
  const wait = consume?.attributes[ATTR.queueWaitMs];
  expect(typeof wait).toBe('number');
  console.log(`${system} trace: queue wait ${String(wait)} ms, consume ${consume!.duration[1] / 1e6} ms`);
}

/** How far ahead of now a late submission's answer deadline is when it is published: the queue then outlives it. */
const DEADLINE_AHEAD_MS = 300;

/**
 * On the real broker and the real grader: a sync submission whose answer
 * deadline (arrival + `answerBudgetMs`) passes while it waits in a queue nobody consumes is not
 * graded once a worker takes it — it ends failed `expired: …`, the requester still waiting is
 * told so (its reply), and the grader never saw it — while a submission in time, after it, is
 * graded by the same worker. `startWorker` starts consuming with the (counting) grader it is given.
 */
export async function expectExpiredBeforeWorker(
  fx: BrokerFixture,
  dispatch: GradingDispatch,
  answerBudgetMs: number,
  grader: Grader,
  startWorker: (grader: Grader) => Promise<void>,
  label: string,
) {
  const service = fx.submissions(dispatch);
  const receivedAt = Date.now() - answerBudgetMs + DEADLINE_AHEAD_MS;
  const late = fx.submit(service, GOOD_ANSWER, receivedAt);
  // Queued, then past its deadline, before any worker exists.
  await until('the late submission queued', async () => (await fx.productions.findById(await onlyProductionId(fx)))?.status === 'queued');
  await until('its answer deadline passed', async () => Date.now() > receivedAt + answerBudgetMs, 2 + DEADLINE_AHEAD_MS / 100);

  const graded: (number | undefined)[] = [];
  const counting: Grader = {
    grade: (job) => {
      graded.push(job.productionId);
      return grader.grade(job);
    },
  };
  await startWorker(counting);
  const told = await late;
  expect(told.production).toMatchObject({ status: 'failed' });
  expect(told.production?.failureReason).toMatch(/^expired: /);
  expect(isExpired(told.production!)).toBe(true);

  const inTime = await fx.submit(service, GOOD_ANSWER, Date.now());
  expect(inTime.production).toMatchObject({ status: 'graded', grade: 100 });
  expect(graded).toEqual([inTime.production!.id]);
  const audit = await fx.audit(`${label} expired`, acceptedIds([told, inTime]));
  expect(audit).toMatchObject({ lost: 0, unaccounted: 0, stuck: 0, graded: 1, failed: 1 });
}

async function onlyProductionId(fx: BrokerFixture): Promise<number> {
  const { rows } = await fx.pool.query<{ id: number }>('SELECT id FROM exercise_productions ORDER BY id');
  return rows[0]?.id ?? -1;
}
