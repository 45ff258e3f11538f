// e2e-variants: naked-mon, mon-x2, msa-1-2-sweep-fast, msa-zygote-1-2-sweep-fast, msa-rabbitmq-1-2, msa-pipeline-1-2, msa-grpc-1-2-sweep-fast, mon-redis, msa-1-1, msa-2-2-2, msa-grpc-1-1, msa-grpc-2-4-4, mon-x2-sweep-fast
/**
 * The same scenario R passes on every topology, and killing a replica under light
 * load loses no submission that was acknowledged with 201, and a request cut mid-flight leaves
 * nothing or one final production, never a stuck one (pm2 brings the process back).
 * Real processes via the launcher, real PostgreSQL, real HAProxy, real sandboxed grader.
 *
 * `npm test` runs both tests on one preset per code path (CI stays short; a second preset of a
 * path exercises no new code); the full matrix, the same assertions on every preset below, is
 * `npm run test:variant-matrix` (SG_VARIANT_MATRIX=full).
 *
 * A preset whose kill -9 test runs is brought up as `<preset>-sweep-fast`: as shipped but for a
 * 5 s grader timeout and a sweep every second (interruptedGradings.sweepEveryMs). A production the
 * killed replica held is regraded by that sweep once stale, 3 × the grader's timeout + 30 s after
 * it started (libs/dispatch interrupted-gradings.ts): 45-46 s instead of 60-75 s, three times a
 * suite. The same sweep and the same audit; a good answer grades in well under a second.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { loadSamples } from '@shellgrade/grading';
import { loadConnections, loadVariant } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { BrowserSession, spaSubmission } from './support/http-client';
import { runScenarioR, type SeededUser } from './support/scenario-r';
import { seed, variantStatus, variantUp } from './support/stack';
// The audit is the broker tests' one: counted from what the client was told.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { accountFor } from '../libs/dispatch/test/support/accounting';

jest.setTimeout(600_000);

const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 2 });
const paper = loadSamples('paper-scripts');
let users: SeededUser[];

beforeAll(async () => {
  await variantUp('naked-mon');
  users = await seed(SCENARIO_USERS + KILL_CLIENTS * killed.length);
});
afterAll(() => db.end());

/**
 * Submits from `clients` sessions, each request with its own Idempotency-Key, until `rounds`
 * requests per client were answered or cut; `midway` runs once half of them went out (an
 * event, not a duration). Returns what the client was told: the ep_ids answered 201, and the
 * keys of every other request (cut or refused: their outcome is unknown to the client).
 */
async function submitUnderLoad(entry: string, clients: SeededUser[], rounds: number, midway: () => void) {
  const accepted: number[] = [];
  const unknown: { userId: number; key: string; status: number; reason: string }[] = [];
  const sessions = await Promise.all(
    clients.map(async (u) => {
      const s = new BrowserSession(entry);
      const login = await s.request('POST', '/api/user/login', { email: u.email, password: u.password });
      expect(login.status).toBe(200);
      return { s, u };
    }),
  );
  let sent = 0;
  const half = (rounds * clients.length) / 2;
  await Promise.all(
    sessions.map(async ({ s, u }) => {
      for (let i = 0; i < rounds; i++) {
        const key = randomUUID();
        if (++sent === Math.floor(half)) midway();
        try {
          const r = await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, paper.good), { 'Idempotency-Key': key });
          if (r.status === 201) accepted.push((r.body as { ep_id: number }).ep_id);
          else unknown.push({ userId: u.userId, key, status: r.status, reason: String((r.body as { detail?: string })?.detail) });
        } catch (error) {
          // connection reset by the killed process
          unknown.push({ userId: u.userId, key, status: 0, reason: String((error as Error).cause ?? error) });
        }
      }
    }),
  );
  return { accepted, unknown };
}

/** Polls until none of `ids` / `keys` is still being graded (bounded by a number of polls, not a duration). */
async function settle(ids: number[], keys: string[]): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM exercise_productions WHERE (id = ANY($1) OR submission_key = ANY($2)) AND status NOT IN ('graded', 'failed')",
      [ids, keys],
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function waitHealthy(name: string, minRestarts: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const p = (await variantStatus()).processes.find((x) => x.name === name);
    if (p && p.status === 'online' && p.restarts >= minRestarts) {
      const res = await fetch(`http://127.0.0.1:${p.port}/health`).catch(() => null);
      if (res?.ok) return;
    }
    if (Date.now() > until) throw new Error(`${name} did not come back healthy`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface Preset {
  variant: string;
  /** The code path only this preset covers in `npm test`; undefined: the full matrix only, and why. */
  path?: string;
  /** The replica killed by the kill -9 test, on the presets that have one. */
  victim?: string;
  /** The kill -9 test runs in `npm test` (it covers a code path of its own). */
  killInSuite?: boolean;
}

const PRESETS: Preset[] = [
  { variant: 'naked-mon', path: 'the monolith reached directly, grading inline' },
  // Matrix only: the same monolith; its read-path cache (libs/cache) is covered in npm test by cache.e2e.ts on msa-redis-1-2.
  { variant: 'mon-redis' },
  // Its kill -9 is matrix only: a monolith killed mid-request (the client cut, the audit of cut
  // requests) is run-integrity.e2e.ts's test on naked-mon; HAProxy cannot retry a request already sent.
  { variant: 'mon-x2', path: 'monolith replicas behind HAProxy, one session across replicas', victim: 'sg-monolith-1' },
  // Matrix only: msa-1-2 without its internal balancer; cpu-profile.e2e.ts runs the smoke load on it.
  { variant: 'msa-1-1' },
  { variant: 'msa-1-2', path: 'REST microservices: the gateway to an Exercise MS behind HAProxy, which loses its upstream when killed', victim: 'sg-exercise-1', killInSuite: true },
  // gateway.engine haproxy: HAProxy routes by the route table straight to the replicas (no Node gateway), and loses one when killed.
  { variant: 'msa-zygote-1-2', path: 'HAProxy as the gateway, routing to the Exercise MS replicas', victim: 'sg-exercise-1', killInSuite: true },
  // Matrix only: the same REST hops as msa-1-2, with one more balancer (replicated gateways).
  { variant: 'msa-2-2-2' },
  { variant: 'msa-rabbitmq-1-2', path: 'grading jobs dispatched through RabbitMQ' },
  // paper 003: pipes and filters, against its baseline msa-rabbitmq-1-2
  { variant: 'msa-pipeline-1-2', path: 'pipes and filters: three consumers chained by RabbitMQ queues' },
  // paper 002: REST to the gateway, gRPC behind it. Matrix only: the single-replica and the largest wiring of the same channel code.
  { variant: 'msa-grpc-1-1' },
  { variant: 'msa-grpc-1-2', path: "gRPC hops, balanced by the gateway's channel, which loses a subchannel when killed", victim: 'sg-exercise-1', killInSuite: true },
  { variant: 'msa-grpc-2-4-4' },
];

/** The preset with the sweep that rescues a killed replica's productions made prompt, as a spec file named `<preset>-sweep-fast`. */
function fastSweepSpecFile(preset: string): string {
  const { name: _name, paper: _paper, ...spec } = loadVariant(preset);
  const file = join(mkdtempSync(join(tmpdir(), 'sg-variants-e2e-')), `${preset}-sweep-fast.yaml`);
  const fast = {
    ...spec,
    description: `${preset} with a 5 s grader timeout and a sweep of interrupted gradings every second`,
    grader: { ...spec.grader, timeoutMs: 5_000 },
    interruptedGradings: { ...spec.interruptedGradings, sweepEveryMs: 1_000 },
  };
  writeFileSync(file, stringify(fast));
  return file;
}

const fullMatrix = process.env.SG_VARIANT_MATRIX === 'full';
if (process.env.SG_VARIANT_MATRIX !== undefined && !fullMatrix) throw new Error(`SG_VARIANT_MATRIX=${process.env.SG_VARIANT_MATRIX}: only "full" is known`);
// npm test: the presets with a code path of their own, in the order of the file header.
const presets = fullMatrix ? PRESETS : PRESETS.filter((p) => p.path);
// The kill tests run in this order; each submits from students of its own. The per-student
// submission window (Redis counters, 30 a minute) outlives a variant: sharing students, three
// kill tests that store no cut request finish within a minute and the third is refused 429.
const killed = presets.filter((p) => p.victim && (fullMatrix || p.killInSuite));
const SCENARIO_USERS = 6;
const KILL_CLIENTS = 4;

// Both tests of a preset run while it is up: one `variant up` per preset.
describe.each(presets.map((p) => [p.variant, p] as const))('%s', (variant, preset) => {
  const victim = preset.victim;
  const killSlot = killed.indexOf(preset);
  const killRuns = killSlot >= 0;
  let specFile: string | undefined;
  const up = () => variantUp(killRuns ? (specFile ??= fastSweepSpecFile(variant)) : variant);

  it('scenario R passes for 6 users concurrently with the expected statuses and stored grades', async () => {
    const { entry } = await up();
    const outcomes = await Promise.all(users.slice(0, SCENARIO_USERS).map((u) => runScenarioR(entry, u, paper.good)));
    for (const o of outcomes) {
      expect(o.statuses).toEqual([200, 200, 201, 200, 401]);
      const { rows } = await db.query('SELECT status, grade FROM exercise_productions WHERE id = $1', [o.epId]);
      expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
    }
  });

  if (!victim || !killRuns) return;
  it(`kill -9 of ${victim}: loses no acknowledged submission, leaves no cut one stuck, and ${victim} comes back`, async () => {
    const { entry, processes } = await up();
    const target = processes.find((p) => p.name === victim);
    expect(target).toBeDefined();
    const restartsBefore = target!.restarts;
    const clients = users.slice(SCENARIO_USERS + KILL_CLIENTS * killSlot, SCENARIO_USERS + KILL_CLIENTS * (killSlot + 1));
    const firstId = (await db.query('SELECT coalesce(max(id), 0)::int AS n FROM exercise_productions')).rows[0].n as number;
    const { accepted, unknown } = await submitUnderLoad(entry, clients, 12, () => process.kill(target!.pid, 'SIGKILL'));
    console.log(`${variant}: killed ${victim}; ${accepted.length} acknowledged with 201, other outcomes: ${JSON.stringify(unknown.map((u) => `${u.status} ${u.reason}`))}`);
    expect(accepted.length).toBeGreaterThan(5);
    // Shown whole when it fails: which status, and the reason the client was given.
    expect(unknown.filter((u) => ![0, 502, 503].includes(u.status))).toEqual([]);

    // After recovery, against what the client was told: every 201 graded 100; a cut or refused
    // request left nothing or one final production; no row the client never asked for.
    const cutKeys = unknown.map((u) => `${u.userId}:${u.key}`);
    await settle(accepted, cutKeys);
    const { rows } = await db.query(
      'SELECT id, submission_key, status, grade FROM exercise_productions WHERE id > $1 AND user_id = ANY($2)',
      [firstId, clients.map((u) => u.userId)],
    );
    const audit = accountFor(accepted, cutKeys, rows);
    console.log(`${variant} kill -9 audit: ${JSON.stringify(audit)}`);
    expect(audit).toMatchObject({ lost: 0, unaccounted: 0, stuck: 0 });
    expect(rows.filter((r) => accepted.includes(r.id) && !(r.status === 'graded' && r.grade === 100))).toEqual([]);
    await waitHealthy(victim, restartsBefore + 1);
  });
});
