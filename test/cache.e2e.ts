// e2e-variants: msa-redis-1-2
/**
 * Paper 001: the Redis read-path cache done properly, over real HTTP on
 * msa-redis-1-2 (two Exercise replicas sharing one Redis, the Leftover writing beside them).
 * A write through one process is seen by the next submission through any other replica — the
 * cache is used (its hit counter moves) and never answers stale; `variant up` starts cold
 * unless told --keep-cache.
 */
import { Redis } from 'ioredis';
import { loadSamples } from '@shellgrade/grading';
import { loadConnections } from '@shellgrade/variant';
import { spaSubmission, type BrowserSession } from './support/http-client';
import { metricValue } from './support/metrics';
import type { SeededUser } from './support/scenario-r';
import { freshSession, loggedIn } from './support/sessions';
import { seed, variantUp, type VariantStatus } from './support/stack';

jest.setTimeout(600_000);

const paper = loadSamples('paper-scripts');
const redis = new Redis(loadConnections().REDIS_URL);
let users: SeededUser[];
let status: VariantStatus;

beforeAll(async () => {
  status = await variantUp('msa-redis-1-2');
  users = await seed(12);
});
afterAll(() => redis.quit());

const replicaUrl = (name: string) => {
  const p = status.processes.find((x) => x.name === name);
  if (!p) throw new Error(`${name} is not part of ${status.variant}`);
  return `http://127.0.0.1:${p.port}`;
};

/** A counter of one replica's /metrics; 0 before its first increment (prom-client shows no labelled series yet). */
const counter = async (baseUrl: string, series: string): Promise<number> => (await metricValue(baseUrl, series)) ?? 0;
const HITS = 'shellgrade_cache_requests_total{result="hit"}';
const REPORT_HITS = 'shellgrade_report_cache_requests_total{result="hit"}';
const REPORT_MISSES = 'shellgrade_report_cache_requests_total{result="miss"}';
const STATEMENT_INVALIDATIONS = 'shellgrade_cache_invalidations_total{what="statement"}';

const cachedKeys = async () => (await redis.keys('sg:ctx:*')).length;

describe('the read-path cache on msa-redis-1-2', () => {
  let ex0: string;
  let ex1: string;
  let leftover: string;
  let teacher: BrowserSession;
  beforeAll(async () => {
    [ex0, ex1, leftover] = ['sg-exercise-0', 'sg-exercise-1', 'sg-leftover-0'].map(replicaUrl);
    teacher = await loggedIn(status.entry, 'teacher1@shellgrade.test', 'teacher-password');
  });

  const submit = (s: BrowserSession, u: SeededUser, psId: number) => s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, psId, paper.good));

  it('an unenrolment through the leftover is seen at once by the submission through either exercise replica', async () => {
    const u = users[6]!;
    const { sessionId, statements } = await freshSession(teacher, [u]);
    const psId = statements.get(u.userId)!;
    const student = await loggedIn(status.entry, u.email, u.password);

    // Fill through replica 0, hit through replica 1: one shared cache, and it is used.
    expect((await submit(student.at(ex0), u, psId)).status).toBe(201);
    const hitsBefore = await counter(ex1, HITS);
    expect((await submit(student.at(ex1), u, psId)).status).toBe(201);
    expect(await counter(ex1, HITS)).toBe(hitsBefore + 1);

    const invalidationsBefore = await counter(leftover, STATEMENT_INVALIDATIONS);
    expect((await student.at(leftover).request('DELETE', `/api/business-session/${sessionId}/enrolments/${u.userId}`)).status).toBe(200);
    expect(await counter(leftover, STATEMENT_INVALIDATIONS)).toBe(invalidationsBefore + 1);
    for (const replica of [ex1, ex0]) {
      const refused = await submit(student.at(replica), u, psId);
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toContain('not enrolled');
    }

    // And back: enrolled again through the gateway, accepted by both replicas.
    expect((await teacher.request('POST', `/api/business-session/${sessionId}/enrolments`, { user_ids: [u.userId] })).status).toBe(200);
    for (const replica of [ex0, ex1]) expect((await submit(student.at(replica), u, psId)).status).toBe(201);
  });

  it('a statement changed through one exercise replica is seen by the other', async () => {
    const u = users[7]!;
    const { statements } = await freshSession(teacher, [u]);
    const psId = statements.get(u.userId)!;
    const student = await loggedIn(status.entry, u.email, u.password);
    expect((await submit(student.at(ex1), u, psId)).status).toBe(201); // cached now
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await teacher.at(ex0).request('PATCH', `/api/student-statement/${psId}`, { deadline: past })).status).toBe(200);
    const refused = await submit(student.at(ex1), u, psId);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('deadline');
  });

  it('S2: a second report is answered from Redis, and a submission through an exercise replica is in the next report', async () => {
    const students = users.slice(9, 11);
    const { sessionId, statements } = await freshSession(teacher, students);
    const report = async () => {
      const r = await teacher.at(leftover).request('GET', `/api/business-session/${sessionId}/report`);
      expect(r.status).toBe(200);
      return r.body as { totals: { productions: number; graded: number } };
    };
    const [hits0, misses0] = [await counter(leftover, REPORT_HITS), await counter(leftover, REPORT_MISSES)];
    expect((await report()).totals.productions).toBe(0);
    expect((await report()).totals.productions).toBe(0);
    expect([await counter(leftover, REPORT_HITS), await counter(leftover, REPORT_MISSES)]).toEqual([hits0 + 1, misses0 + 1]);

    let told = 0;
    for (const [u, replica] of [[students[0]!, ex0], [students[1]!, ex1]] as const) {
      const student = await loggedIn(status.entry, u.email, u.password);
      const r = await submit(student.at(replica), u, statements.get(u.userId)!);
      expect(r.status).toBe(201);
      told++;
      expect((await report()).totals).toMatchObject({ productions: told, graded: told });
    }
  });

  it('variant up empties the cache; --keep-cache keeps it', async () => {
    const u = users[8]!;
    const { statements } = await freshSession(teacher, [u]);
    const student = await loggedIn(status.entry, u.email, u.password);
    expect((await submit(student, u, statements.get(u.userId)!)).status).toBe(201);
    const before = await cachedKeys();
    expect(before).toBeGreaterThan(0);
    await variantUp('msa-redis-1-2', { keepCache: true });
    expect(await cachedKeys()).toBe(before);
    await variantUp('msa-redis-1-2');
    expect(await cachedKeys()).toBe(0);
  });
});
