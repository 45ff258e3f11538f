/**
 * One upstream service (exercise or leftover): its replica URLs, a keep-alive agent shared
 * by all its replicas, round-robin choice, and a short "known down" memory so a dead
 * replica costs one refused connection, not one per request.
 */
import { Agent } from 'node:http';
import type { UpstreamName } from './route-table';

/** The spec's gateway.* values (libs/variant holds their defaults). */
export interface UpstreamPoolOptions {
  /** How long a replica that refused a connection is skipped. */
  downCooldownMs: number;
  /** Concurrent sockets per replica; beyond this requests queue inside the agent. */
  maxSockets: number;
  /** Idle sockets kept open per replica for reuse. */
  maxFreeSockets: number;
  now?: () => number;
}

export interface Replica {
  readonly url: string;
  downUntil: number;
}

export type PickResult = { ok: true; replica: Replica } | { ok: false; retryAfterMs: number };

export class UpstreamPool {
  readonly agent: Agent;
  readonly replicas: readonly Replica[];
  private next = 0;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(
    readonly name: UpstreamName,
    urls: readonly string[],
    options: UpstreamPoolOptions,
  ) {
    if (urls.length === 0) throw new Error(`upstream '${name}' has no URL`);
    this.replicas = urls.map((url) => ({ url, downUntil: 0 }));
    this.cooldownMs = options.downCooldownMs;
    this.now = options.now ?? Date.now;
    // Node's agent also honours the upstream's `Keep-Alive: timeout=N` hint and drops idle
    // sockets a second before the server would, which avoids reusing a closing socket.
    this.agent = new Agent({
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxSockets: options.maxSockets,
      maxFreeSockets: options.maxFreeSockets,
      scheduling: 'lifo',
    });
  }

  /** Round-robin over replicas not known to be down. */
  pick(): PickResult {
    const now = this.now();
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.downUntil <= now) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return { ok: true, replica };
      }
    }
    const soonest = Math.min(...this.replicas.map((r) => r.downUntil));
    return { ok: false, retryAfterMs: Math.max(soonest - now, 1) };
  }

  markDown(replica: Replica): void {
    replica.downUntil = this.now() + this.cooldownMs;
  }

  /** Label for messages: the service name and its replica URLs. */
  describe(): string {
    return `${this.name} (${this.replicas.map((r) => r.url).join(', ')})`;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** SG_*_URL may list several replicas separated by commas. */
export function parseUpstreamUrls(name: UpstreamName, spec: string): string[] {
  const urls = spec
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (urls.length === 0) throw new Error(`upstream '${name}': empty URL list`);
  for (const url of urls) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:') {
      throw new Error(`upstream '${name}': only http:// URLs are supported, got ${url}`);
    }
  }
  return urls;
}
