/**
 * Issue 4: the same scenario R passes on every topology, and killing a replica under light
 * load loses no submission that was acknowledged with 201 (pm2 brings the process back).
 * Real processes via the launcher, real PostgreSQL, real HAProxy, real sandboxed grader.
 */
import { Pool } from 'pg';
import { loadSamples } from '@shellgrade/grading';
import { loadConnections } from '@shellgrade/variant';
import { BrowserSession, spaSubmission } from './support/http-client';
import { runScenarioR, type SeededUser } from './support/scenario-r';
import { seed, variantStatus, variantUp } from './support/stack';

jest.setTimeout(600_000);

const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 2 });
const paper = loadSamples('paper-scripts');
let users: SeededUser[];

beforeAll(() => {
  variantUp('naked-mon');
  users = seed(24);
});
afterAll(() => db.end());

describe.each(['naked-mon', 'mon-redis', 'mon-x2', 'msa-1-1', 'msa-1-2', 'msa-2-2-2', 'msa-rabbitmq-1-2'])('scenario R on %s', (variant) => {
  it('passes for 6 users concurrently with the expected statuses and stored grades', async () => {
    const { entry } = variantUp(variant);
    const outcomes = await Promise.all(users.slice(0, 6).map((u) => runScenarioR(entry, u, paper.good)));
    for (const o of outcomes) {
      expect(o.statuses).toEqual([200, 200, 201, 200, 401]);
      const { rows } = await db.query('SELECT status, grade FROM exercise_productions WHERE id = $1', [o.epId]);
      expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
    }
  });
});

/** Submits continuously from `clients` sessions until `stop()`; returns every 201's ep_id and the other statuses. */
async function submitUnderLoad(entry: string, clients: SeededUser[], durationMs: number, midway: () => void) {
  const accepted: number[] = [];
  const others: number[] = [];
  const sessions = await Promise.all(
    clients.map(async (u) => {
      const s = new BrowserSession(entry);
      const login = await s.request('POST', '/api/user/login', { email: u.email, password: u.password });
      expect(login.status).toBe(200);
      return { s, u };
    }),
  );
  const deadline = Date.now() + durationMs;
  setTimeout(midway, durationMs / 3);
  await Promise.all(
    sessions.map(async ({ s, u }) => {
      while (Date.now() < deadline) {
        try {
          const r = await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, paper.good));
          if (r.status === 201) accepted.push((r.body as { ep_id: number }).ep_id);
          else others.push(r.status);
        } catch {
          others.push(0); // connection reset by the killed process
        }
      }
    }),
  );
  return { accepted, others };
}

async function waitHealthy(name: string, minRestarts: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const p = variantStatus().processes.find((x) => x.name === name);
    if (p && p.status === 'online' && p.restarts >= minRestarts) {
      const res = await fetch(`http://127.0.0.1:${p.port}/health`).catch(() => null);
      if (res?.ok) return;
    }
    if (Date.now() > until) throw new Error(`${name} did not come back healthy`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.each([
  ['mon-x2', 'sg-monolith-1'],
  ['msa-1-2', 'sg-exercise-1'],
])('kill -9 of one replica on %s', (variant, victim) => {
  it(`loses no acknowledged submission and ${victim} comes back`, async () => {
    const { entry, processes } = variantUp(variant);
    const target = processes.find((p) => p.name === victim);
    expect(target).toBeDefined();
    const restartsBefore = target!.restarts;
    const { accepted, others } = await submitUnderLoad(entry, users.slice(12, 16), 9_000, () => process.kill(target!.pid, 'SIGKILL'));
    console.log(`${variant}: killed ${victim}; ${accepted.length} acknowledged with 201, other statuses: ${JSON.stringify(others)}`);
    expect(accepted.length).toBeGreaterThan(5);
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM exercise_productions WHERE id = ANY($1) AND status = 'graded' AND grade = 100",
      [accepted],
    );
    expect(rows[0].n).toBe(accepted.length);
    expect(others.every((s) => s === 0 || s === 502 || s === 503)).toBe(true);
    await waitHealthy(victim, restartsBefore + 1);
  });
});
