/**
 * transport grpc on real sockets, with stub services (a unit test; the real services over gRPC
 * are test/variants.e2e.ts on the msa-grpc presets): a client speaks REST to the gateway, the
 * gateway forwards over gRPC (Edge.Call) to real gRPC edges (libs/grpc-edge) in front of stub
 * Express apps' HTTP edges, and every failure reaches the client as problem+json.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { grpcServing, startEdgeServer, type EdgeServer } from '@shellgrade/grpc-edge';
import { createGatewayApp, type GatewayConfig } from '../src';
import { closedPort } from './fixtures';

const TIMEOUT_MS = 400;
const MAX_BODY = 64 * 1024;

function exerciseService(): Express {
  const app = express();
  app.set('trust proxy', true);
  app.get('/api/exercise-production/slow', (_req, res) => {
    setTimeout(() => res.json({ late: true }), TIMEOUT_MS * 3);
  });
  app.get('/api/exercise-production/:id', (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', 'https://evil.example');
    res.setHeader('Vary', 'Accept-Encoding');
    res.cookie('a', '1');
    res.cookie('b', '2');
    res.json({ id: req.params.id, ip: req.ip, start: req.headers['x-request-start'], trace: req.headers.traceparent ?? null });
  });
  app.post('/api/exercise-production', express.raw({ type: '*/*', limit: MAX_BODY }), (req, res) => {
    res.status(201).json({ bytes: (req.body as Buffer).length, last: (req.body as Buffer).at(-1), type: req.headers['content-type'] });
  });
  return app;
}

function leftoverService(): Express {
  const app = express();
  app.get('/api/users/me', (_req, res) => {
    res.status(401).type('application/problem+json').json({ status: 401, title: 'Unauthorized', detail: 'log in first' });
  });
  return app;
}

/** An app's HTTP edge on an ephemeral port, and a gRPC edge in front of it. */
async function serve(app: Express): Promise<{ http: Server; edge: EdgeServer }> {
  const http = await new Promise<Server>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  const { port } = http.address() as AddressInfo;
  const edge = await startEdgeServer({ host: '127.0.0.1', port: 0, http: { host: '127.0.0.1', port }, maxBodyBytes: MAX_BODY });
  return { http, edge };
}

describe('gateway over transport grpc (live gRPC edges)', () => {
  const https: Server[] = [];
  let exercise: EdgeServer;
  let leftover: EdgeServer;
  let gateway: NestExpressApplication;
  let base: string;

  const gatewayWith = async (targets: { exercise: string; leftover: string }) => {
    const config: GatewayConfig = {
      replica: 0,
      pattern: 'proxy',
      exerciseUrls: ['http://127.0.0.1:9'],
      leftoverUrls: ['http://127.0.0.1:9'],
      upstreamTimeoutMs: TIMEOUT_MS,
      upstreamMaxSockets: 16,
      upstreamMaxFreeSockets: 16,
      corsOrigins: '*',
      opsAccess: 'internal',
      downCooldownMs: 1000,
      clientKeepAliveMs: 5000,
      grpc: { exerciseTarget: targets.exercise, leftoverTarget: targets.leftover, maxBodyBytes: MAX_BODY },
    };
    const app = await createGatewayApp(config, { logger: false });
    await app.listen(0, '127.0.0.1');
    return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
  };

  beforeAll(async () => {
    const ex = await serve(exerciseService());
    const left = await serve(leftoverService());
    https.push(ex.http, left.http);
    exercise = ex.edge;
    leftover = left.edge;
    ({ app: gateway, base } = await gatewayWith({ exercise: `ipv4:${exercise.address}`, leftover: leftover.address }));
  });

  afterAll(async () => {
    await gateway?.close();
    await exercise?.close();
    await leftover?.close();
    for (const server of https) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers grpc.health.v1 SERVING on each edge', async () => {
    await expect(grpcServing(exercise.address)).resolves.toBe(true);
    await expect(grpcServing(leftover.address)).resolves.toBe(true);
  });

  it('relays status, body, both cookies and Vary; the gateway owns CORS; X-Request-Start and the client address reach the service', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await fetch(`${base}/api/exercise-production/42`, { headers: { Origin: 'http://localhost:5173', traceparent } });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^a=1/), expect.stringMatching(/^b=2/)]);
    expect(res.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
    const body = (await res.json()) as { id: string; ip: string; start: string; trace: string };
    expect(body).toMatchObject({ id: '42', ip: '127.0.0.1', trace: traceparent });
    expect(body.start).toMatch(/^t=\d+/);
  });

  it("replaces a client's own X-Request-Start with the gateway's arrival time", async () => {
    const before = Date.now();
    const res = await fetch(`${base}/api/exercise-production/42`, { headers: { 'X-Request-Start': 't=1795326137175' } });
    const { start } = (await res.json()) as { start: string };
    expect(Number(start.slice(2))).toBeGreaterThanOrEqual(before);
    expect(Number(start.slice(2))).toBeLessThanOrEqual(Date.now());
  });

  it('forwards a binary body byte for byte', async () => {
    const payload = Buffer.alloc(MAX_BODY - 1, 7);
    payload[payload.length - 1] = 9;
    const res = await fetch(`${base}/api/exercise-production`, { method: 'POST', body: payload, headers: { 'Content-Type': 'application/gzip' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ bytes: MAX_BODY - 1, last: 9, type: 'application/gzip' });
  });

  it('relays a service problem+json (leftover) unchanged', async () => {
    const res = await fetch(`${base}/api/users/me`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await res.json()).toMatchObject({ detail: 'log in first' });
  });

  it('refuses a body above http.maxBodyBytes with 413 problem+json, never truncating it', async () => {
    const res = await fetch(`${base}/api/exercise-production`, { method: 'POST', body: Buffer.alloc(MAX_BODY + 1, 1) });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 413, detail: `request body larger than ${MAX_BODY} bytes`, instance: '/api/exercise-production' });
  });

  it('turns a missed deadline into 504 problem+json', async () => {
    const res = await fetch(`${base}/api/exercise-production/slow`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ status: 504, detail: expect.stringMatching(`did not answer within ${TIMEOUT_MS} ms`) });
  });

  it('turns a service that is down into 503 problem+json with Retry-After, and keeps serving', async () => {
    const down = await gatewayWith({ exercise: `127.0.0.1:${await closedPort()}`, leftover: leftover.address });
    try {
      const res = await fetch(`${down.base}/api/exercise-production/1`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, detail: expect.stringMatching(/unavailable/) });
      expect((await fetch(`${down.base}/api/users/me`)).status).toBe(401);
    } finally {
      await down.app.close();
    }
  });

  it('health turns NOT_SERVING once an edge closes', async () => {
    const { http, edge } = await serve(leftoverService());
    await expect(grpcServing(edge.address)).resolves.toBe(true);
    await edge.close();
    http.close();
    await expect(grpcServing(edge.address, 500)).resolves.toBe(false);
  });
});
