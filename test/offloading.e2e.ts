// e2e-variants: msa-offloading-1-2
/**
 * Paper 003's gateway offloading on the real application: msa-offloading-1-2 through
 * the launcher, real services, grader and PostgreSQL. Through the gateway everything works as in
 * msa-1-2 (scenario R, role and account changes still effective); straight to a service port, an
 * access token, a forged or a tampered assertion all get 401: only the gateway vouches.
 */
import jwt from 'jsonwebtoken';
import { Pool } from 'pg';
import { IDENTITY_ASSERTION_HEADER, IdentityAssertions } from '@shellgrade/auth';
import { loadSamples } from '@shellgrade/grading';
import { loadConnections } from '@shellgrade/variant';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { installationSecrets } from '../infra/src/secrets';
import { BrowserSession } from './support/http-client';
import { runScenarioR, type SeededUser } from './support/scenario-r';
import { seed, variantUp, type VariantStatus } from './support/stack';

jest.setTimeout(600_000);

const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 2 });
const paper = loadSamples('paper-scripts');
let variant: VariantStatus;
let users: SeededUser[];

beforeAll(async () => {
  variant = await variantUp('msa-offloading-1-2');
  users = await seed(4);
});
afterAll(() => db.end());

/** The leftover service's own port, behind the gateway. */
const leftoverDirect = () => `http://127.0.0.1:${variant.processes.find((p) => p.role === 'leftover')!.port}`;

async function loggedIn(u: SeededUser): Promise<{ session: BrowserSession; accessToken: string }> {
  const session = new BrowserSession(variant.entry);
  const login = await session.request('POST', '/api/user/login', { email: u.email, password: u.password });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie') ?? '';
  return { session, accessToken: /access_token=([^;]+)/.exec(cookie)![1]! };
}

describe('gateway offloading (msa-offloading-1-2)', () => {
  it('passes scenario R through the gateway for 4 users concurrently, grades stored', async () => {
    const outcomes = await Promise.all(users.map((u) => runScenarioR(variant.entry, u, paper.good)));
    for (const o of outcomes) {
      expect(o.statuses).toEqual([200, 200, 201, 200, 401]);
      const { rows } = await db.query('SELECT status, grade FROM exercise_productions WHERE id = $1', [o.epId]);
      expect(rows[0]).toMatchObject({ status: 'graded', grade: 100 });
    }
  });

  it('a service called directly refuses an access token, a forged and a tampered assertion (401), and accepts only what the gateway signs', async () => {
    const u = users[0]!;
    const { session, accessToken } = await loggedIn(u);
    const me = (await session.request('GET', '/api/user/me')).body as { user_id: number; role: string };
    expect(me.user_id).toBe(u.userId);
    const direct = (headers: Record<string, string>) => fetch(`${leftoverDirect()}/api/user/me`, { headers });

    const withToken = await direct({ authorization: `Bearer ${accessToken}` });
    expect(withToken.status).toBe(401);
    expect(((await withToken.json()) as { detail: string }).detail).toMatch(/through the gateway/);

    const forged = jwt.sign({ typ: 'identity', email: u.email, role: 'admin', sid: 'x', ver: 0 }, 'a key the attacker guessed', {
      algorithm: 'HS256', audience: 'shellgrade-services', issuer: 'shellgrade-gateway', subject: String(me.user_id), expiresIn: 30,
    });
    expect((await direct({ [IDENTITY_ASSERTION_HEADER]: forged })).status).toBe(401);

    const genuine = new IdentityAssertions(installationSecrets().jwtSecret).sign({ id: me.user_id, email: u.email, role: 'student', sid: 'x', ver: 0 });
    const [head, , signature] = genuine.split('.');
    const elevated = Buffer.from(JSON.stringify({ ...(jwt.decode(genuine) as object), role: 'admin' })).toString('base64url');
    expect((await direct({ [IDENTITY_ASSERTION_HEADER]: `${head}.${elevated}.${signature}` })).status).toBe(401);

    // The control: the same request with the key only gateway and services hold passes.
    const accepted = await direct({ [IDENTITY_ASSERTION_HEADER]: genuine });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { user_id: number }).user_id).toBe(me.user_id);
  });

  it('drops an assertion a client sends through the gateway, even a genuine one (say, leaked): without a login it is 401', async () => {
    const { rows } = await db.query("SELECT id, email FROM users WHERE role = 'admin' ORDER BY id LIMIT 1");
    const leaked = new IdentityAssertions(installationSecrets().jwtSecret).sign({ id: rows[0].id, email: rows[0].email, role: 'admin', sid: 'x', ver: 0 });
    const res = await fetch(`${variant.entry}/api/user/me`, { headers: { [IDENTITY_ASSERTION_HEADER]: leaked } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe('authentication required');
  });

  it('still ends an access token at an account change before it expires (the gateway checks the token version)', async () => {
    const u = users[1]!;
    const { session } = await loggedIn(u);
    expect((await session.request('GET', '/api/user/me')).status).toBe(200);
    await db.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [u.userId]);
    // The gateway's token-version cache (auth.tokenVersionCacheMs) ends within its delay: poll, bounded by count.
    let status = 200;
    for (let i = 0; i < 40 && status === 200; i++) {
      status = (await session.request('GET', '/api/user/me')).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(401);
  });
});

describe('the console (/ops) through the gateway', () => {
  const FROM_OUTSIDE = { 'X-Forwarded-For': '203.0.113.9' }; // what a proxy in front of the gateway would add
  const presets = (session: BrowserSession, headers: Record<string, string> = {}) =>
    session.request('GET', '/ops/presets', undefined, { ...FROM_OUTSIDE, ...headers });

  it('a caller from outside gets 404 problem+json, a student too; an admin and the scrape token read it', async () => {
    const stranger = await presets(new BrowserSession(variant.entry));
    const student = await presets((await loggedIn(users[0])).session);
    const admin = new BrowserSession(variant.entry);
    expect((await admin.request('POST', '/api/user/login', { email: 'admin@shellgrade.test', password: 'admin-password' })).status).toBe(200);
    const staff = await presets(admin);
    const scraper = await presets(new BrowserSession(variant.entry), { Authorization: `Bearer ${installationSecrets().scrapeToken}` });
    expect({ stranger: stranger.status, student: student.status, staff: staff.status, scraper: scraper.status }).toEqual({ stranger: 404, student: 404, staff: 200, scraper: 200 });
    expect(stranger.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(staff.body)).toContain('msa-offloading-1-2');
  });
});
