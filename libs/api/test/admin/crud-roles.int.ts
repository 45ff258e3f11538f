import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AuthModule } from '@shellgrade/auth';
import { configureHttpApp } from '@shellgrade/http';
import { createPool, persistenceProviders, PgProductionRepository } from '@shellgrade/persistence';
import { createTestDatabase, type TestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_ENROLMENT_KEY, SEED_PASSWORDS, type SeedResult } from '@shellgrade/admin-cli/seed';
import {
  apiContractSchemas,
  businessSessionBody,
  exerciseBody,
  listOf,
  schemaRef,
  sequenceBody,
  sessionUserBody,
  statementBody,
} from '@shellgrade/api-contract';
import type { Pool } from 'pg';
import type { z } from 'zod';
import request from 'supertest';
import { LeftoverApiModule, StatementApiModule } from '../../src/admin/leftover-api.module';
import { testAuthConfig, testHttpOptions } from '../support/service-settings';
// The process's port table, as the services bind it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { directSubmissionContextProviders, portsModule } from '@shellgrade/wiring';

const catalog = [
  { slug: 'paper-scripts', name: 'Paper', statementHtml: '<p>paper</p>', questionArchive: Buffer.from([1, 2]), graderScript: 'secret grader', locale: 'en', skills: ['a'] },
  { slug: 'file-permissions', name: 'Perms', statementHtml: '<p>perms</p>', questionArchive: Buffer.from([3]), graderScript: 'secret grader 2', locale: 'en', skills: [] },
];

type Agent = ReturnType<typeof request.agent>;
interface OpenApiDoc {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> } | undefined>>;
}

describe('CRUD endpoints and role checks (Nest app, real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let app: INestApplication;
  let seeded: SeedResult;
  let admin: Agent;
  let teacher: Agent;
  let student: Agent;
  let student2: Agent;
  /** A second teacher: owns nothing the seed created (teacher1 authored it all). */
  let teacher2: Agent;

  const login = async (email: string, password: string): Promise<Agent> => {
    const agent = request.agent(app.getHttpServer());
    await agent.post('/api/user/login').send({ email, password }).expect(200);
    return agent;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, size: 2, idleTimeoutMs: 30_000 });
    seeded = await seed(pool, { students: 2, teachers: 2, catalog, kdfCost: 4 });
    const database = persistenceProviders({ url: db.url, poolSize: 5, idleTimeoutMs: 30_000 });
    const moduleRef = await Test.createTestingModule({
      imports: [portsModule([...database, ...directSubmissionContextProviders]), AuthModule.forRoot(testAuthConfig()), LeftoverApiModule, StatementApiModule],
    }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>();
    configureHttpApp(app as NestExpressApplication, testHttpOptions({ corsOrigins: '*' }));
    await app.init();
    admin = await login('admin@shellgrade.test', SEED_PASSWORDS.admin);
    teacher = await login('teacher1@shellgrade.test', SEED_PASSWORDS.teacher);
    student = await login('student1@shellgrade.test', SEED_PASSWORDS.student);
    student2 = await login('student2@shellgrade.test', SEED_PASSWORDS.student);
    teacher2 = await login('teacher2@shellgrade.test', SEED_PASSWORDS.teacher);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await db?.drop();
  });

  it.each(['/api/users', '/api/exercises', '/api/sequences', '/api/business-sessions', '/api/student-statement', '/api/exercise-production'])(
    '401 problem+json without a token on %s',
    async (path) => {
      const res = await request(app.getHttpServer()).get(path).expect(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    },
  );

  it('documents the CRUD routes in the OpenAPI document', async () => {
    const res = await request(app.getHttpServer()).get('/docs-json').expect(200);
    const paths = Object.keys(res.body.paths as Record<string, unknown>);
    for (const p of ['/api/users', '/api/exercise/{id}', '/api/sequences', '/api/business-session/{id}/enrolments', '/api/student-statement', '/api/exercise-production']) {
      expect(paths).toContain(p);
    }
  });

  it('serves the API contract at /docs (what the web app types are generated from) and answers by it', async () => {
    const doc = (await request(app.getHttpServer()).get('/docs-json').expect(200)).body as OpenApiDoc;
    for (const [name, schema] of Object.entries(apiContractSchemas())) expect(doc.components.schemas[name]).toEqual(schema);
    const answerOf = (path: string, method: string, status: string) => doc.paths[path]?.[method]?.responses[status]?.content['application/json'].schema;
    expect(answerOf('/api/exercises', 'get', '200')).toEqual(listOf(exerciseBody));
    expect(answerOf('/api/exercise/{id}', 'get', '200')).toEqual(schemaRef(exerciseBody));
    expect(answerOf('/api/business-sessions', 'post', '201')).toEqual(schemaRef(businessSessionBody));
    expect(answerOf('/api/user/login', 'post', '200')).toEqual(schemaRef(sessionUserBody));
    // The real answers, each key by the contract and no other (timestamps as ISO strings).
    const lists: [string, z.ZodObject][] = [
      ['/api/exercises', exerciseBody],
      ['/api/sequences', sequenceBody],
      ['/api/business-sessions', businessSessionBody],
      ['/api/student-statements', statementBody],
      ['/api/users', sessionUserBody],
    ];
    for (const [path, body] of lists) {
      const rows = (await admin.get(path).expect(200)).body as unknown[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(body.strict().safeParse(row).error).toBeUndefined();
    }
    const full = (await admin.get(`/api/exercise/${seeded.csvExerciseId}`).expect(200)).body as unknown;
    expect(exerciseBody.strict().safeParse(full).error).toBeUndefined();
  });

  describe('users', () => {
    it('a student sees only itself; another account is "not found", like a missing one', async () => {
      const me = seeded.students[0]!.userId;
      const list = await student.get('/api/users').expect(200);
      expect(list.body.map((u: { user_id: number }) => u.user_id)).toEqual([me]);
      await student.get(`/api/user/${seeded.students[1]!.userId}`).expect(404);
      await student.get('/api/user/999999').expect(404);
      await student.get(`/api/user/${me}`).expect(200);
    });

    it('staff list everyone, filtered by role', async () => {
      const res = await teacher.get('/api/users?role=student').expect(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[0]).not.toHaveProperty('password_hash');
    });

    it('only an admin creates and deletes accounts; the new account can log in', async () => {
      const body = { email: 'New.User@shellgrade.test', password: 'a-long-password', firstname: 'New', role: 'teacher' };
      await teacher.post('/api/user').send(body).expect(403);
      const created = await admin.post('/api/user').send(body).expect(201);
      expect(created.body).toMatchObject({ email: 'new.user@shellgrade.test', role: 'teacher', lastname: '' });
      await admin.post('/api/users').send(body).expect(409);
      await login('new.user@shellgrade.test', 'a-long-password');
      await teacher.delete(`/api/user/${created.body.user_id}`).expect(403);
      await admin.delete(`/api/user/${created.body.user_id}`).expect(200);
      await admin.get(`/api/user/${created.body.user_id}`).expect(404);
    });

    it('a user edits its own names but not its role; bad input is 400', async () => {
      const me = seeded.students[0]!.userId;
      const res = await student.patch(`/api/user/${me}`).send({ firstname: 'Renamed' }).expect(200);
      expect(res.body).toMatchObject({ firstname: 'Renamed', lastname: '1', role: 'student' });
      await student.patch(`/api/user/${me}`).send({ role: 'admin' }).expect(403);
      await student.patch(`/api/user/${seeded.students[1]!.userId}`).send({ firstname: 'x' }).expect(404);
      await student.patch(`/api/user/${me}`).send({}).expect(400);
      await student.patch(`/api/user/${me}`).send({ unknown: 1 }).expect(400);
      await admin.get('/api/user/not-a-number').expect(400);
      await admin.post('/api/user').send({ email: 'bad', password: 'short' }).expect(400);
    });
  });

  describe('exercises', () => {
    it('students see published exercises without the grading script; staff see it', async () => {
      const list = await student.get('/api/exercises').expect(200);
      expect(list.body).toHaveLength(2);
      expect(list.body[0]).not.toHaveProperty('grader_script');
      const one = await student.get(`/api/exercise/${seeded.csvExerciseId}`).expect(200);
      expect(one.body).toMatchObject({ slug: 'paper-scripts', question_archive: Buffer.from([1, 2]).toString('base64') });
      expect(one.body).not.toHaveProperty('grader_script');
      const staff = await teacher.get(`/api/exercise/${seeded.csvExerciseId}`).expect(200);
      expect(staff.body.grader_script).toBe('secret grader');
    });

    it('teachers create drafts students cannot see until published', async () => {
      const body = { slug: 'new-one', name: 'New', statement: '<p>n</p>', question_archive: Buffer.from('abc').toString('base64'), grader_script: 'print(1)' };
      await student.post('/api/exercise').send(body).expect(403);
      const created = await teacher.post('/api/exercise').send(body).expect(201);
      expect(created.body).toMatchObject({ state: 'draft', author_id: seeded.teacherIds[0] });
      const id = created.body.ex_id as number;
      await student.get(`/api/exercise/${id}`).expect(404);
      await teacher.post('/api/exercise').send(body).expect(409);
      await teacher.patch(`/api/exercise/${id}`).send({ state: 'published' }).expect(200);
      await student.get(`/api/exercise/${id}`).expect(200);
      await teacher.post('/api/exercise').send({ ...body, slug: 'Bad Slug' }).expect(400);
      await teacher.post('/api/exercise').send({ ...body, slug: 'x2', question_archive: '***' }).expect(400);
      await teacher.delete(`/api/exercise/${id}`).expect(200);
      await teacher.delete(`/api/exercise/${id}`).expect(404);
    });

    it('a teacher changes only the exercises it authored ("not found" otherwise); an admin changes any', async () => {
      await admin.post('/api/user').send({ email: 'teacher9@shellgrade.test', password: 'teacher9-password', role: 'teacher' }).expect(201);
      const other = await login('teacher9@shellgrade.test', 'teacher9-password');
      const id = seeded.csvExerciseId; // authored by teacher1
      await other.get(`/api/exercise/${id}`).expect(200); // staff read every exercise
      await other.patch(`/api/exercise/${id}`).send({ name: 'Hijacked' }).expect(404);
      await other.put(`/api/exercise/${id}`).send({ grader_script: 'print(100)' }).expect(404);
      await other.delete(`/api/exercise/${id}`).expect(404);
      expect((await teacher.get(`/api/exercise/${id}`).expect(200)).body.name).toBe('Paper');
      const own = await other
        .post('/api/exercise')
        .send({ slug: 'teacher9-own', name: 'Own', statement: '<p/>', question_archive: '', grader_script: 'print(1)' })
        .expect(201);
      await other.patch(`/api/exercise/${own.body.ex_id}`).send({ name: 'Still mine' }).expect(200);
      await teacher.patch(`/api/exercise/${own.body.ex_id}`).send({ name: 'Not yours' }).expect(404);
      await admin.patch(`/api/exercise/${own.body.ex_id}`).send({ name: 'Admin may' }).expect(200);
      await admin.delete(`/api/exercise/${own.body.ex_id}`).expect(200);
    });

    it('refuses to delete an exercise students work on (409, no data loss)', async () => {
      await admin.delete(`/api/exercise/${seeded.csvExerciseId}`).expect(409);
    });
  });

  describe('sequences', () => {
    it('staff create ordered sequences, everyone reads them', async () => {
      const ids = [seeded.exerciseIds['file-permissions']!, seeded.csvExerciseId];
      await student.post('/api/sequence').send({ name: 's', exercises: ids }).expect(403);
      const created = await teacher.post('/api/sequence').send({ name: 'Ordered', exercises: ids }).expect(201);
      expect(created.body.exercises).toEqual(ids);
      const read = await student.get(`/api/sequences/${created.body.sequence_id}`).expect(200);
      expect(read.body.exercises).toEqual(ids);
      await teacher.put(`/api/sequence/${created.body.sequence_id}`).send({ exercises: [ids[1]] }).expect(200);
      await teacher.post('/api/sequence').send({ name: 'Broken', exercises: [999_999] }).expect(409);
      await teacher.post('/api/sequence').send({ name: 'Dup', exercises: [ids[0], ids[0]] }).expect(400);
    });
  });

  describe('business sessions and enrolment', () => {
    it('students see only sessions they are enrolled in; nobody reads a key back, the database holds a hash', async () => {
      const list = await student.get('/api/business-sessions').expect(200);
      expect(list.body.map((s: { session_id: number }) => s.session_id)).toEqual([seeded.sessionId]);
      expect(list.body[0]).not.toHaveProperty('enrolment_key');
      const staff = await teacher.get(`/api/business-session/${seeded.sessionId}`).expect(200);
      expect(staff.body).not.toHaveProperty('enrolment_key');
      const { rows } = await pool.query('SELECT enrolment_key_hash FROM business_sessions');
      for (const r of rows) expect(r.enrolment_key_hash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(rows)).not.toContain(SEED_ENROLMENT_KEY);
      // The seeded (hashed) key still enrols.
      await student2.post(`/api/business-session/${seeded.sessionId}/enrolments`).send({ enrolment_key: SEED_ENROLMENT_KEY }).expect(200);
    });

    it('a key is long: a short one is refused, an omitted one is generated and shown once', async () => {
      const body = { name: 'Spring', sequence_id: seeded.sequenceId, starts_at: '2026-03-01T00:00:00Z', ends_at: '2026-06-30T00:00:00Z' };
      await teacher.post('/api/business-session').send({ ...body, enrolment_key: 'short-key' }).expect(400);
      const created = await teacher.post('/api/business-session').send(body).expect(201);
      expect(created.body.enrolment_key).toMatch(/^[a-z2-9]{20}$/);
      const read = await teacher.get(`/api/business-session/${created.body.session_id}`).expect(200);
      expect(read.body).not.toHaveProperty('enrolment_key');
      await student.post(`/api/business-session/${created.body.session_id}/enrolments`).send({ enrolment_key: created.body.enrolment_key }).expect(200);
    });

    it('a student enrols itself with the key', async () => {
      const body = {
        name: 'Autumn',
        sequence_id: seeded.sequenceId,
        starts_at: '2026-09-01T00:00:00Z',
        ends_at: '2026-12-31T00:00:00Z',
        enrolment_key: 'autumn-key-2026',
      };
      await student.post('/api/business-session').send(body).expect(403);
      await teacher.post('/api/business-session').send({ ...body, ends_at: '2026-01-01T00:00:00Z' }).expect(400);
      const created = await teacher.post('/api/business-session').send(body).expect(201);
      const id = created.body.session_id as number;
      expect(created.body.teacher_id).toBe(seeded.teacherIds[0]);
      await student.get(`/api/business-session/${id}`).expect(404);
      await student.post(`/api/business-session/${id}/enrolments`).send({ enrolment_key: 'wrong' }).expect(400);
      await student.post(`/api/business-session/${id}/enrolments`).send({ user_ids: [1] }).expect(403);
      await student.post(`/api/business-session/${id}/enrolments`).send({ enrolment_key: 'autumn-key-2026' }).expect(200);
      await student.get(`/api/business-session/${id}`).expect(200);
      const enrolled = await teacher.get(`/api/business-session/${id}/enrolments`).expect(200);
      expect(enrolled.body.user_ids).toEqual([seeded.students[0]!.userId]);
    });

    it('refuses to delete a session with statements (409)', async () => {
      await teacher.delete(`/api/business-session/${seeded.sessionId}`).expect(409);
    });
  });

  describe('student statements', () => {
    it('students see only their own statements', async () => {
      const mine = await student.get('/api/student-statement').expect(200);
      expect(mine.body).toHaveLength(2);
      expect(mine.body.every((s: { user_id: number }) => s.user_id === seeded.students[0]!.userId)).toBe(true);
      // Filtering by another user is ignored for students.
      const filtered = await student.get(`/api/student-statements?user_id=${seeded.students[1]!.userId}`).expect(200);
      expect(filtered.body.every((s: { user_id: number }) => s.user_id === seeded.students[0]!.userId)).toBe(true);
      await student.get(`/api/student-statement/${seeded.students[1]!.statementId}`).expect(404);
      const own = await student.get(`/api/student-statement/${seeded.students[0]!.statementId}`).expect(200);
      expect(own.body).toMatchObject({ ps_id: seeded.students[0]!.statementId, question_archive: expect.any(String) });
      const all = await teacher.get('/api/student-statement').expect(200);
      expect(all.body).toHaveLength(4);
    });

    it('staff create (defaults from the exercise), reschedule and delete statements', async () => {
      const body = { user_id: seeded.students[1]!.userId, session_id: seeded.sessionId, ex_id: seeded.csvExerciseId };
      await teacher.post('/api/student-statement').send(body).expect(409); // already seeded
      await student.post('/api/student-statement').send(body).expect(403);
      const seq = await teacher.post('/api/sequence').send({ name: 'For statements', exercises: [seeded.csvExerciseId] }).expect(201);
      const session = await teacher
        .post('/api/business-session')
        .send({ name: 'Winter', sequence_id: seq.body.sequence_id, starts_at: '2026-01-01', ends_at: '2027-01-01', enrolment_key: 'winter-key-2026' })
        .expect(201);
      const created = await teacher
        .post('/api/student-statement')
        .send({ ...body, session_id: session.body.session_id, deadline: '2030-06-01T12:00:00Z' })
        .expect(201);
      expect(created.body).toMatchObject({ statement: '<p>paper</p>', deadline: '2030-06-01T12:00:00.000Z' });
      const moved = await teacher.patch(`/api/student-statement/${created.body.ps_id}`).send({ deadline: null }).expect(200);
      expect(moved.body.deadline).toBeNull();
      await student2.get(`/api/student-statement/${created.body.ps_id}`).expect(200);
      await teacher.patch(`/api/student-statement/${created.body.ps_id}`).send({ deadline: 'not a date' }).expect(400);
      await teacher.delete(`/api/student-statement/${created.body.ps_id}`).expect(200);
      await teacher.post('/api/student-statement').send({ ...body, ex_id: 999_999 }).expect(404);
    });
  });

  describe('ownership: a teacher changes only its own sessions, sequences and statements ("not found" otherwise); an admin changes any', () => {
    const teacherOf = async (sessionId: number) =>
      (await pool.query<{ teacher_id: number }>('SELECT teacher_id FROM business_sessions WHERE id = $1', [sessionId])).rows[0]!.teacher_id;
    const newSession = (name: string, extra: Record<string, unknown> = {}) => ({
      name, sequence_id: seeded.sequenceId, starts_at: '2026-01-01', ends_at: '2027-01-01', enrolment_key: `${name}-enrolment-key`, ...extra,
    });

    it("another teacher's session is not found for changes: no take-over through teacher_id", async () => {
      const id = seeded.sessionId; // teacher1's
      const [t1, t2] = [seeded.teacherIds[0]!, seeded.teacherIds[1]!];
      await teacher2.get(`/api/business-session/${id}`).expect(200); // staff read every session
      await teacher2.patch(`/api/business-session/${id}`).send({ teacher_id: t2 }).expect(404);
      await teacher2.put(`/api/business-session/${id}`).send({ name: 'Hijacked' }).expect(404);
      await teacher2.delete(`/api/business-session/${id}`).expect(404);
      await teacher2.post(`/api/business-session/${id}/enrolments`).send({ user_ids: [seeded.students[1]!.userId] }).expect(404);
      await teacher2.delete(`/api/business-session/${id}/enrolments/${seeded.students[0]!.userId}`).expect(404);
      expect(await teacherOf(id)).toBe(t1);
      expect((await teacher.get(`/api/business-session/${id}`).expect(200)).body.name).toBe('Seeded session');
      expect((await teacher.get(`/api/business-session/${id}/enrolments`).expect(200)).body.user_ids).toContain(seeded.students[0]!.userId);
    });

    it('a teacher cannot hand a session to someone else (403); an admin may, and the new owner then changes it', async () => {
      const [t1, t2] = [seeded.teacherIds[0]!, seeded.teacherIds[1]!];
      await teacher2.post('/api/business-session').send(newSession('planted', { teacher_id: t1 })).expect(403);
      const own = await teacher.post('/api/business-session').send(newSession('handover', { teacher_id: t1 })).expect(201);
      const id = own.body.session_id as number;
      await teacher.patch(`/api/business-session/${id}`).send({ teacher_id: t2 }).expect(403);
      await teacher.patch(`/api/business-session/${id}`).send({ teacher_id: t1, name: 'handover-kept' }).expect(200);
      expect(await teacherOf(id)).toBe(t1);
      await admin.patch(`/api/business-session/${id}`).send({ teacher_id: t2 }).expect(200);
      expect(await teacherOf(id)).toBe(t2);
      await teacher.patch(`/api/business-session/${id}`).send({ name: 'not-yours-any-more' }).expect(404);
      await teacher2.patch(`/api/business-session/${id}`).send({ name: 'handed-over' }).expect(200);
      const byAdmin = await admin.post('/api/business-session').send(newSession('assigned', { teacher_id: t2 })).expect(201);
      expect(byAdmin.body.teacher_id).toBe(t2);
      await teacher2.delete(`/api/business-session/${byAdmin.body.session_id}`).expect(200);
    });

    it("a sequence belongs to its author: another teacher's is not found for changes", async () => {
      const ids = [seeded.csvExerciseId];
      const created = await teacher.post('/api/sequence').send({ name: 'Owned sequence', exercises: ids }).expect(201);
      expect(created.body.author_id).toBe(seeded.teacherIds[0]);
      const id = created.body.sequence_id as number;
      await teacher2.get(`/api/sequence/${id}`).expect(200);
      await teacher2.patch(`/api/sequence/${id}`).send({ name: 'Hijacked' }).expect(404);
      await teacher2.put(`/api/sequence/${id}`).send({ exercises: [] }).expect(404);
      await teacher2.delete(`/api/sequence/${id}`).expect(404);
      expect((await teacher.get(`/api/sequence/${id}`).expect(200)).body).toMatchObject({ name: 'Owned sequence', exercises: ids });
      await teacher2.patch(`/api/sequence/${seeded.sequenceId}`).send({ exercises: [] }).expect(404);
      await teacher.patch(`/api/sequence/${id}`).send({ description: 'mine' }).expect(200);
      await admin.patch(`/api/sequence/${id}`).send({ description: 'admin may' }).expect(200);
      await admin.delete(`/api/sequence/${id}`).expect(200);
    });

    it("a statement belongs to its session's teacher: another teacher neither changes one nor adds one there", async () => {
      const ps = seeded.students[1]!.statementId; // in teacher1's seeded session
      const before = (await teacher2.get(`/api/student-statement/${ps}`).expect(200)).body;
      await teacher2.patch(`/api/student-statement/${ps}`).send({ deadline: '2000-01-01T00:00:00Z' }).expect(404);
      await teacher2.put(`/api/student-statement/${ps}`).send({ statement: '<p>hijacked</p>' }).expect(404);
      await teacher2.delete(`/api/student-statement/${ps}`).expect(404);
      expect((await teacher.get(`/api/student-statement/${ps}`).expect(200)).body).toEqual(before);
      const body = { user_id: seeded.students[1]!.userId, session_id: seeded.sessionId, ex_id: seeded.exerciseIds['file-permissions']! };
      await pool.query('DELETE FROM student_statements WHERE user_id = $1 AND session_id = $2 AND exercise_id = $3', [body.user_id, body.session_id, body.ex_id]);
      await teacher2.post('/api/student-statement').send(body).expect(404);
      const created = await teacher.post('/api/student-statement').send(body).expect(201);
      await admin.patch(`/api/student-statement/${created.body.ps_id}`).send({ deadline: null }).expect(200);
      await teacher.patch(`/api/student-statement/${created.body.ps_id}`).send({ deadline: '2030-01-01T00:00:00Z' }).expect(200);
    });

    it("the productions of another teacher's session are not found; its teacher and admins read them", async () => {
      const path = `/api/exercise-productions/by-session/${seeded.sessionId}`;
      await teacher2.get(path).expect(404);
      await student.get(path).expect(403);
      expect((await teacher.get(path).expect(200)).body.session_id).toBe(seeded.sessionId);
      await admin.get(path).expect(200);
      await teacher.get('/api/exercise-productions/by-session/999999').expect(404);
    });
  });

  describe('exercise productions (list)', () => {
    it('students list their own productions, staff list everyone', async () => {
      const repo = new PgProductionRepository(pool);
      for (const [i, s] of seeded.students.entries()) {
        await repo.create({
          userId: s.userId, exerciseId: seeded.csvExerciseId, statementId: s.statementId,
          submissionKey: `list-${i}`, archiveSize: 1, archiveSha256: '0'.repeat(64), status: 'received',
        });
      }
      const mine = await student.get('/api/exercise-production').expect(200);
      expect(mine.body).toHaveLength(1);
      expect(mine.body[0]).toMatchObject({ user_id: seeded.students[0]!.userId, ps_id: seeded.students[0]!.statementId, status: 'received' });
      const all = await teacher.get('/api/exercise-productions').expect(200);
      expect(all.body).toHaveLength(2);
      const one = await admin.get(`/api/exercise-production?user_id=${seeded.students[1]!.userId}`).expect(200);
      expect(one.body).toHaveLength(1);
      await admin.get('/api/exercise-production?limit=0').expect(400);
    });
  });
});
