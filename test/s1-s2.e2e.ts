// e2e-variants: naked-mon, msa-1-2, mon-redis, msa-grpc-1-2
/**
 * Paper 001: the S1 requests (read a statement — exercise service; enrol / unenrol —
 * leftover service; read one production — exercise service) and the S2 request (a teacher's
 * session report, computed by leftover from every production that exercise holds: over the
 * internal hop in msa-1-2 and msa-grpc-1-2 — REST behind gRPC —, in-process in the monoliths,
 * through the Redis report cache in mon-redis), over real HTTP on launched variants.
 * The report is checked against what the client was told when it submitted.
 */
import { loadSamples } from '@shellgrade/grading';
import { type BrowserSession, spaSubmission } from './support/http-client';
import { freshSession, loggedIn } from './support/sessions';
import type { SeededUser } from './support/scenario-r';
import { seed, variantUp } from './support/stack';

jest.setTimeout(600_000);

const paper = loadSamples('paper-scripts');
let users: SeededUser[];

beforeAll(async () => {
  await variantUp('naked-mon');
  users = await seed(12);
});

interface Report {
  session_id: number;
  pass_mark: number;
  totals: { students: number; exercises: number; productions: number; graded: number; failed: number; pending: number };
  grade_distribution: Record<string, number>;
  exercises: { ex_id: number; attempts: number; students_attempted: number; students_passed: number; pass_rate: number }[];
  students: { user_id: number; attempts: number; best_grades: Record<string, number | null>; exercises_passed: number }[];
}

describe.each(['naked-mon', 'msa-1-2', 'mon-redis', 'msa-grpc-1-2'])('S1 and S2 on %s', (variant) => {
  let entry: string;
  let teacher: BrowserSession;
  beforeAll(async () => {
    entry = (await variantUp(variant)).entry;
    teacher = await loggedIn(entry, 'teacher1@shellgrade.test', 'teacher-password');
  });

  it('S2: the session report counts exactly what the students were told when they submitted', async () => {
    const students = users.slice(0, 3);
    const { sessionId, exerciseIds, statements } = await freshSession(teacher, students);
    const exerciseId = students[0]!.exerciseId;
    // Student 0: a bad then the good answer; student 1: two bad ones; student 2: nothing.
    const plan: [SeededUser, Buffer][] = [
      [students[0]!, paper.bad[0]!.bytes],
      [students[0]!, paper.good],
      [students[1]!, paper.bad[0]!.bytes],
      [students[1]!, paper.bad[1 % paper.bad.length]!.bytes],
    ];
    const told: { userId: number; grade: number }[] = [];
    for (const [u, archive] of plan) {
      const s = await loggedIn(entry, u.email, u.password);
      const r = await s.request('POST', '/api/exercise-production', spaSubmission(exerciseId, statements.get(u.userId)!, archive));
      expect(r.status).toBe(201);
      told.push({ userId: u.userId, grade: (r.body as { grade: number }).grade });
    }

    const reply = await teacher.request('GET', `/api/business-session/${sessionId}/report`);
    expect(reply.status).toBe(200);
    const report = reply.body as Report;
    expect(report.session_id).toBe(sessionId);
    expect(report.totals).toEqual({ students: 3, exercises: exerciseIds.length, productions: told.length, graded: told.length, failed: 0, pending: 0 });

    const bucket = (g: number) => (g === 100 ? '100' : `${Math.floor(g / 10) * 10}-${Math.floor(g / 10) * 10 + 9}`);
    const distribution: Record<string, number> = {};
    for (const t of told) distribution[bucket(t.grade)] = (distribution[bucket(t.grade)] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(report.grade_distribution).filter(([, n]) => n > 0))).toEqual(distribution);

    const bestOf = (userId: number) => {
      const grades = told.filter((t) => t.userId === userId).map((t) => t.grade);
      return grades.length ? Math.max(...grades) : null;
    };
    for (const u of students) {
      const row = report.students.find((s) => s.user_id === u.userId);
      expect(row).toMatchObject({ attempts: told.filter((t) => t.userId === u.userId).length });
      expect(row!.best_grades[String(exerciseId)]).toBe(bestOf(u.userId));
    }
    const passed = students.filter((u) => (bestOf(u.userId) ?? -1) >= report.pass_mark).length;
    expect(report.exercises.find((e) => e.ex_id === exerciseId)).toMatchObject({
      attempts: told.length,
      students_attempted: 2,
      students_passed: passed,
      pass_rate: passed / 3,
    });

    // The CSV export: a header and one line per enrolled student.
    const csv = await teacher.request('GET', `/api/business-session/${sessionId}/report?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(String(csv.body).trim().split('\n')).toHaveLength(1 + students.length);
  });

  it("S2: only the session's teacher or an admin reads the report; a student or another teacher is told it does not exist", async () => {
    const { sessionId } = await freshSession(teacher, users.slice(3, 4));
    const student = await loggedIn(entry, users[3]!.email, users[3]!.password);
    const asStudent = await student.request('GET', `/api/business-session/${sessionId}/report`);
    expect(asStudent.status).toBe(404);
    expect(asStudent.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const other = await loggedIn(entry, 'teacher2@shellgrade.test', 'teacher-password');
    expect((await other.request('GET', `/api/business-session/${sessionId}/report`)).status).toBe(404);
    const admin = await loggedIn(entry, 'admin@shellgrade.test', 'admin-password');
    expect((await admin.request('GET', `/api/business-session/${sessionId}/report`)).status).toBe(200);
    // The exercise service's bulk read is staff-only too.
    expect((await student.request('GET', `/api/exercise-productions/by-session/${sessionId}`)).status).toBe(403);
    const bad = await teacher.request('GET', `/api/business-session/${sessionId}/report?format=pdf`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("format must be 'json' or 'csv'");
  });

  it('S1: read a statement, read a production, unenrol and enrol — a student that left cannot submit until enrolled again', async () => {
    const u = users[4]!;
    const { sessionId, statements } = await freshSession(teacher, [u]);
    const psId = statements.get(u.userId)!;
    const student = await loggedIn(entry, u.email, u.password);
    const statement = await student.request('GET', `/api/student-statement/${psId}`);
    expect(statement.status).toBe(200);
    expect(statement.body).toMatchObject({ ps_id: psId, session_id: sessionId, user_id: u.userId });

    const first = await student.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, psId, paper.good));
    expect(first.status).toBe(201);
    const epId = (first.body as { ep_id: number }).ep_id;
    expect((await student.request('GET', `/api/exercise-production/${epId}`)).body).toMatchObject({ ep_id: epId, grade: 100 });

    const left = await student.request('DELETE', `/api/business-session/${sessionId}/enrolments/${u.userId}`);
    expect(left.status).toBe(200);
    const refused = await student.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, psId, paper.good));
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('not enrolled');
    // Leaving twice: the enrolment is gone.
    expect((await student.request('DELETE', `/api/business-session/${sessionId}/enrolments/${u.userId}`)).status).toBe(404);
    // A student cannot unenrol someone else.
    expect((await student.request('DELETE', `/api/business-session/${sessionId}/enrolments/${users[5]!.userId}`)).status).toBe(404);

    expect((await teacher.request('POST', `/api/business-session/${sessionId}/enrolments`, { user_ids: [u.userId] })).status).toBe(200);
    expect((await student.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, psId, paper.good))).status).toBe(201);
  });
});
