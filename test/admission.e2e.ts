// e2e-variants: naked-mon-admission-one
/**
 * Admission control on the real application: naked-mon-async-admission,
 * launched with a budget of one submission in flight, the real grader grading a submission whose
 * script sleeps. A second submission meanwhile is refused before anything is stored — 503
 * problem+json with Retry-After and a reason a student understands — logins still pass, and the
 * refused submission sent again with the same Idempotency-Key is graded (had the refusal stored
 * anything, the key would return that never-graded row instead).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadSamples } from '@shellgrade/grading';
import { loadVariant } from '@shellgrade/variant';
import { answerWithHello } from './support/answers';
import { BrowserSession, spaSubmission } from './support/http-client';
import { seed, variantUp } from './support/stack';
import { metricValue } from './support/metrics';
import type { SeededUser } from './support/scenario-r';

jest.setTimeout(300_000);

const paper = loadSamples('paper-scripts');
let entry: string;
let users: SeededUser[];

/** The preset with room for one submission at a time, as a spec file of its own. */
function oneAtATimeSpecFile(): string {
  const { name: _name, paper: _paper, ...spec } = loadVariant('naked-mon-async-admission');
  const file = join(mkdtempSync(join(tmpdir(), 'sg-admission-')), 'naked-mon-admission-one.yaml');
  writeFileSync(file, stringify({ ...spec, description: 'naked-mon-async-admission, one submission in flight (grader exec async)', admission: { maxSubmissionsInFlight: 1 } }));
  return file;
}

/** The paper's good answer whose hello.sh sleeps 3 s first: its grading holds the one place for a while. */
const slowAnswer = (): Promise<Buffer> => answerWithHello('sleep 3\necho "Hello World"');

async function loggedIn(u: SeededUser): Promise<BrowserSession> {
  const s = new BrowserSession(entry);
  expect((await s.request('POST', '/api/user/login', { email: u.email, password: u.password })).status).toBe(200);
  return s;
}

/** A metric of the monolith; NaN when it is not exposed (never equal to what a test waits for). */
const gauge = async (name: string): Promise<number> => (await metricValue(entry, name)) ?? Number.NaN;

/** Polls until the gauge reads `value` (an event-based wait: bounded in attempts, not timed). */
async function untilGauge(name: string, value: number): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if ((await gauge(name)) === value) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${name} never reached ${value}`);
}

beforeAll(async () => {
  entry = (await variantUp(oneAtATimeSpecFile())).entry;
  users = await seed(4);
});

describe('admission control (naked-mon-async-admission, one submission in flight)', () => {
  it('refuses a submission beyond the budget with 503 + Retry-After before storing it; logins pass; the same submission later is graded', async () => {
    const [a, b, c] = users as [SeededUser, SeededUser, SeededUser];
    const first = await loggedIn(a);
    const second = await loggedIn(b);
    const slow = first.request('POST', '/api/exercise-production', spaSubmission(a.exerciseId, a.statementId, await slowAnswer()));
    await untilGauge('shellgrade_admission_in_flight{gate="submission"}', 1);

    const key = { 'Idempotency-Key': `admission-e2e-${Date.now()}` };
    const refused = await second.request('POST', '/api/exercise-production', spaSubmission(b.exerciseId, b.statementId, paper.good), key);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const problem = refused.body as { detail: string; reason: string; in_flight: number };
    expect(problem.detail).toMatch(/grader is busy.*not saved; submit it again in \d+ s/);
    expect(problem).toMatchObject({ reason: 'overloaded', in_flight: 1 });
    expect(await gauge('shellgrade_admission_refused_total{gate="submission"}')).toBe(1);

    // Logins never wait for a place.
    await loggedIn(c);

    const graded = await slow;
    expect(graded.status).toBe(201);
    await untilGauge('shellgrade_admission_in_flight{gate="submission"}', 0);
    const again = await second.request('POST', '/api/exercise-production', spaSubmission(b.exerciseId, b.statementId, paper.good), key);
    // 201 = graded now; a row stored by the refusal would come back under the key as never graded (202).
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ ep_id: expect.any(Number), grade: expect.any(Number) });
  });
});
