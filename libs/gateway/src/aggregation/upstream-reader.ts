/**
 * One GET to a service as the gateway's aggregation makes it: over the same connection pools
 * (HTTP) or Edge channels (gRPC) the forwarding uses, with the client's credentials, bounded by
 * a deadline. The answer is parsed as JSON; failures are thrown as UpstreamReadError.
 */
import { request } from 'node:http';
import type { EdgeClient } from '@shellgrade/grpc-edge';
import type { UpstreamName } from '../route-table';
import type { UpstreamPool } from '../upstream-pool';

export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

/** A service that did not answer: the status the client would see for it (502/503/504). */
export class UpstreamReadError extends Error {
  constructor(
    readonly status: 502 | 503 | 504,
    detail: string,
  ) {
    super(detail);
  }
}

export type ReadUpstream = (upstream: UpstreamName, path: string, headers: Record<string, string>, deadline: number) => Promise<UpstreamAnswer>;

function parsed(upstream: UpstreamName, status: number, raw: Buffer): UpstreamAnswer {
  try {
    return { status, body: raw.length ? JSON.parse(raw.toString('utf8')) : null };
  } catch {
    throw new UpstreamReadError(502, `the ${upstream} service answered something that is not JSON`);
  }
}

export function httpUpstreamReader(pools: Record<UpstreamName, UpstreamPool>): ReadUpstream {
  return (upstream, path, headers, deadline) =>
    new Promise((resolve, reject) => {
      const pool = pools[upstream];
      const picked = pool.pick();
      if (!picked.ok) return reject(new UpstreamReadError(503, `the ${upstream} service is not available right now; retry shortly`));
      const req = request(new URL(path, picked.replica.url), { method: 'GET', agent: pool.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          try {
            resolve(parsed(upstream, res.statusCode ?? 502, Buffer.concat(chunks)));
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on('error', () => reject(new UpstreamReadError(502, `the ${upstream} service closed the connection before answering`)));
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new UpstreamReadError(504, `the ${upstream} service did not answer in time`));
      }, Math.max(deadline - Date.now(), 0));
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error.code === 'ECONNREFUSED') pool.markDown(picked.replica);
        reject(new UpstreamReadError(502, `the ${upstream} service is not available right now; retry shortly`));
      });
      req.end();
    });
}

export function grpcUpstreamReader(clients: Record<UpstreamName, EdgeClient>): ReadUpstream {
  return async (upstream, path, headers, deadline) => {
    const call = clients[upstream].call(
      { method: 'GET', path, headers: Object.entries(headers).map(([name, value]) => ({ name, value })), body: Buffer.alloc(0) },
      new Date(deadline),
    );
    const reply = await call.reply.catch((error: { code?: number }) => {
      // 4 DEADLINE_EXCEEDED; anything else means the service is not there to answer.
      throw error.code === 4
        ? new UpstreamReadError(504, `the ${upstream} service did not answer in time`)
        : new UpstreamReadError(503, `the ${upstream} service is unavailable (not running or restarting); retry shortly`);
    });
    return parsed(upstream, reply.status, Buffer.from(reply.body));
  };
}
