/**
 * The gateway against stub upstream HTTP servers on loopback (a unit test: the upstreams are
 * stand-ins; the real services behind a real gateway are test/variants.e2e.ts): routing,
 * byte-exact streaming, header passthrough, CORS, timeouts, dead and dying upstreams, keep-alive.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Agent, request, type IncomingMessage } from 'node:http';
import { closedPort, eventually, json, send, startGateway, startKillableUpstream, startUpstream, type RunningGateway, type Upstream } from './fixtures';
import { parseRequestStart } from '@shellgrade/http';

const TIMEOUT_MS = 400;
const ORIGIN = 'http://spa.example';

describe('gateway routing and passthrough (live upstreams)', () => {
  let exercise: Upstream;
  let leftover: Upstream;
  let gateway: RunningGateway;
  /** 'arrived' when a slow exchange reaches the upstream, 'cancelled' when the gateway closes one unanswered. */
  const slow = new EventEmitter();

  beforeAll(async () => {
    exercise = await startUpstream((req, res) => {
      if (req.url.startsWith('/api/exercise-production/slow')) {
        const timer = setTimeout(() => {
          res.end('too late');
          slow.emit('answered');
        }, 5000);
        res.on('close', () => {
          clearTimeout(timer);
          if (!res.writableEnded) slow.emit('cancelled');
        });
        slow.emit('arrived');
        return;
      }
      res.setHeader('Content-Type', req.headers['content-type'] ?? 'application/octet-stream');
      res.setHeader('X-Upstream', 'exercise');
      res.setHeader('X-Body-Sha256', createHash('sha256').update(req.body).digest('hex'));
      res.end(req.body);
    });
    leftover = await startUpstream((req, res) => {
      res.setHeader('X-Upstream', 'leftover');
      // Upstream CORS headers must not leak through next to the gateway's own.
      res.setHeader('Access-Control-Allow-Origin', 'http://upstream-says-so');
      res.setHeader('Vary', 'Accept-Encoding');
      if (req.url === '/api/user/login') {
        res.setHeader('Set-Cookie', [
          'access_token=aaa.bbb.ccc; Path=/; HttpOnly; SameSite=Lax',
          'refresh_token=r-123; Path=/api/auth; HttpOnly; Max-Age=604800',
        ]);
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ url: req.url, method: req.method }));
    });
    gateway = await startGateway({
      exerciseUrls: [exercise.url],
      leftoverUrls: [leftover.url],
      upstreamTimeoutMs: TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await exercise?.close();
    await leftover?.close();
  });

  it.each([
    ['POST', '/api/exercise-production', 'exercise'],
    ['GET', '/api/exercise-production/12?full=1', 'exercise'],
    ['GET', '/api/student-statement/3', 'exercise'],
    ['POST', '/api/user/login', 'leftover'],
    ['GET', '/api/exercises', 'leftover'],
    ['DELETE', '/api/user/logout', 'leftover'],
  ])('%s %s goes to %s with path and query intact', async (method, path, upstream) => {
    const target = upstream === 'exercise' ? exercise : leftover;
    const before = target.requests.length;
    const res = await send(gateway.url + path, { method });
    expect(res.status).toBe(200);
    expect(res.headers['x-upstream']).toBe(upstream);
    expect(target.requests.length).toBe(before + 1);
    expect(target.requests.at(-1)?.url).toBe(path);
    expect(target.requests.at(-1)?.method).toBe(method);
  });

  it('streams a 2 MB body byte for byte, both ways, without parsing it', async () => {
    const body = randomBytes(2 * 1024 * 1024);
    const sha = createHash('sha256').update(body).digest('hex');
    // Labelled JSON but not JSON: a body parser in the gateway would reject or alter it.
    const res = await send(`${gateway.url}/api/exercise-production`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-body-sha256']).toBe(sha);
    expect(res.body.length).toBe(body.length);
    expect(res.body.equals(body)).toBe(true);
    const seen = exercise.requests.at(-1);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['content-length']).toBe(String(body.length));
  });

  it('streams a chunked request body unchanged', async () => {
    const body = randomBytes(300_000);
    const res = await send(`${gateway.url}/api/exercise-production`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Transfer-Encoding': 'chunked' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.body.equals(body)).toBe(true);
  });

  it('passes Set-Cookie out and Cookie in untouched', async () => {
    const res = await send(`${gateway.url}/api/user/login`, {
      method: 'POST',
      headers: { Cookie: 'refresh_token=r-0; theme=dark' },
    });
    expect(res.headers['set-cookie']).toEqual([
      'access_token=aaa.bbb.ccc; Path=/; HttpOnly; SameSite=Lax',
      'refresh_token=r-123; Path=/api/auth; HttpOnly; Max-Age=604800',
    ]);
    expect(leftover.requests.at(-1)?.headers.cookie).toBe('refresh_token=r-0; theme=dark');
  });

  it('forwards traceparent/tracestate and adds X-Forwarded-*', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await send(`${gateway.url}/api/exercise-production/1`, {
      headers: { traceparent, tracestate: 'sg=1', Authorization: 'Bearer t0k3n', Host: 'shellgrade.test:8080' },
    });
    const seen = exercise.requests.at(-1)?.headers ?? {};
    expect(seen.traceparent).toBe(traceparent);
    expect(seen.tracestate).toBe('sg=1');
    expect(seen.authorization).toBe('Bearer t0k3n');
    expect(seen.host).toBe('shellgrade.test:8080');
    expect(seen['x-forwarded-for']).toMatch(/127\.0\.0\.1/);
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe('shellgrade.test:8080');
  });

  it("stamps X-Request-Start with its arrival time, replacing a client's own", async () => {
    for (const headers of [{}, { 'X-Request-Start': 't=1795326137175' }] as Record<string, string>[]) {
      const before = Date.now();
      await send(`${gateway.url}/api/exercise-production/1`, { headers });
      const stamped = parseRequestStart(exercise.requests.at(-1)?.headers['x-request-start']);
      expect(stamped).toBeGreaterThanOrEqual(before);
      expect(stamped).toBeLessThanOrEqual(Date.now());
    }
  });

  it('keeps the X-Request-Start of a trusted proxy in front (HAProxy before several gateways)', async () => {
    const behindProxy = await startGateway({ exerciseUrls: [exercise.url], leftoverUrls: [leftover.url], upstreamTimeoutMs: TIMEOUT_MS, trustedProxies: ['loopback'] });
    try {
      await send(`${behindProxy.url}/api/exercise-production/1`, { headers: { 'X-Request-Start': 't=1795326137175' } });
      expect(exercise.requests.at(-1)?.headers['x-request-start']).toBe('t=1795326137175');
    } finally {
      await behindProxy.close();
    }
  });

  it('does not forward hop-by-hop headers', async () => {
    await send(`${gateway.url}/api/exercises`, { headers: { Connection: 'close, X-Hop', 'X-Hop': 'secret' } });
    const seen = leftover.requests.at(-1)?.headers ?? {};
    expect(seen['x-hop']).toBeUndefined();
    // HTTP/1.1 is persistent by default; the client's "close" must not reach the upstream.
    expect(seen.connection ?? 'keep-alive').toBe('keep-alive');
  });

  it('answers every /api preflight itself, without touching an upstream', async () => {
    const before = exercise.requests.length + leftover.requests.length;
    for (const path of ['/api/exercise-production', '/api/user/login', '/api/anything/deep/1']) {
      const res = await send(gateway.url + path, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
      expect(res.headers['access-control-max-age']).toBe('600');
    }
    expect(exercise.requests.length + leftover.requests.length).toBe(before);
  });

  it('sends exactly one, gateway-chosen Access-Control-Allow-Origin on proxied responses', async () => {
    const res = await send(`${gateway.url}/api/exercises`, { headers: { Origin: ORIGIN } });
    const acao = res.rawHeaders.filter((_, i) => i % 2 === 0 && res.rawHeaders[i].toLowerCase() === 'access-control-allow-origin');
    expect(acao).toHaveLength(1);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers.vary)).toMatch(/Origin/);
    expect(String(res.headers.vary)).toMatch(/Accept-Encoding/);
  });

  it('times a silent upstream out into a 504 problem within the configured limit', async () => {
    const res = await send(`${gateway.url}/api/exercise-production/slow`);
    expect(res.status).toBe(504);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = json(res);
    expect(body).toMatchObject({ status: 504, title: 'Gateway Timeout', instance: '/api/exercise-production/slow' });
    expect(String(body.detail)).toContain('the exercise service');
    expect(String(body.detail)).not.toContain(exercise.url);
    expect(String(body.detail)).toContain(`${TIMEOUT_MS} ms`);
    expect(typeof body.type).toBe('string');
    // The upstream answers only after 5 s: the 504 itself says the gateway stopped waiting first.
  });

  it('cancels the upstream call when the client hangs up, and keeps serving', async () => {
    // A gateway that would wait a minute: a cancel seen before the upstream's 5 s answer is the hang-up's.
    const patient = await startGateway({ exerciseUrls: [exercise.url], leftoverUrls: [leftover.url], upstreamTimeoutMs: 60_000 });
    try {
      const arrived = once(slow, 'arrived');
      const req = request(`${patient.url}/api/exercise-production/slow`);
      req.on('error', () => undefined);
      req.end();
      await arrived;
      const cancelled = once(slow, 'cancelled').then(() => 'cancelled');
      const answered = once(slow, 'answered').then(() => 'answered after 5 s: the upstream call outlived the client');
      req.destroy();
      expect(await Promise.race([cancelled, answered])).toBe('cancelled');
      const res = await send(`${patient.url}/health`);
      expect(res.status).toBe(200);
      // Counted as the client's hang-up (499), once the response has finished on the gateway's side.
      await eventually(async () => expect((await send(`${patient.url}/metrics`)).body.toString()).toMatch(/sg_gateway_requests_total\{route_class="exercise",method="GET",status="499"\} 1/), 10_000);
    } finally {
      await patient.close();
    }
  });

  it('reuses upstream connections across 50 sequential requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = leftover.connections();
    try {
      for (let i = 0; i < 50; i++) {
        const res = await send(`${gateway.url}/api/exercises/${i}`, { agent });
        expect(res.status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    // One socket normally; a second only if the first aged out between requests.
    expect(leftover.connections() - before).toBeLessThanOrEqual(2);
  });

  it('serves /health, /metrics and /docs itself, and 404 problem+json elsewhere', async () => {
    const health = await send(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    expect(json(health)).toEqual({ status: 'ok', role: 'gateway', replica: 7 });

    // Metrics are recorded when a response finishes, which may trail the client by a tick.
    await eventually(async () => {
      const metrics = await send(`${gateway.url}/metrics`);
      expect(metrics.status).toBe(200);
      const text = metrics.body.toString();
      expect(text).toMatch(/sg_gateway_requests_total\{route_class="exercise",method="POST",status="200"\} \d+/);
      expect(text).toMatch(/sg_gateway_requests_total\{route_class="preflight",method="OPTIONS",status="204"\} 3/);
      expect(text).toMatch(/sg_gateway_upstream_errors_total\{upstream="exercise",kind="timeout"\} 1/);
      expect(text).toMatch(/sg_gateway_request_duration_seconds_bucket\{le="0.8",route_class="leftover",status="200"\}/);
      expect(text).toContain('process_cpu_user_seconds_total');
    }, 1000);

    const docs = await send(`${gateway.url}/docs-json`);
    expect(docs.status).toBe(200);
    const paths = Object.keys(json<{ paths: Record<string, unknown> }>(docs).paths);
    expect(paths).toEqual(expect.arrayContaining(['/health', '/metrics', '/api/exercise-production', '/api/student-statement/{id}', '/api/{path}']));
    const ui = await send(`${gateway.url}/docs`);
    expect(ui.status).toBe(200);

    // Relayed from outside (a front proxy's X-Forwarded-For): no metrics, no docs, no identity.
    const outside = { headers: { 'X-Forwarded-For': '198.51.100.23' } };
    for (const path of ['/metrics', '/docs-json', '/docs', '/metrics?format=text', '/METRICS#x']) expect((await send(`${gateway.url}${path}`, outside)).status).toBe(404);
    expect(json(await send(`${gateway.url}/health`, outside))).toEqual({ status: 'ok' });

    const missing = await send(`${gateway.url}/nowhere?x=1`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json(missing)).toMatchObject({ status: 404, title: 'Not Found', instance: '/nowhere?x=1' });
  });
});

describe('gateway with opsAccess public (spec http.opsAccess, development)', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ opsAccess: 'public' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('shows /metrics, /docs and the /health identity to a relayed outside caller too', async () => {
    const outside = { headers: { 'X-Forwarded-For': '198.51.100.23' } };
    for (const path of ['/metrics', '/docs-json']) expect((await send(`${gateway.url}${path}`, outside)).status).toBe(200);
    expect(json(await send(`${gateway.url}/health`, outside))).toEqual({ status: 'ok', role: 'gateway', replica: 7 });
  });
});

describe('gateway CORS with an origin list', () => {
  let leftover: Upstream;
  let gateway: RunningGateway;
  beforeAll(async () => {
    leftover = await startUpstream((_req, res) => res.end('ok'));
    gateway = await startGateway({ leftoverUrls: [leftover.url], corsOrigins: `${ORIGIN}, http://admin.example` });
  });
  afterAll(async () => {
    await gateway?.close();
    await leftover?.close();
  });

  it('reflects a listed origin and withholds CORS from any other', async () => {
    const listed = await send(`${gateway.url}/api/sequences`, { headers: { Origin: ORIGIN } });
    expect(listed.headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = await send(`${gateway.url}/api/sequences`, { headers: { Origin: 'http://elsewhere.example' } });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send(`${gateway.url}/api/sequences`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(leftover.requests).toHaveLength(2);
  });
});

describe('gateway with dead and dying upstreams', () => {
  let leftover: Upstream;

  beforeAll(async () => {
    leftover = await startUpstream((_req, res) => res.end('leftover ok'));
  });
  afterAll(async () => {
    await leftover?.close();
  });

  it('maps a closed port to a fast 502, then 503 + Retry-After while known down', async () => {
    const port = await closedPort();
    const gateway = await startGateway({
      exerciseUrls: [`http://127.0.0.1:${port}`],
      leftoverUrls: [leftover.url],
      downCooldownMs: 1000,
    });
    try {
      const first = await send(`${gateway.url}/api/exercise-production`, { method: 'POST', body: 'x' });
      // 502, not the 504 of a timeout: the refusal was answered as such, without waiting.
      expect(first.status).toBe(502);
      expect(first.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(first)).toMatchObject({ status: 502, title: 'Bad Gateway', instance: '/api/exercise-production' });
      expect(String(json(first).detail)).toBe('the exercise service is not available right now; retry shortly');

      const second = await send(`${gateway.url}/api/exercise-production`, { method: 'POST', body: 'x' });
      expect(second.status).toBe(503);
      expect(second.headers['retry-after']).toBe('1');
      expect(String(json(second).detail)).toContain('is down');

      // The other upstream is unaffected.
      const other = await send(`${gateway.url}/api/exercises`);
      expect(other.status).toBe(200);
      expect(other.body.toString()).toBe('leftover ok');

      // After the cooldown the replica is tried again (and still refuses: 502, not 503).
      await new Promise((r) => setTimeout(r, 1050));
      const third = await send(`${gateway.url}/api/exercise-production`);
      expect(third.status).toBe(502);

      await eventually(async () => {
        const text = (await send(`${gateway.url}/metrics`)).body.toString();
        expect(text).toMatch(/sg_gateway_upstream_errors_total\{upstream="exercise",kind="refused"\} 2/);
        expect(text).toMatch(/sg_gateway_upstream_errors_total\{upstream="exercise",kind="down"\} 1/);
        expect(text).toMatch(/sg_gateway_requests_total\{route_class="exercise",method="POST",status="503"\} 1/);
      }, 1000);
    } finally {
      await gateway.close();
    }
  });

  it('skips a dead replica and keeps routing to the live one', async () => {
    const live = await startUpstream((_req, res) => res.end('live'));
    const port = await closedPort();
    const gateway = await startGateway({
      exerciseUrls: [`http://127.0.0.1:${port}`, live.url],
      leftoverUrls: [leftover.url],
      downCooldownMs: 10_000,
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await send(`${gateway.url}/api/student-statement`)).status);
      // At most the first attempt on the dead replica fails; then only the live one is used.
      expect(statuses.filter((s) => s === 502).length).toBeLessThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    } finally {
      await gateway.close();
      await live.close();
    }
  });

  it('answers 502 when the upstream process is killed mid-request, and keeps serving', async () => {
    const dying = await startKillableUpstream();
    const gateway = await startGateway({ exerciseUrls: [dying.url], leftoverUrls: [leftover.url], upstreamTimeoutMs: 10_000 });
    try {
      const pending = send(`${gateway.url}/api/exercise-production`, { method: 'POST', body: 'answer.tgz bytes' });
      expect(await dying.nextRequest()).toBe('request /api/exercise-production');
      dying.child.kill('SIGKILL');
      const res = await pending;
      // 502 "closed the connection", not the 504 of the 10 s timeout: the death itself was noticed.
      expect(res.status).toBe(502);
      expect(String(json(res).detail)).toBe('the exercise service closed the connection before answering');

      expect((await send(`${gateway.url}/health`)).status).toBe(200);
      expect((await send(`${gateway.url}/api/exercises`)).body.toString()).toBe('leftover ok');
      // Nothing listens there any more: refused → 502, then known down → 503.
      expect((await send(`${gateway.url}/api/exercise-production`)).status).toBe(502);
      expect((await send(`${gateway.url}/api/exercise-production`)).status).toBe(503);
    } finally {
      dying.child.kill('SIGKILL');
      await gateway.close();
    }
  });

  it('cuts the client connection when the upstream dies after sending headers', async () => {
    const half = await startUpstream((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '1000' });
      res.write(Buffer.alloc(100));
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const gateway = await startGateway({ exerciseUrls: [half.url], leftoverUrls: [leftover.url] });
    try {
      await expect(send(`${gateway.url}/api/exercise-production/1`)).rejects.toThrow();
      expect((await send(`${gateway.url}/health`)).status).toBe(200);
      await eventually(async () => {
        const text = (await send(`${gateway.url}/metrics`)).body.toString();
          expect(text).toMatch(/sg_gateway_upstream_errors_total\{upstream="exercise",kind="reset"\} 1/);
      }, 1000);
    } finally {
      await gateway.close();
      await half.close();
    }
  });

  it('drains an in-flight request when closed, then stops accepting', async () => {
    const slowish = await startUpstream((_req, res) => setTimeout(() => res.end('graded'), 300));
    const gateway = await startGateway({ exerciseUrls: [slowish.url], leftoverUrls: [leftover.url] });
    try {
      const inFlight = send(`${gateway.url}/api/exercise-production`, { method: 'POST', body: 'answer' });
      await new Promise((r) => setTimeout(r, 100));
      const closed = gateway.close();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('graded');
      await closed;
      await expect(send(`${gateway.url}/health`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await slowish.close();
    }
  });
});

describe('gateway under a full upstream socket pool', () => {
  it("forwards a request that waited for a socket with the gateway's head (X-Request-Start, no hop-by-hop), without crashing", async () => {
    // One socket per replica: the second exchange waits in the agent while the first holds it.
    const held = new EventEmitter();
    const upstream = await startUpstream((req, res) => {
      if (req.url.endsWith('/first')) held.once('release', () => res.end('first'));
      else res.end('second');
      held.emit('arrived', req.url);
    });
    const gateway = await startGateway({ exerciseUrls: [upstream.url], leftoverUrls: [upstream.url], upstreamMaxSockets: 1, upstreamMaxFreeSockets: 1 });
    // The second request's body read whole by the gateway: its upstream request is ended, its head
    // written to the buffer, and still no socket (where http-proxy's proxyReq event comes later).
    const secondRead = new Promise<void>((resolve) =>
      gateway.app.getHttpServer().on('request', (req: IncomingMessage) => {
        if (req.url?.endsWith('/second')) req.once('end', () => setImmediate(resolve));
      }),
    );
    try {
      const firstArrived = once(held, 'arrived');
      const first = send(`${gateway.url}/api/exercise-production/first`, { method: 'POST', body: 'a' });
      await firstArrived;
      const second = send(`${gateway.url}/api/exercise-production/second`, { method: 'POST', body: 'b', headers: { Connection: 'keep-alive, X-Hop', 'X-Hop': 'secret' } });
      await secondRead;
      held.emit('release');
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, a.body.toString(), b.status, b.body.toString()]).toEqual([200, 'first', 200, 'second']);
      const seen = upstream.requests.find((r) => r.url.endsWith('/second'))!.headers;
      expect(seen['x-hop']).toBeUndefined();
      expect(parseRequestStart(seen['x-request-start'])).toBeGreaterThan(0);
      expect((await send(`${gateway.url}/health`)).status).toBe(200);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
