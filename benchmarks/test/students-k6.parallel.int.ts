// The `students` behaviour run by k6 itself against a stub of the platform's HTTP contract that
// refuses the first attempt of every submission with 503 + Retry-After (as admission control
// does): the student waits, sends the same submission again under the same Idempotency-Key, and
// the refusal is counted apart, outside N and outside the KO. The same stub with the paper's
// behaviour (no retries) shows the refusal as a KO, as before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k6OptionsArgs, writeK6Options, type SpsK6Options } from '../src/k6-options';
import { k6Path } from '../src/k6-tool';
import { readPaper } from '../src/k6-run';
import { defaultArchive, spsScript } from '../src/paths';
import { run } from '../src/shell';
import { startContractStub, stopContractStub, type ContractStub, type SpsHandler } from './contract-stub';

jest.setTimeout(300_000);

const work = mkdtempSync(join(tmpdir(), 'sg-students-k6-'));
let stub: ContractStub;
/** Idempotency-Key of every SPS attempt, in arrival order ('' when absent). */
const attempts: string[] = [];
let epId = 0;

/** Refuses the first attempt of every submission (503 + Retry-After 1 s), accepts a retry under the same key. */
const refuseFirstAttempts: SpsHandler = (req, res) => {
  const key = String(req.headers['idempotency-key'] ?? '');
  const first = !attempts.includes(key) || key === '';
  attempts.push(key);
  if (first) return res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'application/problem+json' }).end('{"status":503,"detail":"the grader is busy"}');
  res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ep_id: ++epId, grade: 100 }));
};

/**
 * Per connection: a login refused (503 + Retry-After 1 s), the next accepted, alternately;
 * `refusedLogins` counts the refusals. Per connection, not per student: the two students of the
 * users file are played by several VUs at once, and alternating per student let one VU's retries
 * meet refusals meant for another's first attempts until its retries ran out (a KO). A VU sends
 * its retry on the connection that was refused (keep-alive).
 */
let refusedLogins = 0;
const refusedLast = new WeakMap<object, boolean>();
const refuseEveryOtherLogin: SpsHandler = (req, res) => {
  const refuse = loginRefusals && !refusedLast.get(req.socket);
  refusedLast.set(req.socket, refuse);
  if (!refuse) return res.writeHead(200, { 'Set-Cookie': 'access_token=t; Path=/' }).end('{}');
  refusedLogins++;
  res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'application/problem+json' }).end('{"status":503,"detail":"the server is busy"}');
};
let loginRefusals = false;

beforeAll(async () => void (stub = await startContractStub(work, refuseFirstAttempts, refuseEveryOtherLogin)));
afterAll(() => stopContractStub(stub));

// `--address ''`: no k6 REST API, whose fixed port (6565) another k6 file running beside this one would hold.
async function k6Run(name: string, overrides: Partial<SpsK6Options>) {
  const k6 = await k6Path();
  const summary = join(work, `${name}.json`);
  const options = join(work, `${name}-options.json`);
  writeK6Options(options, {
    script: 'sps', profile: 'students-smoke', baseUrl: stub.baseUrl, usersCsv: stub.usersCsv, archive: defaultArchive(),
    summaryJson: summary, summaryTxt: join(work, `${name}.txt`), logSps: false, logRequests: false, reply: 'sync', ...overrides,
  });
  const r = await run(k6, ['run', '--quiet', '--no-color', '--address', '', ...k6OptionsArgs(options), spsScript()], { allowFail: true });
  expect(r.code).toBe(0);
  return readPaper(summary);
}

it('students-smoke: each refused submission is waited out and sent again with the same key; the refusals are outside N and KO', async () => {
  attempts.length = 0;
  const paper = await k6Run('students', {});
  const keys = attempts.filter((k) => k !== '');
  expect(keys).toHaveLength(attempts.length); // every attempt carried a key
  // Each submission: one refused attempt, one accepted retry under the same key.
  expect(new Set(keys).size * 2).toBe(keys.length);
  expect(paper.feedback!.refused).toBe(keys.length / 2);
  expect(paper.sps.OK).toBe(paper.iterations.started);
  expect(paper.KO).toBe(0);
  expect(paper.N).toBe(10 * paper.iterations.started);
});

it('the paper behaviour (no retries): the refusal is the SPS outcome, a KO', async () => {
  attempts.length = 0;
  const paper = await k6Run('paper', { honourRetryAfter: false });
  expect(attempts.every((k) => k === '')).toBe(true);
  expect(paper.sps.KO).toBe(paper.iterations.started);
  expect(paper.koCauses.gateway_5xx).toBe(paper.iterations.started);
  expect(paper.feedback!.refused).toBe(0);
});

it('students-smoke: a login refused with 503 + Retry-After is waited out and sent again; the refusals are outside N and KO', async () => {
  attempts.length = 0;
  refusedLogins = 0;
  loginRefusals = true;
  try {
    const paper = await k6Run('logins', {});
    expect(refusedLogins).toBeGreaterThan(0);
    // (an iteration cut by the end of the test may take its last refusal with it)
    expect(paper.logins!.refused).toBeGreaterThan(0);
    expect(paper.logins!.refused).toBeLessThanOrEqual(refusedLogins);
    // every login that got an answer was let in after its waits; none is a KO
    expect(paper.perType.login.ok).toBeGreaterThan(0);
    expect(paper.perType.login.ko).toBe(0);
    expect(paper.KO).toBe(0);
  } finally {
    loginRefusals = false;
  }
});
