/**
 * The launcher against the real pieces: PostgreSQL via infra/bin/servers, the built services
 * under pm2, HAProxy from the generated config. Drives the same CLI a user runs.
 * Needs `npm run build` first: unbuilt services fail the suite with that instruction.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const REPO = join(__dirname, '..', '..');
const CLI = join(REPO, 'dist', 'infra', 'src', 'launcher', 'cli.js');
const ROLES = ['monolith', 'gateway', 'leftover', 'exercise'];
const missing = ROLES.map((r) => join(REPO, 'dist', 'services', r, 'src', 'main.js')).filter((f) => !existsSync(f));
const run = promisify(execFile);

interface Status {
  variant: string | null;
  entry: string | null;
  processes: { name: string; role: string; pid: number; port: number; status: string; restarts: number }[];
  servers: { name: string; status: string; pid: number }[];
}

async function cli(...args: string[]): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: REPO, timeout: 280_000, maxBuffer: 16 * 2 ** 20 });
  return stdout;
}
const status = async () => JSON.parse(await cli('status', '--json')) as Status;

async function httpStatus(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    value = await probe();
  }
  return value;
}

/** HAProxy's view of a backend: server name -> UP/DOWN, from the stats CSV. */
async function haproxyServers(backend: string): Promise<Record<string, string>> {
  const csv = await (await fetch('http://127.0.0.1:8404/stats;csv')).text();
  const rows = csv.split('\n').map((l) => l.split(','));
  return Object.fromEntries(rows.filter((r) => r[0] === backend && !['FRONTEND', 'BACKEND'].includes(r[1])).map((r) => [r[1], r[17]]));
}

describe('variant launcher (real servers, pm2, HAProxy)', () => {
  jest.setTimeout(300_000);

  beforeAll(async () => {
    // Never a silent skip: a suite that cannot run is a failing suite.
    if (missing.length > 0) throw new Error(`the services are not built (${missing.join(', ')}): run \`npm run build\``);
    await cli('down');
  });

  afterAll(async () => {
    await cli('down');
  });

  it('refuses to start on a port another program holds, naming it', async () => {
    const squatter = createServer().listen(3000, '127.0.0.1');
    await new Promise((r) => squatter.once('listening', r));
    try {
      await expect(cli('up', 'naked-mon')).rejects.toThrow(/port 3000 \(for sg-monolith-0\) is taken/);
      expect((await status()).variant).toBeNull();
    } finally {
      squatter.close();
    }
  });

  it('up naked-mon: one monolith on :3000, healthy, reported by status --json', async () => {
    await cli('up', 'naked-mon');
    const st = await status();
    expect(st).toMatchObject({ variant: 'naked-mon', entry: 'http://127.0.0.1:3000' });
    expect(st.processes).toEqual([expect.objectContaining({ name: 'sg-monolith-0', role: 'monolith', port: 3000, status: 'online' })]);
    expect(st.processes[0].pid).toBeGreaterThan(0);
    expect(st.servers).toEqual([expect.objectContaining({ name: 'postgres', status: 'online' })]);
    expect(await httpStatus('http://127.0.0.1:3000/health')).toBe(200);

    // The same variant again is a no-op: nothing restarted.
    await cli('up', 'naked-mon');
    expect((await status()).processes[0].pid).toBe(st.processes[0].pid);
  });

  it('up mon-x2 switches: the old monolith stops, HAProxy on :8080 balances two healthy replicas', async () => {
    const before = (await status()).processes[0].pid;
    await cli('up', 'mon-x2');
    const st = await status();
    expect(st).toMatchObject({ variant: 'mon-x2', entry: 'http://127.0.0.1:8080' });
    expect(st.processes.map((p) => [p.name, p.port, p.status])).toEqual([
      ['sg-monolith-0', 3000, 'online'], ['sg-monolith-1', 3001, 'online'], ['sg-haproxy', 8080, 'online'],
    ]);
    expect(st.processes[0].pid).not.toBe(before);
    expect(await httpStatus('http://127.0.0.1:8080/health')).toBe(200);
    const servers = await eventually(() => haproxyServers('be_entry'), (s) => Object.values(s).every((v) => v === 'UP'), 10_000);
    expect(servers).toEqual({ 'sg-monolith-0': 'UP', 'sg-monolith-1': 'UP' });
  });

  it('a replica killed with SIGKILL is restarted by pm2 and HAProxy keeps answering', async () => {
    const victim = (await status()).processes.find((p) => p.name === 'sg-monolith-1')!;
    process.kill(victim.pid, 'SIGKILL');
    expect(await httpStatus('http://127.0.0.1:8080/health')).toBe(200);
    const back = await eventually(
      async () => (await status()).processes.find((p) => p.name === 'sg-monolith-1')!,
      (p) => p.status === 'online' && p.pid !== victim.pid && p.restarts > victim.restarts,
      30_000,
    );
    expect(back.pid).not.toBe(victim.pid);
    expect(await eventually(() => httpStatus('http://127.0.0.1:3001/health'), (s) => s === 200, 60_000)).toBe(200);
  });

  it('up msa-2-4-4 brings all 11 processes up healthy behind HAProxy', async () => {
    await cli('up', 'msa-2-4-4', '--timeout', '240');
    const st = await status();
    expect(st.processes).toHaveLength(11);
    expect(st.processes.every((p) => p.status === 'online' && p.pid > 0)).toBe(true);
    for (const p of st.processes.filter((q) => q.role !== 'haproxy')) {
      expect([p.name, await httpStatus(`http://127.0.0.1:${p.port}/health`)]).toEqual([p.name, 200]);
    }
    for (const port of [8080, 8081, 8082]) expect(await httpStatus(`http://127.0.0.1:${port}/health`)).toBe(200);
    expect(await httpStatus('http://127.0.0.1:3000/health')).toBe(0);
  });

  it('down stops the variant processes but not the servers', async () => {
    await cli('down');
    const st = await status();
    expect(st).toMatchObject({ variant: null, processes: [] });
    expect(await httpStatus('http://127.0.0.1:8080/health')).toBe(0);
    expect(await httpStatus('http://127.0.0.1:3100/health')).toBe(0);
    // PostgreSQL belongs to infra/bin/servers and stays up for other users.
    expect(st.servers).toEqual([expect.objectContaining({ name: 'postgres', status: 'online' })]);
  });
});
