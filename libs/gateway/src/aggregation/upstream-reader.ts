/**
 * One GET to a service as the gateway's aggregation makes it: over the same connection pools
 * (HTTP) or Edge channels (gRPC) the forwarding uses, with the client's credentials, bounded by
 * the gateway's upstream timeout. The answer is parsed as JSON; a failure is thrown as an
 * UpstreamReadError with the status and wording the forwarding gives it (upstream-errors.ts).
 */
import { request } from 'node:http';
import type { ServiceError } from '@grpc/grpc-js';
import type { EdgeClient } from '@shellgrade/grpc-edge';
import { classifyGrpcError } from '../grpc-upstream-errors';
import { classifyUpstreamError, upstreamTimeoutError, type UpstreamFailure } from '../upstream-errors';
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

/** The reads of one page start together, so each gets the whole budget. */
export type ReadUpstream = (upstream: UpstreamName, path: string, headers: Record<string, string>, timeoutMs: number) => Promise<UpstreamAnswer>;

function parsed(upstream: UpstreamName, status: number, raw: Buffer): UpstreamAnswer {
  try {
    return { status, body: raw.length ? JSON.parse(raw.toString('utf8')) : null };
  } catch {
    throw new UpstreamReadError(502, `the ${upstream} service answered something that is not JSON`);
  }
}

/** A failure as the forwarding classifies it (upstream-errors.ts): the same status and wording for a read. */
const readError = (failure: UpstreamFailure): UpstreamReadError => new UpstreamReadError(failure.status, failure.detail);

export function httpUpstreamReader(pools: Record<UpstreamName, UpstreamPool>): ReadUpstream {
  return (upstream, path, headers, timeoutMs) =>
    new Promise((resolve, reject) => {
      const pool = pools[upstream];
      const picked = pool.pick();
      if (!picked.ok) return reject(new UpstreamReadError(503, `the ${upstream} service is not available right now; retry shortly`));
      const fail = (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const failure = classifyUpstreamError(error, upstream, timeoutMs);
        if (failure.markDown) pool.markDown(picked.replica);
        reject(readError(failure));
      };
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
        res.on('error', fail);
      });
      const timer = setTimeout(() => {
        req.destroy();
        fail(upstreamTimeoutError(timeoutMs));
      }, timeoutMs);
      req.on('error', fail);
      req.end();
    });
}

export function grpcUpstreamReader(clients: Record<UpstreamName, EdgeClient>, maxBodyBytes: number): ReadUpstream {
  return async (upstream, path, headers, timeoutMs) => {
    const call = clients[upstream].call(
      { method: 'GET', path, headers: Object.entries(headers).map(([name, value]) => ({ name, value })), body: Buffer.alloc(0) },
      new Date(Date.now() + timeoutMs),
    );
    const reply = await call.reply.catch((error: Partial<ServiceError>) => {
      // Nobody cancels these calls: classifyGrpcError answers every code.
      throw readError(classifyGrpcError(error, upstream, timeoutMs, maxBodyBytes)!);
    });
    return parsed(upstream, reply.status, Buffer.from(reply.body));
  };
}
