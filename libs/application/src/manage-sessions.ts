/**
 * Business sessions and who is enrolled in them: staff read them all, a teacher changes (and
 * enrols into) only the ones it teaches, admins any; a student sees the sessions it is enrolled
 * in and enrols itself with the session's key. The key is stored hashed: it is shown only in the
 * answer that set it.
 *
 * What an enrolment makes stale in a read cache is not this use case's business: the wiring
 * binds ENROLMENT_REPOSITORY to a decorator that invalidates on write when the spec caches.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ATTEMPT_LIMITS, type AttemptLimits, changeable, generateEnrolmentKey, isStaff, listOwner, SECRET_HASHING, type SecretHashing } from '@shellgrade/auth';
import {
  type BusinessSession,
  ENROLMENT_REPOSITORY,
  type EnrolmentRepository,
  forbidden,
  invalid,
  type NewSession,
  notFound,
  SESSION_REPOSITORY,
  type SessionRepository,
} from '@shellgrade/domain';
import type { Actor, Page } from './actor';
import { OwnedRows } from './owned-rows';

export interface SessionFields {
  name: string;
  sequenceId: number;
  startsAt: Date;
  endsAt: Date;
  /** In clear: hashed before it is stored. */
  enrolmentKey: string;
  teacherId: number;
}
/** A new session: the key is generated when omitted, the teacher is the caller unless an admin names one. */
export type NewSessionFields = Omit<SessionFields, 'enrolmentKey' | 'teacherId'> & { enrolmentKey?: string; teacherId?: number };

/** A session with the key in clear, when this very call set it. */
export interface SessionWithKey {
  session: BusinessSession;
  enrolmentKey?: string;
}

/** A student enrols itself with the key; staff enrol others by id. */
export type EnrolmentRequest = { enrolmentKey: string } | { userIds: number[] };

@Injectable()
export class ManageSessions {
  constructor(
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(ENROLMENT_REPOSITORY) private readonly enrolments: EnrolmentRepository,
    @Inject(ATTEMPT_LIMITS) private readonly limits: AttemptLimits,
    @Inject(SECRET_HASHING) private readonly secrets: SecretHashing,
  ) {
    this.owned = OwnedRows.ownedBy(sessions, 'business session', (s) => s.teacherId);
  }

  private readonly owned: OwnedRows<BusinessSession, Partial<NewSession>>;

  list(me: Actor, page: Page): Promise<BusinessSession[]> {
    return this.sessions.list({ ...page, studentId: listOwner(me, undefined) });
  }

  /** A session a student is not enrolled in does not exist for it. */
  async findOne(me: Actor, id: number): Promise<BusinessSession> {
    const s = await this.sessions.findById(id);
    if (!s || (!isStaff(me.role) && !(await this.enrolments.isEnrolled(id, me.id)))) throw notFound('business session', id);
    return s;
  }

  async enrolled(id: number): Promise<number[]> {
    if (!(await this.sessions.findById(id))) throw notFound('business session', id);
    return this.enrolments.listUserIds(id);
  }

  /** How many were enrolled (enrolling twice is not an error). */
  async enrol(me: Actor, id: number, request: EnrolmentRequest): Promise<number> {
    const s = await this.sessions.findById(id);
    if (!s) throw notFound('business session', id);
    if ('userIds' in request) {
      if (!isStaff(me.role)) throw forbidden('only staff may enrol other users');
      changeable(me, s, (row) => row.teacherId, 'business session', id);
      return this.enrolments.enrol(id, request.userIds);
    }
    // The point is taken before the key is checked and given back for a right key: guessing costs, enrolling does not.
    if (!(await this.limits.attemptEnrolmentKey(me.id, () => this.secrets.verifyEnrolmentKey(request.enrolmentKey, s.enrolmentKeyHash)))) {
      throw invalid('wrong enrolment key');
    }
    return this.enrolments.enrol(id, [me.id]);
  }

  /** Staff unenrol a student from a session they may change; a student leaves one itself. */
  async unenrol(me: Actor, id: number, userId: number): Promise<void> {
    // A student acts on its own enrolment only; anyone else's is answered as absent (ids cannot be probed).
    if (!isStaff(me.role) && userId !== me.id) throw notFound('enrolment of user', userId);
    const s = await this.sessions.findById(id);
    if (!s) throw notFound('business session', id);
    if (userId !== me.id) changeable(me, s, (row) => row.teacherId, 'business session', id);
    if (!(await this.enrolments.unenrol(id, userId))) throw notFound('enrolment of user', userId);
  }

  async create(me: Actor, fields: NewSessionFields): Promise<Required<SessionWithKey>> {
    const key = fields.enrolmentKey ?? generateEnrolmentKey();
    const session = await this.sessions.create({
      name: fields.name,
      sequenceId: fields.sequenceId,
      startsAt: fields.startsAt,
      endsAt: fields.endsAt,
      enrolmentKeyHash: await this.secrets.hashEnrolmentKey(key),
      teacherId: assignedTeacher(me, fields.teacherId) ?? me.id,
    });
    return { session, enrolmentKey: key };
  }

  /** Changes what `patch` names; the key in clear comes back only when the patch set it. */
  async update(me: Actor, id: number, patch: Partial<SessionFields>): Promise<SessionWithKey> {
    await this.owned.check(me, id);
    const teacherId = assignedTeacher(me, patch.teacherId);
    const updated = await this.sessions.update(id, {
      name: patch.name,
      sequenceId: patch.sequenceId,
      startsAt: patch.startsAt,
      endsAt: patch.endsAt,
      enrolmentKeyHash: patch.enrolmentKey === undefined ? undefined : await this.secrets.hashEnrolmentKey(patch.enrolmentKey),
      teacherId,
    });
    const session = this.owned.found(updated, id);
    return patch.enrolmentKey === undefined ? { session } : { session, enrolmentKey: patch.enrolmentKey };
  }

  /** 409 (from the repository) while the session has student statements. */
  remove(me: Actor, id: number): Promise<void> {
    return this.owned.remove(me, id);
  }
}

/**
 * The teacher a session is given to: a teacher names only itself (403 otherwise: handing a
 * session to a colleague, or planting one on them, is an admin's call); an admin names anyone.
 */
function assignedTeacher(me: Actor, requested: number | undefined): number | undefined {
  if (requested !== undefined && me.role !== 'admin' && requested !== me.id) throw forbidden('only an admin assigns a session to another teacher');
  return requested;
}
