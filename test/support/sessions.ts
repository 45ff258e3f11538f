/** Teacher-side set-up shared by the S1/S2 and cache e2e tests (issue 18), through the public API only. */
import { BrowserSession } from './http-client';
import type { SeededUser } from './scenario-r';

export async function loggedIn(entry: string, email: string, password: string): Promise<BrowserSession> {
  const s = new BrowserSession(entry);
  const r = await s.request('POST', '/api/user/login', { email, password });
  if (r.status !== 200) throw new Error(`login of ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return s;
}

/** A fresh session of the seeded sequence taught by teacher1, with `students` enrolled and one statement each for the CSV's exercise. */
export async function freshSession(teacher: BrowserSession, students: SeededUser[]) {
  const sequences = await teacher.request('GET', '/api/sequences?limit=1000');
  const sequence = (sequences.body as { sequence_id: number; name: string; exercises: number[] }[]).find((s) => s.name === 'Seeded sequence');
  if (!sequence) throw new Error('the seeded sequence is missing: run npm run db -- seed');
  const now = Date.now();
  const created = await teacher.request('POST', '/api/business-session', {
    name: `s1-s2 ${now} ${Math.random()}`,
    sequence_id: sequence.sequence_id,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
  });
  expectStatus(created, 201, 'create session');
  const sessionId = (created.body as { session_id: number }).session_id;
  const enrolled = await teacher.request('POST', `/api/business-session/${sessionId}/enrolments`, { user_ids: students.map((u) => u.userId) });
  expectStatus(enrolled, 200, 'enrol');
  const statements = new Map<number, number>();
  for (const u of students) {
    const st = await teacher.request('POST', '/api/student-statement', { user_id: u.userId, session_id: sessionId, ex_id: u.exerciseId });
    expectStatus(st, 201, 'create statement');
    statements.set(u.userId, (st.body as { ps_id: number }).ps_id);
  }
  return { sessionId, exerciseIds: sequence.exercises, statements };
}


function expectStatus(reply: { status: number; body: unknown }, status: number, what: string): void {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
}
