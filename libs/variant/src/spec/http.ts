// The http section: what the HTTP edge of every service accepts, and who reads its ops routes.
import { z } from 'zod';
import { millis, positiveInt } from './values';

export const opsAccessModes = ['internal', 'public'] as const;

/** What the HTTP edge of every service accepts. */
export const httpSchema = z.strictObject({
  /** Browser origins allowed with credentials, comma-separated; * = any; empty = no CORS (the SPA is served same-origin). */
  corsOrigins: z.string({ error: 'expected comma-separated origins, * or empty' }).default(''),
  /** Largest accepted submission archive (gzip-compressed bytes): 413 above it; the grader checks it again. The body limit derives from it. */
  maxArchiveBytes: positiveInt().default(1024 * 1024),
  /** Who reads /metrics, /docs and /health detail: internal = a credential (the scrape token; a staff account for the console's /ops) or a loopback caller straight to the service; public = anyone (development). */
  opsAccess: z.enum(opsAccessModes).default('internal'),
  /** Idle client connections of a service are kept this long: longer than the idle timeout of what calls it (HAProxy, the gateway's agents, k6), so a reused connection is never closed under a request. */
  keepAliveMs: millis.default(65_000),
  /** A request whose body and answer take longer is cut (Node's server requestTimeout): above every upstream and reply timeout (60 s). */
  requestTimeoutMs: millis.default(120_000),
  /**
   * Connections the kernel holds for a service before it accepts them: listen(2)'s backlog, capped by net.core.somaxconn.
   * Node's default, 511, fills in half a second of a busy event loop when every request opens a connection (k6 without
   * reuse, 2 × capacity); the kernel then drops handshakes, which a client sees as a reset or a dial timeout instead of
   * an answer, the 503 the gates would have given.
   */
  listenBacklog: positiveInt().default(4096),
});
