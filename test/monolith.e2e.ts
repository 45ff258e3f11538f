// e2e-variants: naked-mon
/**
 * The monolith over real HTTP (naked-mon via the launcher, real PostgreSQL, real sandboxed
 * grader): scenario R for several users at once, then every bad input the HTTP contract refuses
 * (docs/design.md, HTTP contract and Untrusted input).
 */
import { gzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { loadSamples } from '@shellgrade/grading';
import { bodyLimitFor } from '@shellgrade/http';
import { loadConnections, loadVariant } from '@shellgrade/variant';
import { BrowserSession, FormData, spaSubmission } from './support/http-client';
import { runScenarioR, type SeededUser } from './support/scenario-r';
import { seed, variantUp } from './support/stack';

jest.setTimeout(300_000);

const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 2 });
let entry: string;
let users: SeededUser[];
const paper = loadSamples('paper-scripts');

beforeAll(async () => {
  entry = (await variantUp('naked-mon')).entry;
  users = await seed(12);
});
afterAll(() => db.end());

async function productionCount(userId: number): Promise<number> {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM exercise_productions WHERE user_id = $1', [userId]);
  return rows[0].n;
}

describe('scenario R against naked-mon', () => {
  it('passes for 8 users concurrently: 200/200/201/200/401 and the stored grade', async () => {
    const outcomes = await Promise.all(users.slice(0, 8).map((u) => runScenarioR(entry, u, paper.good)));
    for (const o of outcomes) {
      expect(o.statuses).toEqual([200, 200, 201, 200, 401]);
      expect(o.preflights.every((s) => s === 204 || s === 200)).toBe(true);
      expect(o.grade).toBe(100);
      const { rows } = await db.query('SELECT status, grade, archive_sha256 FROM exercise_productions WHERE id = $1', [o.epId]);
      expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
    }
  });

  it('grades each bad sample with its expected NOT OK items, and GET returns it', async () => {
    const s = new BrowserSession(entry);
    const u = users[8];
    expect((await s.request('POST', '/api/user/login', { email: u.email, password: u.password })).status).toBe(200);
    for (const bad of paper.bad) {
      const reply = await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, bad.bytes));
      expect(reply.status).toBe(201);
      const body = reply.body as { ep_id: number; grade: number; comment: { numQ: number; status: string }[] };
      expect(body.comment.filter((c) => c.status === 'NOT OK').map((c) => c.numQ)).toEqual(bad.expectedNotOk);
      const got = await s.request('GET', `/api/exercise-production/${body.ep_id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ ep_id: body.ep_id, status: 'graded', grade: body.grade });
    }
  });

  it('accepts the same archive as multipart/form-data', async () => {
    const s = new BrowserSession(entry);
    const u = users[9];
    await s.request('POST', '/api/user/login', { email: u.email, password: u.password });
    const form = new FormData();
    form.set('ex_id', String(u.exerciseId));
    form.set('ps_id', String(u.statementId));
    form.set('file', new Blob([paper.good]), 'answer.tgz');
    const reply = await s.request('POST', '/api/exercise-production', form);
    expect(reply.status).toBe(201);
    expect((reply.body as { grade: number }).grade).toBe(100);
  });
});

/** naked-mon's archive limit (the runtime default). */
const MAX_ARCHIVE = loadVariant('naked-mon').http.maxArchiveBytes;

describe('bad inputs get the right 4xx as problem+json and leave no row behind', () => {
  let s: BrowserSession;
  let u: SeededUser;
  beforeAll(async () => {
    u = users[10];
    s = new BrowserSession(entry);
    expect((await s.request('POST', '/api/user/login', { email: u.email, password: u.password })).status).toBe(200);
  });

  /** One ustar header block (name up to 100 bytes). */
  const headerBlock = (name: string, typeflag = '0', size = 0) => {
    const header = Buffer.alloc(512);
    header.write(name, 0);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write(typeflag, 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    return header;
  };
  const tgzOf = (...blocks: Buffer[]) => gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
  // A tar whose only entry is "../escape.sh": path traversal.
  const hostile = () => tgzOf(headerBlock('../escape.sh'));
  /** GNU tar's long-name record ('L'), as `tar czf` writes for names above 100 bytes. */
  const longNamed = (name: string) => {
    const data = Buffer.from(`${name}\0`);
    const padded = Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
    return tgzOf(headerBlock('././@LongLink', 'L', data.length), padded, headerBlock(name.slice(0, 100)));
  };

  const cases: [string, () => Promise<number>, number][] = [
    ['malformed JSON', async () => (await s.request('POST', '/api/exercise-production', '{"ex_id": 2,', { 'Content-Type': 'application/json' })).status, 400],
    ['byte map value > 255', async () => {
      const body = spaSubmission(u.exerciseId, u.statementId, paper.good) as { production_data: { data: Record<string, number> } };
      body.production_data.data['3'] = 300;
      return (await s.request('POST', '/api/exercise-production', body)).status;
    }, 400],
    ['missing ps_id', async () => (await s.request('POST', '/api/exercise-production', { ex_id: u.exerciseId, production_data: { data: [1] } })).status, 400],
    ['unknown exercise', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(999999, u.statementId, paper.good))).status, 404],
    ['unknown statement', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, 999999, paper.good))).status, 404],
    ['another student\'s statement', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(users[0].exerciseId, users[0].statementId, paper.good))).status, 404],
    ['body over the limit derived from the archive limit', async () => (await s.request('POST', '/api/exercise-production', JSON.stringify({ pad: 'x'.repeat(bodyLimitFor(MAX_ARCHIVE)) }), { 'Content-Type': 'application/json' })).status, 413],
    // An archive of exactly the limit fits the body limit in the SPA's JSON: judged as an archive (not gzip), not cut as a body.
    ['archive at the limit, not gzip', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, Buffer.alloc(MAX_ARCHIVE)))).status, 422],
    ['archive over the limit', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, Buffer.alloc(MAX_ARCHIVE + 1)))).status, 413],
    ['non-gzip archive', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, Buffer.from('not a tarball')))).status, 422],
    ['path traversal archive', async () => (await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, hostile()))).status, 422],
  ];

  it.each([
    ['an entry name longer than the file system allows', () => longNamed(`SCRIPTS/${'n'.repeat(300)}`), 'name-too-long', /limited to 255/],
    ['an unknown tar entry type', () => tgzOf(headerBlock('SCRIPTS/volume', 'V')), 'unknown-type', /unknown tar entry type/],
  ])('%s: 422 problem+json with a reason a student reads, no host path, nothing stored', async (_name, archive, reason, detail) => {
    const before = await productionCount(u.userId);
    const reply = await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, archive()));
    expect(reply.status).toBe(422);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
    expect(reply.body).toMatchObject({ status: 422, reason, detail: expect.stringMatching(detail) });
    expect(JSON.stringify(reply.body)).not.toMatch(/\/(tmp|var|root|work)\/|sandbox/);
    expect(await productionCount(u.userId)).toBe(before);
  });

  it.each(cases)('%s', async (_name, send, expected) => {
    const before = await productionCount(u.userId);
    expect(await send()).toBe(expected);
    expect(await productionCount(u.userId)).toBe(before);
  });

  it('answers 403 after the statement deadline, storing nothing', async () => {
    const late = users[11];
    await db.query("UPDATE student_statements SET deadline = now() - interval '1 hour' WHERE id = $1", [late.statementId]);
    const ls = new BrowserSession(entry);
    await ls.request('POST', '/api/user/login', { email: late.email, password: late.password });
    const before = await productionCount(late.userId);
    const reply = await ls.request('POST', '/api/exercise-production', spaSubmission(late.exerciseId, late.statementId, paper.good));
    expect(reply.status).toBe(403);
    expect(await productionCount(late.userId)).toBe(before);
  });

  it('answers 401 without a session and problem+json content type', async () => {
    const anonymous = new BrowserSession(entry);
    const reply = await anonymous.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, paper.good));
    expect(reply.status).toBe(401);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
  });
});
