/** Teacher-side set-up shared by the S1/S2, cache and browser e2e tests, through the public API only. */
import { randomBytes } from 'node:crypto';
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


/**
 * A student account of its own for one test, so that nothing from earlier runs shows in its
 * lists: created by the admin, enrolled in the seeded session (npm run db -- seed) with a
 * statement of `exerciseId`.
 */
export async function freshStudent(entry: string, exerciseId: number): Promise<{ email: string; password: string; userId: number }> {
  const admin = await loggedIn(entry, 'admin@shellgrade.test', 'admin-password');
  const email = `fresh-${randomBytes(6).toString('hex')}@shellgrade.test`;
  const password = 'fresh-student-password';
  const created = await admin.request('POST', '/api/user', { email, password, role: 'student', firstname: 'Fresh' });
  expectStatus(created, 201, 'create student');
  const userId = (created.body as { user_id: number }).user_id;
  const sessions = await admin.request('GET', '/api/business-sessions?limit=1000');
  const session = (sessions.body as { session_id: number; name: string }[]).find((s) => s.name === 'Seeded session');
  if (!session) throw new Error('the seeded session is missing: run npm run db -- seed');
  expectStatus(await admin.request('POST', `/api/business-session/${session.session_id}/enrolments`, { user_ids: [userId] }), 200, 'enrol');
  const statement = await admin.request('POST', '/api/student-statement', { user_id: userId, session_id: session.session_id, ex_id: exerciseId });
  expectStatus(statement, 201, 'create statement');
  return { email, password, userId };
}

function expectStatus(reply: { status: number; body: unknown }, status: number, what: string): void {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
}
