/**
 * The gRPC edge of a service (transport: grpc): an Edge.Call is replayed against the service's
 * own HTTP edge on loopback (a keep-alive agent), so the same controllers, guards, pipes and
 * problem+json filter answer both transports. In-process dispatch (light-my-request) was tried
 * and dropped: for an Express app it rewires Express's shared request/response prototypes,
 * which breaks every other Express app in the process, the service's own HTTP edge included.
 * It also serves grpc.health.v1 (SERVING once listening) for the launcher's readiness checks.
 */
import { Agent, request, type OutgoingHttpHeaders } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { edgeMessageLimit, edgeService, type EdgeHeader, type HttpCall, type HttpReply } from './edge-contract';

export interface EdgeServerOptions {
  host: string;
  port: number;
  /** The service's HTTP edge the calls are replayed against (loopback). */
  http: { host: string; port: number };
  /** The variant's http.maxBodyBytes: larger calls are refused with RESOURCE_EXHAUSTED. */
  maxBodyBytes: number;
}

export interface EdgeServer {
  /** host:port actually bound (port 0 in options = an ephemeral one). */
  readonly address: string;
  close(): Promise<void>;
}

/** The health service name callers probe: '' (the whole server) as grpc.health.v1 recommends. */
export const EDGE_HEALTH_SERVICE = '';

export async function startEdgeServer(options: EdgeServerOptions): Promise<EdgeServer> {
  const limit = edgeMessageLimit(options.maxBodyBytes);
  const agent = new Agent({ keepAlive: true, maxSockets: 1024, scheduling: 'lifo' });
  const server = new grpc.Server({ 'grpc.max_receive_message_length': limit, 'grpc.max_send_message_length': limit });
  server.addService(edgeService().service, {
    Call: (call: grpc.ServerUnaryCall<HttpCall, HttpReply>, callback: grpc.sendUnaryData<HttpReply>) => {
      relay(agent, options.http, call).then(
        (reply) => callback(null, reply),
        (error: unknown) => callback({ code: grpc.status.INTERNAL, details: `the service failed to answer: ${(error as Error).message}` }),
      );
    },
  });
  const health = new HealthImplementation({ [EDGE_HEALTH_SERVICE]: 'NOT_SERVING' });
  health.addToServer(server);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const address = `${options.host}:${bound}`;
  health.setStatus(EDGE_HEALTH_SERVICE, 'SERVING');
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        health.setStatus(EDGE_HEALTH_SERVICE, 'NOT_SERVING');
        server.tryShutdown(() => {
          agent.destroy();
          resolve();
        });
      }),
  };
}

function relay(agent: Agent, to: EdgeServerOptions['http'], call: grpc.ServerUnaryCall<HttpCall, HttpReply>): Promise<HttpReply> {
  const { method, path, headers, body } = call.request;
  return new Promise<HttpReply>((resolve, reject) => {
    const req = request({ host: to.host, port: to.port, method, path, headers: headerObject(headers, body.length), agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: pairs(res.rawHeaders), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    // The caller left or its deadline passed: stop the work it no longer waits for.
    call.once('cancelled', () => req.destroy(new Error('call cancelled')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Headers as an object, not Node's raw array: the OpenTelemetry HTTP instrumentation injects
 * traceparent by spreading `options.headers`, which turns a raw array into keys '0', '1', …
 * and the service then sees no content-type (and no body).
 */
function headerObject(headers: EdgeHeader[], bodyLength: number): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    const seen = out[key];
    out[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  if (bodyLength > 0) out['content-length'] = String(bodyLength);
  return out;
}

function pairs(raw: string[]): EdgeHeader[] {
  const out: EdgeHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i], value: raw[i + 1] });
  return out;
}
