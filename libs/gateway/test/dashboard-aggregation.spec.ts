/**
 * gateway.pattern aggregation: GET /api/dashboard is answered by the gateway from three reads
 * made in parallel (stub services on loopback here; the real ones in test/patterns.e2e.ts).
 */
import type { ServerResponse } from 'node:http';
import { mergeDashboard } from '../src';
import { closedPort, json, send, startGateway, startUpstream, type RunningGateway, type Upstream } from './fixtures';

const SESSIONS = [
  { session_id: 1, name: 'Unix 101', starts_at: null, ends_at: null, sequence_id: 1, teacher_id: 2 },
  { session_id: 2, name: 'Unix 102', starts_at: null, ends_at: null, sequence_id: 1, teacher_id: 2 },
];
const STATEMENTS = [
  { ps_id: 11, session_id: 1, ex_id: 5, user_id: 9, statement: '<p>ls</p>', deadline: null },
  { ps_id: 12, session_id: 1, ex_id: 6, user_id: 9, statement: '<p>grep</p>', deadline: null },
  { ps_id: 21, session_id: 2, ex_id: 5, user_id: 9, statement: '<p>ls again</p>', deadline: null },
];
const PRODUCTIONS = [
  { ep_id: 102, ex_id: 5, ps_id: 11, status: 'graded', grade: 100, created_at: '2026-11-02T00:00:00Z' },
  { ep_id: 101, ex_id: 5, ps_id: 11, status: 'graded', grade: 40, created_at: '2026-11-01T00:00:00Z' },
  { ep_id: 103, ex_id: 6, ps_id: 12, status: 'failed', grade: null, created_at: '2026-11-03T00:00:00Z' },
];

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' });
  res.end(JSON.stringify(body));
};

describe('mergeDashboard', () => {
  it('puts each statement under its session with its newest production and how many there were', () => {
    const d = mergeDashboard(SESSIONS, STATEMENTS, PRODUCTIONS);
    expect(d.partial).toBe(false);
    expect(d.sessions.map((s) => [s.session_id, s.exercises.map((e) => [e.ps_id, e.last_production?.ep_id ?? null, e.productions])])).toEqual([
      [1, [[11, 102, 2], [12, 103, 1]]],
      [2, [[21, null, 0]]],
    ]);
  });
});

describe('GET /api/dashboard at an aggregating gateway', () => {
  let leftover: Upstream;
  let exercise: Upstream;
  let gateway: RunningGateway;
  let exerciseDown = false;

  beforeAll(async () => {
    leftover = await startUpstream((req, res) => {
      if (!req.headers.cookie?.includes('access_token=good')) return reply(res, 401, { status: 401, detail: 'authentication required' });
      reply(res, 200, SESSIONS);
    });
    exercise = await startUpstream((req, res) => {
      if (exerciseDown) return reply(res, 500, { status: 500, detail: 'boom' });
      reply(res, 200, req.url.startsWith('/api/student-statements') ? STATEMENTS : PRODUCTIONS);
    });
    gateway = await startGateway({ pattern: 'aggregation', leftoverUrls: [leftover.url], exerciseUrls: [exercise.url] });
  });
  afterAll(async () => {
    await gateway.close();
    await leftover.close();
    await exercise.close();
  });
  beforeEach(() => {
    exerciseDown = false;
    leftover.requests.length = 0;
    exercise.requests.length = 0;
  });

  it('reads sessions from leftover and statements and productions from exercise, with the client credentials, and merges them', async () => {
    const res = await send(`${gateway.url}/api/dashboard`, { headers: { cookie: 'access_token=good', 'x-secret-header': 'not forwarded' } });
    expect(res.status).toBe(200);
    expect(json(res)).toEqual(mergeDashboard(SESSIONS, STATEMENTS, PRODUCTIONS));
    expect(leftover.requests.map((r) => r.url)).toEqual(['/api/business-sessions?limit=1000']);
    expect(exercise.requests.map((r) => r.url).sort()).toEqual(['/api/exercise-productions?limit=1000', '/api/student-statements?limit=1000']);
    for (const r of [...leftover.requests, ...exercise.requests]) {
      expect(r.headers.cookie).toBe('access_token=good');
      expect(r.headers['x-secret-header']).toBeUndefined();
    }
  });

  it("reads with the gateway's own X-Request-Start, never the client's", async () => {
    const before = Date.now();
    await send(`${gateway.url}/api/dashboard`, { headers: { cookie: 'access_token=good', 'X-Request-Start': 't=1795326137175' } });
    for (const r of [...leftover.requests, ...exercise.requests]) expect(Number(String(r.headers['x-request-start']).slice(2))).toBeGreaterThanOrEqual(before);
    expect(leftover.requests).toHaveLength(1);
  });

  it('relays an authentication refusal as the client answer', async () => {
    const res = await send(`${gateway.url}/api/dashboard`, { headers: { cookie: 'access_token=forged' } });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(json(res)).toMatchObject({ detail: 'authentication required' });
  });

  it('flags the page partial, naming the service, when exercise fails; the sessions are still there', async () => {
    exerciseDown = true;
    const res = await send(`${gateway.url}/api/dashboard`, { headers: { cookie: 'access_token=good' } });
    expect(res.status).toBe(200);
    const body = json<{ partial: boolean; unavailable: { service: string; status: number }[]; sessions: { exercises: unknown[] }[] }>(res);
    expect(body.partial).toBe(true);
    expect(body.unavailable).toEqual([
      { service: 'exercise', status: 502, detail: 'the exercise service answered 500: boom' },
      { service: 'exercise', status: 502, detail: 'the exercise service answered 500: boom' },
    ]);
    expect(body.sessions.map((s) => s.exercises)).toEqual([[], []]);
  });

  it('answers 502 problem+json, never a hang, when leftover is not there to list the sessions', async () => {
    const lonely = await startGateway({ pattern: 'aggregation', leftoverUrls: [`http://127.0.0.1:${await closedPort()}`], exerciseUrls: [exercise.url] });
    try {
      const res = await send(`${lonely.url}/api/dashboard`, { headers: { cookie: 'access_token=good' } });
      expect(res.status).toBe(502);
      expect(json(res)).toMatchObject({ detail: 'your sessions could not be listed: the leftover service is not available right now; retry shortly' });
    } finally {
      await lonely.close();
    }
  });

  it('is not answered by a proxy-pattern gateway: the path goes to leftover like any other', async () => {
    const proxy = await startGateway({ pattern: 'proxy', leftoverUrls: [leftover.url], exerciseUrls: [exercise.url] });
    try {
      await send(`${proxy.url}/api/dashboard`, { headers: { cookie: 'access_token=good' } });
      expect(leftover.requests.map((r) => r.url)).toEqual(['/api/dashboard']);
    } finally {
      await proxy.close();
    }
  });
});
