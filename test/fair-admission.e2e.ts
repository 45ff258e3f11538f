// e2e-variants: naked-mon-zygote-window-3s, msa-zygote-1-2-window-3s
/**
 * Fair admission on the presets as shipped (admission on by default) but for the gates' window,
 * 3 s instead of 30 (admission.windowS), over the real HTTP stack, the real grader and, for
 * msa-zygote-1-2, HAProxy as the entry:
 * - one student keeping two endless submissions per grading replica in flight (one sleeping, one
 *   spinning; the grader's timeout ends them) cannot get the class refused: 20 other students
 *   submitting meanwhile are all graded, none refused, while the student's own extra submission
 *   waits behind their own (503 + Retry-After, reason tenant-busy);
 * - at the start of a class, after a quiet spell (nothing in flight, nothing completed for a whole
 *   window: the event each gate's metrics report), 20 simultaneous right-password logins all get
 *   200 (a quiet process starts open). The short window makes that wait seconds, not a minute; the
 *   event waited for is the same.
 * Every refusal the clients saw is counted from the answers they got, not from the database.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadSamples } from '@shellgrade/grading';
import { loadVariant } from '@shellgrade/variant';
import { answerWithHello } from './support/answers';
import { BrowserSession, spaSubmission, type Reply } from './support/http-client';
import { untilGatesQuiet, untilSubmissionWindowsForgotten } from './support/admission-gates';
import { resetProductions, seed, variantUp, type VariantStatus } from './support/stack';
import type { SeededUser } from './support/scenario-r';

jest.setTimeout(600_000);

const paper = loadSamples('paper-scripts');
const CLASS_SIZE = 20;

async function loggedIn(entry: string, u: SeededUser): Promise<BrowserSession> {
  const s = new BrowserSession(entry);
  const reply = await s.request('POST', '/api/user/login', { email: u.email, password: u.password });
  expect(reply.status).toBe(200);
  return s;
}

const submit = (s: BrowserSession, u: SeededUser, archive: Buffer): Promise<Reply> =>
  s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, archive));

/** The statuses of the replies, as a client tallies them: status → how many. */
function tally(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

/** Seconds of the gates' window here: a quiet spell of this long reopens them. */
const WINDOW_S = 3;

/** The preset as shipped with the gates' window shortened, as a spec file of its own (named `<preset>-window-3s`). */
function shortWindowSpecFile(preset: string): string {
  const { name: _name, paper: _paper, ...spec } = loadVariant(preset);
  const file = join(mkdtempSync(join(tmpdir(), 'sg-fair-admission-')), `${preset}-window-${WINDOW_S}s.yaml`);
  writeFileSync(file, stringify({ ...spec, description: `${preset} with a ${WINDOW_S} s admission window`, admission: { ...spec.admission, windowS: WINDOW_S } }));
  return file;
}

describe.each([
  { variant: 'naked-mon-zygote', gradingReplicas: 1 },
  { variant: 'msa-zygote-1-2', gradingReplicas: 2 },
])('fair admission on $variant as shipped (3 s window)', ({ variant, gradingReplicas }) => {
  let entry: string;
  let users: SeededUser[];
  let status: VariantStatus;
  let specFile: string;

  beforeAll(async () => {
    specFile = shortWindowSpecFile(variant);
    status = await variantUp(specFile);
    entry = status.entry;
    users = await seed(CLASS_SIZE + 1);
    await resetProductions();
  });

  it('one student with endless submissions on every grading replica cannot get the class refused', async () => {
    const [mallory, ...honest] = users as [SeededUser, ...SeededUser[]];
    const classSessions = await Promise.all(honest.map((u) => loggedIn(entry, u)));
    // The gate has measured a few honest gradings first, as it would have during a class.
    const warmUp = await Promise.all(classSessions.slice(0, 6).map((s, i) => submit(s, honest[i], paper.good)));
    expect(tally(warmUp)).toEqual({ 201: 6 });

    const attacker = await loggedIn(entry, mallory);
    const endless = [await answerWithHello('sleep 600'), await answerWithHello('while :; do :; done')];
    const stuck = Array.from({ length: 2 * gradingReplicas }, (_, i) => submit(attacker, mallory, endless[i % 2]));
    // The class meets a gate that has forgotten the warm-up (a whole window without a completion,
    // the horizon over which a decaying estimate lost it) while the attacker's work is still
    // inside, the case a decaying estimate got wrong: that event, read from every grading
    // process's gate, not a fixed pause (10 s was also the grader's timeout: the attacker's work
    // could end before the class came).
    const held = await untilSubmissionWindowsForgotten(status.processes);
    expect(held).toHaveLength(gradingReplicas);

    const graded = await Promise.all(classSessions.map((s, i) => submit(s, honest[i], paper.good)));
    expect(tally(graded)).toEqual({ 201: CLASS_SIZE });
    for (const reply of graded) expect(reply.body).toMatchObject({ grade: expect.any(Number) });

    // The attacker's own work ends at the grader's timeout; if any was refused, it was as theirs.
    for (const reply of await Promise.all(stuck)) {
      if (reply.status === 503) expect(reply.body).toMatchObject({ reason: 'tenant-busy' });
    }
  });

  it("a student's submissions beyond their share wait behind their own: 503 + Retry-After, reason tenant-busy", async () => {
    const mallory = users[0];
    const attacker = await loggedIn(entry, mallory);
    const sleeper = await answerWithHello('sleep 600');
    // Sent one after another to one replica's worth of places: more than the share of every replica.
    const sent = await Promise.all(Array.from({ length: 2 * gradingReplicas + 1 }, () => submit(attacker, mallory, sleeper)));
    const refused = sent.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.body).toMatchObject({ reason: 'tenant-busy', detail: expect.stringMatching(/of your submissions are still being graded; wait for them first/) });
    }
  });

  it('at the start of a class, after a whole window of quiet, 20 simultaneous right logins all get 200', async () => {
    // The class before has left work behind (endless submissions end at the grader's timeout):
    // quiet is every gate of every process holding nothing and having completed nothing for a
    // whole window, so each reads its ceiling as its limit and no median.
    const readings = await untilGatesQuiet(status.processes, loadVariant(specFile).admission);
    expect(readings.some((g) => g.gate === 'login')).toBe(true);
    const burst = await Promise.all(
      users.slice(1, CLASS_SIZE + 1).map((u) => new BrowserSession(entry).request('POST', '/api/user/login', { email: u.email, password: u.password })),
    );
    expect(tally(burst)).toEqual({ 200: CLASS_SIZE });
  });
});
