/**
 * A tiny browser-like HTTP client for end-to-end tests: keeps cookies per user and sends
 * the CORS preflight the original SPA's browser sends before each request.
 */
import { Agent, fetch, FormData } from 'undici';

export { FormData };
export const ORIGIN = 'http://localhost:8081';

export interface Reply {
  status: number;
  body: unknown;
  headers: { get(name: string): string | null };
  ms: number;
}

export class BrowserSession {
  private readonly cookies = new Map<string, string>();
  /** Own connection pool: a variant switch restarts the servers, so pooled sockets must not outlive a session. */
  private readonly dispatcher = new Agent({ keepAliveTimeout: 4_000 });

  constructor(readonly baseUrl: string) {}

  /** The same logged-in user against another base URL (e.g. one replica, straight), sharing the cookies. */
  at(baseUrl: string): BrowserSession {
    const other = new BrowserSession(baseUrl);
    for (const [k, v] of this.cookies) other.cookies.set(k, v);
    return other;
  }

  async preflight(method: string, path: string): Promise<number> {
    const res = await fetch(this.baseUrl + path, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
      dispatcher: this.dispatcher,
    });
    await res.arrayBuffer();
    return res.status;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const started = performance.now();
    const isRaw = typeof body === 'string' || body instanceof FormData;
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        Origin: ORIGIN,
        ...(body !== undefined && !isRaw ? { 'Content-Type': 'application/json' } : {}),
        ...(this.cookies.size ? { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isRaw ? (body as string | FormData) : JSON.stringify(body),
      dispatcher: this.dispatcher,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed, headers: res.headers, ms: performance.now() - started };
  }

  /** OPTIONS then the request, as scenario R does. */
  async call(method: string, path: string, body?: unknown): Promise<Reply> {
    await this.preflight(method, path);
    return this.request(method, path, body);
  }
}

/** The original SPA's JSON body: `data` maps byte index to byte value. */
export function spaSubmission(exerciseId: number, statementId: number, archive: Buffer) {
  return {
    ex_id: exerciseId,
    ps_id: statementId,
    production_data: {
      name: 'answer.tgz',
      size: archive.length,
      data: Object.fromEntries([...archive].map((b, i) => [String(i), b])),
    },
  };
}
