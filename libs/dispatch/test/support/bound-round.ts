/**
 * Sequential SPS against a replica whose queue is bounded and not consumed: the first ones
 * are accepted (202), the rest refused with 503 + Retry-After as problem+json.
 */
/* eslint-disable-next-line @nx/enforce-module-boundaries -- the browser-like e2e client (libs/http's test support) is shared by every e2e test */
import type { SeededUser } from '../../../http/test/support/scenario-r';

export interface BoundOutcome {
  statuses: number[];
  retryAfter: (string | null)[];
  contentTypes: (string | null)[];
  /** Each answer's JSON body (202: ep_id, status, queued_ahead, estimated_wait_s; 503: problem+json). */
  bodies: Record<string, unknown>[];
}

export async function boundRound(url: string, user: SeededUser, n: number, body: unknown): Promise<BoundOutcome> {
  const login = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const out: BoundOutcome = { statuses: [], retryAfter: [], contentTypes: [], bodies: [] };
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${url}/api/exercise-production`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    out.bodies.push((await r.json()) as Record<string, unknown>);
    out.statuses.push(r.status);
    out.retryAfter.push(r.headers.get('retry-after'));
    out.contentTypes.push(r.headers.get('content-type'));
  }
  return out;
}
