/**
 * The gRPC edge of a service (transport: grpc): an Edge.Call hands the HttpCall to the
 * service's own Express application in-process (light-my-request: no socket, no second HTTP
 * hop), so the same controllers, guards, pipes and problem+json filter answer both transports.
 * It also serves grpc.health.v1 (SERVING once listening) for the launcher's readiness checks.
 */
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import inject, { type DispatchFunc } from 'light-my-request';
import { edgeMessageLimit, edgeService, type EdgeHeader, type HttpCall, type HttpReply } from './edge-contract';

export interface EdgeServerOptions {
  host: string;
  port: number;
  /** The variant's http.maxBodyBytes: larger calls are refused with RESOURCE_EXHAUSTED. */
  maxBodyBytes: number;
}

export interface EdgeServer {
  readonly address: string;
  close(): Promise<void>;
}

/** The health service name callers probe: '' (the whole server) as grpc.health.v1 recommends. */
export const EDGE_HEALTH_SERVICE = '';

export async function startEdgeServer(dispatch: DispatchFunc, options: EdgeServerOptions): Promise<EdgeServer> {
  const limit = edgeMessageLimit(options.maxBodyBytes);
  const server = new grpc.Server({ 'grpc.max_receive_message_length': limit, 'grpc.max_send_message_length': limit });
  server.addService(edgeService().service, {
    Call: (call: grpc.ServerUnaryCall<HttpCall, HttpReply>, callback: grpc.sendUnaryData<HttpReply>) => {
      relay(dispatch, call.request).then(
        (reply) => callback(null, reply),
        (error: unknown) => callback({ code: grpc.status.INTERNAL, details: `the service failed to answer: ${(error as Error).message}` }),
      );
    },
  });
  const health = new HealthImplementation({ [EDGE_HEALTH_SERVICE]: 'NOT_SERVING' });
  health.addToServer(server);
  const address = `${options.host}:${options.port}`;
  await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  health.setStatus(EDGE_HEALTH_SERVICE, 'SERVING');
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        health.setStatus(EDGE_HEALTH_SERVICE, 'NOT_SERVING');
        server.tryShutdown(() => resolve());
      }),
  };
}

async function relay(dispatch: DispatchFunc, call: HttpCall): Promise<HttpReply> {
  const headers: Record<string, string | string[]> = {};
  for (const { name, value } of call.headers) {
    const key = name.toLowerCase();
    const prev = headers[key];
    headers[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  const res = await inject(dispatch, {
    method: call.method as 'GET',
    url: call.path,
    headers,
    payload: call.body.length > 0 ? call.body : undefined,
    remoteAddress: call.remoteAddress || undefined,
  });
  return { status: res.statusCode, headers: flattenHeaders(res.headers), body: res.rawPayload };
}

function flattenHeaders(headers: Record<string, string | string[] | number | undefined>): EdgeHeader[] {
  const out: EdgeHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push({ name, value: String(v) });
  }
  return out;
}
