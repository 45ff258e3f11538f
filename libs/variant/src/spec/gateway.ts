// The gateway and haproxy sections: what the gateway does besides forwarding, what runs it, its
// upstream connections, and the balancer's limits and timeouts.
import { z } from 'zod';
import { millis, positiveInt } from './values';

export const balanceAlgorithms = ['roundrobin', 'leastconn', 'first', 'random', 'source'] as const;


/**
 * What the gateway does besides forwarding (paper 003's patterns). proxy: it only routes.
 * aggregation: it also answers GET /api/dashboard itself, from three reads made in parallel
 * (libs/gateway/src/aggregation), where a client would otherwise make them one after another.
 * offloading: it checks the login once and forwards a signed, short-lived identity assertion that
 * the services verify instead (libs/auth identity-assertion.ts); they refuse requests without one.
 */
export const gatewayPatterns = ['proxy', 'aggregation', 'offloading'] as const;

/**
 * What runs the gateway. node: our NestJS gateway (the papers'), every pattern and transport,
 * traced and metered. haproxy: the variant's HAProxy in its place, routing /api by the same
 * route table (libs/gateway route-table.ts) straight to the replicas and answering CORS
 * preflights itself — one C hop instead of a Node process answering every request (the
 * Node hop was most of what msa costs above the monolith). Pattern proxy over http
 * only; the trace of a request starts at the service it reaches, and the leftover serves the
 * web app.
 */
export const gatewayEngines = ['node', 'haproxy'] as const;

export const gatewaySchema = z.strictObject({
  engine: z.enum(gatewayEngines).default('node'),
  pattern: z.enum(gatewayPatterns).default('proxy'),
  /** How long the gateway waits for an upstream answer (504 after it). */
  upstreamTimeoutMs: millis.default(60_000),
  /**
   * Concurrent gateway connections per upstream URL; beyond it requests wait inside the gateway.
   * Sync SPS hold theirs while grading (seconds under load), so this must exceed the SPS in flight.
   */
  upstreamMaxSockets: positiveInt().default(1024),
  /** Idle keep-alive connections kept per upstream URL for reuse; more are closed once a burst is over. */
  upstreamMaxFreeSockets: positiveInt().default(64),
  /** How long a replica that refused a connection answers 503 without being tried. */
  downCooldownMs: millis.default(1_000),
  /** Idle client connections are kept this long (longer than HAProxy's / k6's idle timeouts). */
  clientKeepAliveMs: millis.default(65_000),
});

export const haproxySchema = z.strictObject({
  maxconn: positiveInt().default(4096),
  /** Concurrent requests HAProxy sends one replica before queueing (none = unlimited, the paper's setup). */
  serverMaxconn: positiveInt().optional(),
  balance: z.enum(balanceAlgorithms).default('roundrobin'),
  /** Extra attempts on another server when a connection fails. */
  retries: z.number({ error: 'expected a non-negative integer' }).int().min(0).max(10).default(3),
  timeouts: z
    .strictObject({
      connectMs: millis.default(5_000),
      /** The paper's balancer had a permissive timeout: it buffers while the app is busy. */
      clientMs: millis.default(60_000),
      serverMs: millis.default(60_000),
      queueMs: millis.default(60_000),
    })
    .prefault({}),
});
