/**
 * Real sockets for the gateway's integration tests: small node:http upstreams on ephemeral
 * loopback ports, a raw HTTP client, and a gateway app built in-process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createGatewayApp, type GatewayConfig } from '../src';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Upstream {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections: () => number;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

export type UpstreamHandler = (req: RecordedRequest, res: ServerResponse) => void;

/** An upstream that buffers each request body, records it, then runs the handler. */
export async function startUpstream(handler: UpstreamHandler): Promise<Upstream> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An upstream in its own process, so a test can SIGKILL it while it holds a request.
 * It prints its port, then `request <url>` when one arrives, and never answers.
 */
export async function startKillableUpstream(): Promise<{ url: string; child: ChildProcess; nextRequest: () => Promise<string> }> {
  const script = `
    const http = require('node:http');
    const server = http.createServer((req) => { req.resume(); process.stdout.write('request ' + req.url + '\\n'); });
    server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const waiters: Array<(line: string) => void> = [];
  const lines: string[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiters.push(resolve);
    });
  const portLine = await nextLine();
  const port = Number(portLine.replace('port ', ''));
  return { url: `http://127.0.0.1:${port}`, child, nextRequest: nextLine };
}

export interface ClientResponse {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  ms: number;
}

export interface ClientRequestOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  agent?: Agent | false;
}

/** One HTTP exchange with node:http (no client-side magic), timed. */
export function send(url: string, options: ClientRequestOptions = {}): Promise<ClientResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export function json<T = Record<string, unknown>>(res: ClientResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}

export interface RunningGateway {
  url: string;
  app: NestExpressApplication;
  close: () => Promise<void>;
}

export async function startGateway(overrides: Partial<GatewayConfig>): Promise<RunningGateway> {
  const config: GatewayConfig = {
    replica: 7,
    pattern: 'proxy',
    exerciseUrls: ['http://127.0.0.1:1'],
    leftoverUrls: ['http://127.0.0.1:1'],
    upstreamTimeoutMs: 2000,
    upstreamMaxSockets: 64,
    upstreamMaxFreeSockets: 64,
    // The browser origin the CORS tests use (an explicit allow-list: no origin is echoed blindly).
    corsOrigins: 'http://spa.example',
    opsAccess: 'internal',
    downCooldownMs: 1000,
    clientKeepAliveMs: 5000,
    ...overrides,
  };
  const app = await createGatewayApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}

/** Retries an assertion until it passes or `withinMs` elapses (then rethrows the last failure). */
export async function eventually(assertion: () => unknown, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
