/**
 * `n` concurrent SPS spread over the replicas and users; for 202 answers, polls
 * GET /api/exercise-production/:ep_id until the grade is there (async reply contract).
 */
/* eslint-disable-next-line @nx/enforce-module-boundaries -- the browser-like e2e client (libs/http's test support) is shared by every e2e test */
import type { SeededUser } from '../../../http/test/support/scenario-r';

interface Session {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export async function spsRound(
  urls: string[],
  users: SeededUser[],
  n: number,
  body: (u: SeededUser) => unknown,
  Session: new (baseUrl: string) => Session,
): Promise<{ statuses: number[]; epIds: number[]; finalGrades: (number | null)[] }> {
  const sessions = await Promise.all(
    urls.flatMap((url) =>
      users.map(async (u) => {
        const s = new Session(url);
        const login = await s.request('POST', '/api/user/login', { email: u.email, password: u.password });
        if (login.status !== 200) throw new Error(`login of ${u.email} on ${url}: ${login.status}`);
        return { s, u };
      }),
    ),
  );
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const { s, u } = sessions[i % sessions.length];
      return s.request('POST', '/api/exercise-production', body(u)).then((r) => ({ s, r }));
    }),
  );
  const finalGrades = await Promise.all(
    replies.map(async ({ s, r }) => {
      const b = r.body as { ep_id?: number; grade?: number | null };
      if (r.status === 201) return b.grade ?? null;
      if (r.status !== 202 || !b.ep_id) return null;
      for (let i = 0; i < 120; i++) {
        const got = await s.request('GET', `/api/exercise-production/${b.ep_id}`);
        const view = got.body as { status?: string; grade?: number | null };
        if (view.status === 'graded' || view.status === 'failed') return view.grade ?? null;
        await new Promise((res) => setTimeout(res, 250));
      }
      return null;
    }),
  );
  // What the client was told was accepted (201/202 with an ep_id): the audit counts loss against it.
  const epIds = replies.flatMap(({ r }) => {
    const id = (r.body as { ep_id?: number }).ep_id;
    return (r.status === 201 || r.status === 202) && typeof id === 'number' ? [id] : [];
  });
  return { statuses: replies.map(({ r }) => r.status), epIds, finalGrades };
}
