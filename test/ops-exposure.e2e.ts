// e2e-variants: mon-x2
/**
 * What a caller cannot tell a launched variant, over the real HTTP stack (launcher, HAProxy, the
 * monolith replicas): a web page whose name was rebound to 127.0.0.1 (DNS rebinding) reaches the
 * replicas' operational surfaces and HAProxy's stats page from this machine's loopback, naming its
 * own site in the Host header — it gets 404 problem+json, where the same request naming this
 * machine is answered. And a client's own X-Forwarded-For / X-Forwarded-Proto sent through HAProxy's
 * entry are not believed: HAProxy replaces them, so a client neither picks its rate-limit key nor
 * earns Secure cookies over plain HTTP.
 */
import { request as httpRequest } from 'node:http';
import { Redis } from 'ioredis';
import { HAPROXY_PORTS, loadConnections } from '@shellgrade/variant';
import { seed, variantUp, type VariantStatus } from './support/stack';

jest.setTimeout(600_000);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (fetch will not send a Host of our choosing). */
function send(port: number, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every operational surface a monolith replica serves: metrics, docs, health detail, the console's /ops, the trace relay. */
const SURFACES = ['/metrics', '/docs', '/docs-json', '/health', '/ops/presets', '/ops/runs', '/ops/jaeger/api/services'];
const REBOUND = 'evil.example';

let status: VariantStatus;
beforeAll(async () => {
  status = await variantUp('mon-x2');
});

const replicaPort = () => {
  const replica = status.processes.find((p) => p.role === 'monolith');
  if (!replica) throw new Error(`${status.variant} runs no monolith replica`);
  return replica.port;
};

describe('DNS rebinding: a loopback caller naming another site is no operator (mon-x2)', () => {
  it.each(SURFACES)('a replica answers GET %s 404 problem+json under Host: evil.example, and serves it under its own name', async (path) => {
    const port = replicaPort();
    const rebound = await send(port, path, { Host: `${REBOUND}:${port}` });
    expect({ path, status: rebound.status, type: rebound.headers['content-type'] }).toEqual({ path, status: 404, type: expect.stringMatching(/^application\/problem\+json/) });
    const local = await send(port, path, { Host: `127.0.0.1:${port}` });
    // The trace relay answers whatever Jaeger does (502 when it is not running): not hidden, at least.
    expect({ path, status: local.status }).toEqual({ path, status: path.startsWith('/ops/jaeger') ? expect.any(Number) : 200 });
    expect(local.status).not.toBe(404);
    if (path === '/health') expect(JSON.parse(local.body)).toMatchObject({ status: 'ok', role: 'monolith', checks: expect.any(Array) });
  });

  it("HAProxy's stats page answers 404 problem+json under Host: evil.example, and the launcher's reading of it goes on", async () => {
    const rebound = await send(HAPROXY_PORTS.stats, '/stats;csv', { Host: `${REBOUND}:${HAPROXY_PORTS.stats}` });
    expect(rebound.status).toBe(404);
    expect(rebound.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(rebound.body).not.toContain('sg-monolith');
    const local = await send(HAPROXY_PORTS.stats, '/stats;csv', { Host: `127.0.0.1:${HAPROXY_PORTS.stats}` });
    expect(local.status).toBe(200);
    expect(local.body).toContain('sg-monolith-0');
  });
});

describe("HAProxy's entry sets the forwarding headers itself (mon-x2)", () => {
  const entryPort = HAPROXY_PORTS.entry;
  const json = { 'Content-Type': 'application/json' };

  it('a client-sent X-Forwarded-Proto: https earns no Secure cookie over plain HTTP', async () => {
    const [student] = await seed(1);
    const login = await send(entryPort, '/api/user/login', { ...json, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': REBOUND }, JSON.stringify({ email: student!.email, password: student!.password }));
    expect(login.status).toBe(200);
    const cookies = [login.headers['set-cookie'] ?? []].flat();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it('a client-sent X-Forwarded-For does not become its rate-limit key: the address HAProxy saw does', async () => {
    const redis = new Redis(loadConnections().REDIS_URL);
    try {
      const spoofed = '203.0.113.77';
      const keysOf = (address: string) => redis.keys(`sg-rl:*${address}*`);
      await redis.del(...(await keysOf(spoofed)), 'sg-rl:none');
      const failed = await send(
        entryPort,
        '/api/user/login',
        { ...json, 'X-Forwarded-For': spoofed, 'X-Real-IP': spoofed, Forwarded: `for=${spoofed}` },
        JSON.stringify({ email: `nobody-${Date.now()}@shellgrade.test`, password: 'wrong-password' }),
      );
      // 401, or 429 when earlier failures from this machine spent its address's allowance: counted either way.
      expect([401, 429]).toContain(failed.status);
      // mon-x2's two replicas share their counters in Redis: the failure is there under the address HAProxy saw.
      expect(await keysOf(spoofed)).toEqual([]);
      expect((await keysOf('127.0.0.1')).length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
