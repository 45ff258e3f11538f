/**
 * The routing middleware: classify the path, pick an upstream replica and hand the
 * untouched request stream to http-proxy-middleware. Everything the gateway adds to a
 * proxied exchange (response timeout, error mapping, header hygiene) lives here.
 * CORS headers and OPTIONS preflights are handled earlier by the app's CORS middleware.
 */
import { Logger } from '@nestjs/common';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyMiddleware, debugProxyErrorsPlugin, type Plugin, type RequestHandler } from 'http-proxy-middleware';
import { forwardedRequestStart, pathOf, problem, REQUEST_START_HEADER, sendProblem, type Problem, type RequestStartProxies } from '@shellgrade/http';
import type { GatewayMetrics } from './gateway-metrics';
import { classifyPath, type UpstreamName } from './route-table';
import { classifyUpstreamError, upstreamTimeoutError } from './upstream-errors';
import { hopByHopHeaders, mergeVary, stripUpstreamCors } from './upstream-headers';
import type { Replica, UpstreamPool } from './upstream-pool';

/** Internal addresses go to the log only; clients read the service name (upstream-errors.ts). */
const log = new Logger('GatewayProxy');

export interface GatewayProxyOptions {
  upstreams: Record<UpstreamName, UpstreamPool>;
  /** Time allowed from forwarding the request to receiving the upstream's response head. */
  timeoutMs: number;
  metrics: GatewayMetrics;
  /** The proxies in front whose X-Request-Start is kept (GatewayConfig.trustedProxies). */
  proxies: RequestStartProxies;
}

export type NextFunction = (err?: unknown) => void;
export type GatewayMiddleware = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void;

/** Per-request state shared between the dispatcher and the proxy event handlers. */
interface Exchange {
  replica: Replica;
  /** When the gateway received the request (forwarded as X-Request-Start). */
  arrivedAt: number;
  proxyReq?: ClientRequest;
  timer?: NodeJS.Timeout;
  /** The client's own Connection header, taken off the forwarded head and put back for http-proxy's reply to the client. */
  clientConnection?: string;
}
const exchanges = new WeakMap<IncomingMessage, Exchange>();

export function createGatewayProxy(options: GatewayProxyOptions): GatewayMiddleware {
  const { upstreams, metrics } = options;
  const proxies: Record<UpstreamName, RequestHandler> = {
    exercise: proxyFor(upstreams.exercise, options),
    leftover: proxyFor(upstreams.leftover, options),
  };

  return (req, res, next) => {
    const route = classifyPath(req.url ?? '/');
    if (route.kind === 'local') {
      next();
      return;
    }
    const pool = upstreams[route.upstream];
    const pick = pool.pick();
    if (!pick.ok) {
      metrics.upstreamError(pool.name, 'down');
      const detail = `the ${pool.name} service is down (it refused connections moments ago); retry shortly`;
      sendProblem(res, withInstance(problem(503, detail), req), Math.ceil(pick.retryAfterMs / 1000));
      return;
    }
    const exchange: Exchange = { replica: pick.replica, arrivedAt: Date.now() };
    exchanges.set(req, exchange);
    forwardedHeaders(req, exchange, options.proxies);
    // A client that hangs up cancels the upstream call too (http-proxy only notices
    // aborts of requests whose body was still arriving).
    res.once('close', () => {
      clearTimeout(exchange.timer);
      if (!res.writableFinished) exchange.proxyReq?.destroy();
    });
    void proxies[route.upstream](req, res, next);
  };
}

function proxyFor(pool: UpstreamPool, options: GatewayProxyOptions): RequestHandler {
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: pool.replicas[0].url,
    router: (req) => exchanges.get(req)?.replica.url ?? pool.replicas[0].url,
    changeOrigin: false,
    xfwd: true,
    agent: pool.agent,
    // The default plugins would write their own plain-text 502/504; ours writes problem+json.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, gatewayPlugin(pool, options)],
  });
}

function gatewayPlugin(pool: UpstreamPool, { timeoutMs, metrics }: GatewayProxyOptions): Plugin<IncomingMessage, ServerResponse> {
  return (proxyServer) => {
    // http-proxy emits proxyReq when the upstream request gets its socket. Under overload that is
    // after the client's body has ended and the head was written: no header may be set here
    // (ERR_HTTP_HEADERS_SENT thrown from an emitter crashed the gateway); forwardedHeaders did it.
    proxyServer.on('proxyReq', (proxyReq: ClientRequest, req: IncomingMessage, res: ServerResponse) => {
      const exchange = exchanges.get(req);
      if (!exchange) return;
      if (res.destroyed) {
        proxyReq.destroy();
        return;
      }
      exchange.proxyReq = proxyReq;
      exchange.timer = setTimeout(() => proxyReq.destroy(upstreamTimeoutError(timeoutMs)), timeoutMs);
      const clear = () => clearTimeout(exchange.timer);
      proxyReq.once('response', clear);
      proxyReq.once('close', clear);
    });

    proxyServer.on('proxyRes', (proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) => {
      // The client's keep-alive choice, for http-proxy's answer to it (its setConnection pass runs after this event).
      const clientConnection = exchanges.get(req)?.clientConnection;
      if (clientConnection !== undefined) req.headers.connection = clientConnection;
      stripUpstreamCors(proxyRes.headers);
      delete proxyRes.headers['keep-alive'];
      const vary = mergeVary(res.getHeader('vary'), proxyRes.headers.vary);
      if (vary) proxyRes.headers.vary = vary;
      // An upstream that dies mid-body: cut the client too instead of leaving it waiting.
      proxyRes.once('close', () => {
        if (proxyRes.complete || res.destroyed) return;
        metrics.upstreamError(pool.name, 'reset');
        res.destroy();
      });
    });

    proxyServer.on('error', (err: Error, req: IncomingMessage, res: ServerResponse | Socket) => {
      const exchange = exchanges.get(req);
      if (exchange) clearTimeout(exchange.timer);
      const replicaUrl = exchange?.replica.url ?? pool.replicas[0].url;
      const failure = classifyUpstreamError(err as NodeJS.ErrnoException, pool.name, timeoutMs);
      log.warn(`${req.method} ${pathOf(req.url ?? '/')} → ${pool.name} ${replicaUrl}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
      if (failure.markDown && exchange) pool.markDown(exchange.replica);
      metrics.upstreamError(pool.name, failure.kind);
      if (!('writeHead' in res) || res.headersSent || res.destroyed) {
        // Too late for a status code: a truncated response is the only honest signal left.
        res.destroy();
        return;
      }
      sendProblem(res, withInstance(problem(failure.status, failure.detail), req));
    });
  };
}

/**
 * The request head as the upstream gets it, set on the incoming headers before http-proxy copies
 * them: hop-by-hop headers dropped, and the arrival time (upstream waits, a sync reply's, are
 * budgeted from here, not from when a socket was free) unless one of our proxies before us stamped
 * it — a client's own stamp is replaced: the services believe the gateway's.
 */
function forwardedHeaders(req: IncomingMessage, exchange: Exchange, proxies: RequestStartProxies): void {
  exchange.clientConnection = req.headers.connection;
  for (const name of hopByHopHeaders(req.headers.connection)) delete req.headers[name];
  req.headers[REQUEST_START_HEADER] = forwardedRequestStart(req, exchange.arrivedAt, proxies);
}

function withInstance(body: Problem, req: IncomingMessage): Problem {
  return { ...body, instance: pathOf(req.url ?? '/') };
}
