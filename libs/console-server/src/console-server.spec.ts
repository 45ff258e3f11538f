import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { consoleApp } from './console-server';
import { CONSOLE_COOKIE, consoleToken } from './console-session';
import { runFoldersOf } from './ops-launch';

const TOKEN = 'console-token-for-the-unit-test';

/**
 * A repository-like root with a stand-in harness (cli.js): it records the arguments it was
 * started with in args.json, then exits — or, while a file `hold` exists, waits to be stopped.
 */
function root(): { dir: string; results: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sg-console-server-'));
  mkdirSync(join(dir, 'k6'));
  writeFileSync(join(dir, 'k6', 'profiles.json'), JSON.stringify({ smoke: { peak: 2 } }));
  writeFileSync(
    join(dir, 'cli.js'),
    `require('fs').writeFileSync('args.json', JSON.stringify(process.argv.slice(2)));
     if (require('fs').existsSync('hold')) setInterval(() => undefined, 1000);`,
  );
  const results = join(dir, 'results');
  mkdirSync(results);
  return { dir, results };
}

function server(dir: string, results: string): Express {
  return consoleApp({
    token: TOKEN,
    dir: join(dir, 'no-build'),
    maxArchiveBytes: 4096,
    presets: () => [{ name: 'naked-mon', description: '' }, { name: 'msa-1-2', description: '' }],
    resultsDir: results,
    bench: { node: process.execPath, script: join(dir, 'cli.js'), cwd: dir, resultsDir: results },
  });
}

async function signedIn(app: Express): Promise<string> {
  const res = await request(app).post('/api/user/login').send({ email: 'console', password: TOKEN });
  expect(res.status).toBe(200);
  return String(res.headers['set-cookie']![0]).split(';')[0]!;
}

/** The launch's record once its harness has ended (the server updates it on the child's exit). */
async function ended(app: Express, cookie: string, id: string): Promise<{ state: string; exitCode: number | null }> {
  for (;;) {
    const { launch } = (await request(app).get(`/ops/launches/${id}`).set('Cookie', cookie)).body as { launch: { state: string; exitCode: number | null } };
    if (launch.state !== 'running') return launch;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let dir: string;
let results: string;
let app: Express;
beforeEach(() => {
  ({ dir, results } = root());
  app = server(dir, results);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the standalone console: addressed by a name of this machine only (DNS rebinding)', () => {
  it.each(['/health', '/ops/presets', '/ops/runs', '/ops/launches', '/ops/jaeger/api/services', '/app-config.json', '/api/auth/verify'])(
    'answers GET %s with Host: evil.example with 404 problem+json and why, signed in or not',
    async (path) => {
      const cookie = await signedIn(app);
      const res = await request(app).get(path).set('Host', 'evil.example:58088').set('Cookie', cookie);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toMatch(/addressed to localhost, 127\.0\.0\.1, \[::1\] only/);
    },
  );

  it('refuses the sign-in itself under a foreign name: no cookie is ever set for it', async () => {
    const res = await request(app).post('/api/user/login').set('Host', 'evil.example').send({ email: 'console', password: TOKEN });
    expect(res.status).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('serves localhost, the loopback addresses and configured names, with or without a port', async () => {
    for (const host of ['localhost', 'LOCALHOST:58088', '127.0.0.1', '127.0.0.1:58088', '[::1]', '[::1]:58088']) {
      expect({ host, status: (await request(app).get('/health').set('Host', host)).status }).toEqual({ host, status: 200 });
    }
    expect((await request(app).get('/health').set('Host', 'console.lab:58088')).status).toBe(404);
    const named = consoleApp({ token: TOKEN, dir: join(dir, 'no-build'), maxArchiveBytes: 4096, hostNames: ['console.lab'] });
    expect((await request(named).get('/health').set('Host', 'console.lab:58088')).status).toBe(200);
    expect((await request(named).get('/health').set('Host', 'evil.example')).status).toBe(404);
  });
});

describe('the standalone console: signing in', () => {
  it.each([
    ['GET', '/ops/launches'],
    ['POST', '/ops/launches'],
    ['GET', '/ops/runs'],
    ['GET', '/ops/presets'],
    ['GET', '/ops/jaeger/api/services'],
  ])('answers %s %s with 404 problem+json until signed in, to a loopback caller too', async (method, path) => {
    const res = await request(app)[method === 'GET' ? 'get' : 'post'](path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it.each([
    [{ email: 'console', password: 'guess' }],
    [{ email: 'admin@x.test', password: TOKEN }],
    [{ email: 'console' }],
    [{}],
  ])('refuses the sign-in %j with 401 and where the token is', async (body) => {
    const res = await request(app).post('/api/user/login').send(body);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/^not the console's credential: sign in as console with the token in run\/console\/token/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs in with the token: an httpOnly, SameSite=Strict cookie that is not the token; the app is told it is the standalone console', async () => {
    const res = await request(app).post('/api/user/login').send({ email: ' Console ', password: TOKEN });
    expect(res.body).toMatchObject({ email: 'console', role: 'admin' });
    const cookie = String(res.headers['set-cookie']![0]);
    expect(cookie).toMatch(new RegExp(`^${CONSOLE_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await request(app).get('/api/auth/verify').set('Cookie', session)).body).toMatchObject({ role: 'admin' });
    expect((await request(app).get('/api/auth/verify').set('Cookie', `${CONSOLE_COOKIE}=forged`)).status).toBe(401);
    expect((await request(app).get('/app-config.json')).body).toMatchObject({ standalone: true });
    const out = await request(app).delete('/api/user/logout').set('Cookie', session);
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie']![0])).toMatch(new RegExp(`^${CONSOLE_COOKIE}=;`));
  });

  it('names itself in /health as a service names its entry (role and replica), so the Console page reads "console #0", never "#undefined"', async () => {
    const health = (await request(app).get('/health')).body as Record<string, unknown>;
    expect(health).toEqual({ status: 'ok', role: 'console', replica: 0 });
    // The Console page's Entry label is `${role} #${replica}`; it shows a Variant only when one is named.
    expect(`${String(health.role)} #${String(health.replica)}`).toBe('console #0');
    expect('variant' in health).toBe(false);
  });

  it("answers the application's API with 404 and why: no variant behind it", async () => {
    const cookie = await signedIn(app);
    const res = await request(app).get('/api/exercise').set('Cookie', cookie);
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/the application's API is served by a variant \(npm run variant -- up <preset>\)$/);
  });

  it('refuses a cross-site launch (403) and a body that is no JSON (400), with problem+json', async () => {
    const cookie = await signedIn(app);
    const cross = await request(app).post('/ops/launches').set('Cookie', cookie).set('Origin', 'http://evil.example').set('Sec-Fetch-Site', 'cross-site').send({ plan: 'findings', mode: 'smoke' });
    expect(cross.status).toBe(403);
    const broken = await request(app).post('/ops/launches').set('Cookie', cookie).set('Content-Type', 'application/json').send('{"plan": ');
    expect([broken.status, broken.body.detail]).toEqual([400, 'the body is not valid JSON']);
    expect(existsSync(join(dir, 'args.json'))).toBe(false);
  });

  it('keeps its token in a file only its owner reads, and reads the same one back', () => {
    const file = join(dir, 'run', 'console', 'token');
    const token = consoleToken(file);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(consoleToken(file)).toBe(token);
  });
});

describe('the standalone console: launching what a console served by a variant refuses', () => {
  it('offers every plan, unrefused', async () => {
    const cookie = await signedIn(app);
    const list = (await request(app).get('/ops/launches').set('Cookie', cookie)).body as { ownVariant: string | null; plans: { refused: string | null }[] };
    expect(list.ownVariant).toBeNull();
    expect(list.plans.map((p) => p.refused)).toEqual([null, null, null, null, null]);
  });

  it('launches a findings run into results/findings/<id>: the command shown is what the harness was given', async () => {
    const cookie = await signedIn(app);
    const res = await request(app).post('/ops/launches').set('Cookie', cookie).send({ plan: 'findings', mode: 'smoke' });
    expect(res.status).toBe(202);
    const { id, results: folder, command, preset, profile } = res.body.launch as { id: string; results: string; command: string; preset: null; profile: null };
    expect(id).toMatch(/^\d{8}T\d{6}Z-findings-smoke$/);
    expect([folder, preset, profile]).toEqual([`findings/${id}`, null, null]);
    expect(command).toBe(`npm run bench -- findings --smoke --out results/findings/${id}`);
    expect(await ended(app, cookie, id)).toMatchObject({ state: 'finished', exitCode: 0 });
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual(['findings', '--smoke', '--out', `results/findings/${id}`]);
  });

  it('launches a matrix of any presets, and a run of a preset no variant serves here', async () => {
    const cookie = await signedIn(app);
    const matrix = await request(app).post('/ops/launches').set('Cookie', cookie).send({ plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke' });
    expect(matrix.status).toBe(202);
    expect(matrix.body.launch).toMatchObject({ plan: 'matrix', preset: null, profile: 'smoke', results: null, command: 'npm run bench -- matrix --variants naked-mon,msa-1-2 --profile smoke' });
    await ended(app, cookie, matrix.body.launch.id);
    const run = await request(app).post('/ops/launches').set('Cookie', cookie).send({ plan: 'run', preset: 'msa-1-2', profile: 'smoke' });
    expect(run.status).toBe(202);
    expect(run.body.launch).toMatchObject({ plan: 'run', preset: 'msa-1-2', results: run.body.launch.id });
    await ended(app, cookie, run.body.launch.id);
  });

  it('cancels a findings run: the harness stops, its folder and the run it left unfinished are marked INVALID, the runs it had ended are not', async () => {
    writeFileSync(join(dir, 'hold'), '');
    const cookie = await signedIn(app);
    const { id } = (await request(app).post('/ops/launches').set('Cookie', cookie).send({ plan: 'findings', mode: 'smoke' })).body.launch as { id: string };
    const stamp = id.slice(0, 16);
    const before = join(results, '20000101T000000Z-naked-mon-smoke');
    const done = join(results, `${stamp}-naked-mon-findings-0.5x-r1`);
    const going = join(results, `${stamp}-naked-mon-findings-paper-r1`);
    for (const d of [before, done, going]) mkdirSync(d, { recursive: true });
    writeFileSync(join(done, 'aggregated.json'), '{}');
    const res = await request(app).post(`/ops/launches/${id}/cancel`).set('Cookie', cookie);
    expect(res.body.launch).toMatchObject({ state: 'cancelled', cancelled: { by: 'admin' } });
    expect([before, done, going, join(results, 'findings', id)].map((d) => existsSync(join(d, 'cancelled.json')))).toEqual([false, false, true, true]);
  });

  it('finds the run folders a launch made by their stamps: none before it, no file', () => {
    for (const d of ['20261128T010000Z-a-smoke', '20261128T010001Z-b-smoke', '20261128T005959Z-c-smoke', 'findings']) mkdirSync(join(results, d));
    writeFileSync(join(results, '20261128T010002Z-naked-mon-calibration.json'), '{}');
    expect(runFoldersOf(results, { id: '20261128T010000Z-matrix-smoke' })).toEqual(['20261128T010000Z-a-smoke', '20261128T010001Z-b-smoke']);
  });
});
