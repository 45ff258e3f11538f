/**
 * ManageSessions' rules over in-memory ports (unit test): enrolment by key (hashed, counted by the
 * attempt limits) or by staff in a session they may change, a teacher assigning only itself, the
 * key in clear only in the answer that set it.
 */
import type { AttemptLimits, AuthenticatedUser, SecretHashing } from '@shellgrade/auth';
import type { BusinessSession, EnrolmentRepository, NewSession, SessionRepository } from '@shellgrade/domain';
import { ManageSessions } from '../src/manage-sessions';

const user = (id: number, role: AuthenticatedUser['role']): AuthenticatedUser => ({ id, email: `u${id}@x.test`, role, sid: 's', ver: 0 });
const teacher = user(1, 'teacher');
const colleague = user(2, 'teacher');
const student = user(3, 'student');

function fixture() {
  const sessions = new Map<number, BusinessSession>();
  const enrolled = new Set<string>();
  const repo = {
    findById: async (id: number) => sessions.get(id) ?? null,
    create: async (s: NewSession) => {
      const row = { ...s, id: sessions.size + 1 };
      sessions.set(row.id, row);
      return row;
    },
    update: async (id: number, p: Partial<NewSession>) => {
      const row = sessions.get(id);
      if (!row) return null;
      const next = { ...row, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) };
      sessions.set(id, next);
      return next;
    },
  } as unknown as SessionRepository;
  const enrolments = {
    enrol: async (s: number, ids: number[]) => (ids.forEach((u) => enrolled.add(`${s}:${u}`)), ids.length),
    isEnrolled: async (s: number, u: number) => enrolled.has(`${s}:${u}`),
  } as unknown as EnrolmentRepository;
  const keyChecks: number[] = [];
  const limits = { attemptEnrolmentKey: async (userId: number, check: () => Promise<boolean>) => (keyChecks.push(userId), check()) } as unknown as AttemptLimits;
  const secrets = { hashEnrolmentKey: async (k: string) => `hash(${k})`, verifyEnrolmentKey: async (k: string, h: string) => h === `hash(${k})` } as unknown as SecretHashing;
  return { manage: new ManageSessions(repo, enrolments, limits, secrets), sessions, keyChecks };
}

const fields = { name: 'Shell 101', sequenceId: 1, startsAt: new Date('2030-01-01'), endsAt: new Date('2030-02-01') };

describe('ManageSessions', () => {
  it('creates with a generated key, stored hashed and shown once; a teacher cannot give the session to a colleague', async () => {
    const { manage, sessions } = fixture();
    const { session, enrolmentKey } = await manage.create(teacher, fields);
    expect(enrolmentKey.length).toBeGreaterThanOrEqual(8);
    expect(sessions.get(session.id)).toMatchObject({ enrolmentKeyHash: `hash(${enrolmentKey})`, teacherId: teacher.id });
    await expect(manage.create(teacher, { ...fields, teacherId: colleague.id })).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await manage.update(teacher, session.id, { name: 'renamed' })).toEqual({ session: expect.objectContaining({ name: 'renamed' }) });
  });

  it('a student enrols with the right key only, each try counted; staff enrol others only in a session they may change', async () => {
    const { manage, keyChecks } = fixture();
    const { session } = await manage.create(teacher, { ...fields, enrolmentKey: 'right-key-123' });
    await expect(manage.findOne(student, session.id)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(manage.enrol(student, session.id, { enrolmentKey: 'wrong' })).rejects.toMatchObject({ kind: 'validation' });
    expect(await manage.enrol(student, session.id, { enrolmentKey: 'right-key-123' })).toBe(1);
    expect(keyChecks).toEqual([student.id, student.id]);
    expect((await manage.findOne(student, session.id)).id).toBe(session.id);
    await expect(manage.enrol(student, session.id, { userIds: [4] })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(manage.enrol(colleague, session.id, { userIds: [4] })).rejects.toMatchObject({ kind: 'not-found' });
    expect(await manage.enrol(teacher, session.id, { userIds: [4, 5] })).toBe(2);
  });
});
