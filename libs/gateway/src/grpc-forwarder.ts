/**
 * transport grpc: the routing middleware that forwards a routed request as one Edge.Call
 * (libs/grpc-edge) instead of proxying its HTTP stream. Clients see the same contract as over
 * the HTTP hop: the same headers hygiene, X-Request-Start, X-Forwarded-*, and problem+json for
 * every failure (413 oversized body, 504 deadline, 503 service down, 502 otherwise).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import type { ServiceError } from '@grpc/grpc-js';
import getRawBody from 'raw-body';
import { forwardedRequestStart, pathOf, problem, REQUEST_START_HEADER, sendProblem, type RequestStartProxies } from '@shellgrade/http';
import type { EdgeClient, EdgeHeader, HttpCall, HttpReply } from '@shellgrade/grpc-edge';
import type { GatewayMetrics } from './gateway-metrics';
import type { GatewayMiddleware } from './gateway-proxy';
import { classifyGrpcError } from './grpc-upstream-errors';
import { classifyPath, type UpstreamName } from './route-table';
import { hopByHopHeaders, mergeVary, stripUpstreamCors } from './upstream-headers';

export interface GrpcForwarderOptions {
  clients: Record<UpstreamName, EdgeClient>;
  /** Deadline of every call, counted from the request's arrival at the gateway. */
  timeoutMs: number;
  /** Largest request body forwarded (the variant's http.maxBodyBytes): 413 above it. */
  maxBodyBytes: number;
  metrics: GatewayMetrics;
  /** The proxies in front whose X-Request-Start is kept (GatewayConfig.trustedProxies). */
  proxies: RequestStartProxies;
}

const log = new Logger('GatewayGrpcForwarder');

/** Never relayed back: framing of the service's own (in-process) response. */
const REPLY_FRAMING = new Set(['connection', 'keep-alive', 'transfer-encoding']);

export function createGrpcForwarder(options: GrpcForwarderOptions): GatewayMiddleware {
  const { clients, timeoutMs, maxBodyBytes, metrics, proxies } = options;
  return (req, res, next) => {
    const route = classifyPath(req.url ?? '/');
    if (route.kind === 'local') {
      next();
      return;
    }
    const arrivedAt = Date.now();
    const client = clients[route.upstream];
    const instance = pathOf(req.url ?? '/');
    getRawBody(req, { limit: maxBodyBytes }).then(
      (body) => {
        if (res.destroyed) return;
        const pending = client.call(callOf(req, body, forwardedRequestStart(req, arrivedAt, proxies)), new Date(arrivedAt + timeoutMs));
        let clientLeft = false;
        res.once('close', () => {
          if (res.writableFinished) return;
          clientLeft = true;
          pending.cancel();
        });
        pending.reply.then(
          (reply) => relayReply(reply, res),
          (error: unknown) => {
            const failure = classifyGrpcError(error as object, route.upstream, timeoutMs, maxBodyBytes, clientLeft);
            if (!failure || res.destroyed) return;
            const { code, details } = error as Partial<ServiceError>;
            log.warn(`${req.method} ${instance} → ${route.upstream} ${client.target}: gRPC ${code} ${details ?? ''}`);
            metrics.upstreamError(route.upstream, failure.kind);
            sendProblem(res, { ...problem(failure.status, failure.detail), instance }, failure.status === 503 ? 1 : undefined);
          },
        );
      },
      (error: { type?: string; message?: string }) => {
        if (res.destroyed) return;
        // The rest of an oversized body is not read: close the connection after answering.
        res.setHeader('Connection', 'close');
        const tooLarge = error.type === 'entity.too.large';
        const detail = tooLarge
          ? `request body larger than ${maxBodyBytes} bytes`
          : `request body could not be read: ${error.message ?? 'aborted'}`;
        sendProblem(res, { ...problem(tooLarge ? 413 : 400, detail), instance });
      },
    );
  };
}

/** `requestStart`: the X-Request-Start the service gets (a trusted proxy's, or the gateway's arrival), in place of the client's. */
function callOf(req: IncomingMessage, body: Buffer, requestStart: string): HttpCall {
  const dropped = new Set([...hopByHopHeaders(req.headers.connection), 'transfer-encoding', 'content-length', REQUEST_START_HEADER]);
  const headers: EdgeHeader[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (!dropped.has(name) && !name.startsWith('x-forwarded-')) headers.push({ name, value: req.rawHeaders[i + 1] });
  }
  headers.push({ name: REQUEST_START_HEADER, value: requestStart });
  headers.push(...forwardedHeaders(req));
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
}

/** X-Forwarded-For/-Port/-Proto/-Host appended to what came in, as the HTTP hop's proxy does (xfwd). */
function forwardedHeaders(req: IncomingMessage): EdgeHeader[] {
  const append = (name: string, value: string | undefined) => {
    const prev = req.headers[name];
    const joined = [prev, value].filter((v) => v !== undefined && v !== '').join(',');
    return joined ? [{ name, value: joined }] : [];
  };
  const encrypted = Boolean((req.socket as { encrypted?: boolean }).encrypted);
  return [
    ...append('x-forwarded-for', req.socket.remoteAddress),
    ...append('x-forwarded-port', String(req.socket.localPort ?? '')),
    ...append('x-forwarded-proto', encrypted ? 'https' : 'http'),
    ...append('x-forwarded-host', req.headers.host),
  ];
}

function relayReply(reply: HttpReply, res: ServerResponse): void {
  if (res.destroyed || res.headersSent) return;
  const headers: IncomingHttpHeaders = {};
  for (const { name, value } of reply.headers) {
    const key = name.toLowerCase();
    if (REPLY_FRAMING.has(key)) continue;
    if (key === 'set-cookie') headers[key] = [...(headers[key] ?? []), value];
    else headers[key] = headers[key] === undefined ? value : `${String(headers[key])}, ${value}`;
  }
  stripUpstreamCors(headers);
  const vary = mergeVary(res.getHeader('vary'), headers.vary);
  if (vary) headers.vary = vary;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
  res.statusCode = reply.status;
  res.end(reply.body);
}
