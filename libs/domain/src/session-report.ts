/**
 * A teacher's results report for one business session (paper 001's S2 request class): grade
 * distribution, per-exercise pass rates and per-student progress, computed from every
 * production of the session. The session, its sequence and its enrolments belong to the
 * service that asks (Leftover); the productions belong to the Exercise service, so in msa
 * variants the report pulls them over the internal hop (SessionProductionsSource) — one
 * service reading a lot of data that another owns, the paper's data-heavy request.
 */
import type { ProductionStatus } from './enums';
import { notFound } from './errors';

/** One production as the report needs it: no feedback, no archive. */
export interface SessionProductionRecord {
  productionId: number;
  userId: number;
  exerciseId: number;
  statementId: number;
  status: ProductionStatus;
  grade: number | null;
  createdAt: Date;
}

/**
 * Who asks, handed on unchanged to an adapter that calls another service on the asker's
 * behalf (the HTTP adapter sends it as its bearer token, or, behind an offloading gateway, as the
 * gateway's identity assertion it came with); an in-process adapter ignores it.
 */
export interface OnBehalfOf {
  accessToken?: string;
  identityAssertion?: string;
}

/** Every production of a session's student statements. In-process (PostgreSQL) or the Exercise service over HTTP. */
export interface SessionProductionsSource {
  productionsOfSession(sessionId: number, onBehalfOf: OnBehalfOf): Promise<SessionProductionRecord[]>;
}
export const SESSION_PRODUCTIONS = Symbol('SessionProductionsSource');
/** The productions of a session read from this process's own database: what the Exercise service answers the S2 read with. */
export const STORED_SESSION_PRODUCTIONS = Symbol('StoredSessionProductions');

/** What the asking service owns about the session. */
export interface SessionRoster {
  sessionId: number;
  name: string;
  /** The session's sequence, in order. */
  exerciseIds: number[];
  /** Enrolled students. */
  students: { id: number; firstname: string; lastname: string; email: string }[];
}

/** A student passed an exercise when its best graded production reaches this grade. */
export const PASS_MARK = 50;

/** Grade buckets of the distribution: [0,10), [10,20), …, [90,100), and 100 on its own. */
export const GRADE_BUCKETS = ['0-9', '10-19', '20-29', '30-39', '40-49', '50-59', '60-69', '70-79', '80-89', '90-99', '100'] as const;
export const bucketOf = (grade: number): (typeof GRADE_BUCKETS)[number] => GRADE_BUCKETS[Math.min(10, Math.floor(grade / 10))]!;

export interface SessionReport {
  sessionId: number;
  name: string;
  passMark: number;
  totals: { students: number; exercises: number; productions: number; graded: number; failed: number; pending: number };
  /** Over every graded production (each attempt counts). */
  gradeDistribution: Record<(typeof GRADE_BUCKETS)[number], number>;
  /** Mean of the graded productions' grades; null without any. */
  meanGrade: number | null;
  exercises: {
    exerciseId: number;
    attempts: number;
    studentsAttempted: number;
    studentsPassed: number;
    /** studentsPassed / enrolled students (0 without students). */
    passRate: number;
    /** Mean over students who have a graded production of their best grade; null without any. */
    meanBestGrade: number | null;
  }[];
  students: {
    userId: number;
    firstname: string;
    lastname: string;
    email: string;
    attempts: number;
    /** Best graded grade per exercise of the sequence (null: none graded yet). */
    bestGrades: Record<string, number | null>;
    exercisesPassed: number;
    /** exercisesPassed / exercises of the sequence (0 for an empty sequence). */
    progress: number;
    lastSubmissionAt: Date | null;
  }[];
}

const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);
const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * The report from the roster and the productions. Productions of users no longer enrolled or
 * of exercises no longer in the sequence still count in the totals and the distribution (they
 * were graded), not in the per-student or per-exercise rows.
 */
export function buildSessionReport(roster: SessionRoster, productions: SessionProductionRecord[]): SessionReport {
  const best = new Map<string, number>(); // `${userId}:${exerciseId}` → best graded grade
  const attemptsOf = new Map<string, number>();
  const lastAt = new Map<number, Date>();
  const gradeDistribution = Object.fromEntries(GRADE_BUCKETS.map((b) => [b, 0])) as SessionReport['gradeDistribution'];
  const graded: number[] = [];
  let failed = 0;
  for (const p of productions) {
    const key = `${p.userId}:${p.exerciseId}`;
    attemptsOf.set(key, (attemptsOf.get(key) ?? 0) + 1);
    const last = lastAt.get(p.userId);
    if (!last || p.createdAt > last) lastAt.set(p.userId, p.createdAt);
    if (p.status === 'failed') failed++;
    if (p.status !== 'graded' || p.grade === null) continue;
    graded.push(p.grade);
    gradeDistribution[bucketOf(p.grade)]++;
    best.set(key, Math.max(best.get(key) ?? Number.NEGATIVE_INFINITY, p.grade));
  }

  const exercises = roster.exerciseIds.map((exerciseId) => {
    let attempts = 0;
    let studentsAttempted = 0;
    let studentsPassed = 0;
    const bests: number[] = [];
    for (const s of roster.students) {
      const key = `${s.id}:${exerciseId}`;
      const n = attemptsOf.get(key) ?? 0;
      attempts += n;
      if (n > 0) studentsAttempted++;
      const b = best.get(key);
      if (b !== undefined) {
        bests.push(b);
        if (b >= PASS_MARK) studentsPassed++;
      }
    }
    return { exerciseId, attempts, studentsAttempted, studentsPassed, passRate: ratio(studentsPassed, roster.students.length), meanBestGrade: mean(bests) };
  });

  const students = roster.students.map((s) => {
    const bestGrades: Record<string, number | null> = {};
    let attempts = 0;
    let exercisesPassed = 0;
    for (const exerciseId of roster.exerciseIds) {
      const b = best.get(`${s.id}:${exerciseId}`);
      bestGrades[String(exerciseId)] = b ?? null;
      attempts += attemptsOf.get(`${s.id}:${exerciseId}`) ?? 0;
      if (b !== undefined && b >= PASS_MARK) exercisesPassed++;
    }
    return {
      userId: s.id,
      firstname: s.firstname,
      lastname: s.lastname,
      email: s.email,
      attempts,
      bestGrades,
      exercisesPassed,
      progress: ratio(exercisesPassed, roster.exerciseIds.length),
      lastSubmissionAt: lastAt.get(s.id) ?? null,
    };
  });

  return {
    sessionId: roster.sessionId,
    name: roster.name,
    passMark: PASS_MARK,
    totals: {
      students: roster.students.length,
      exercises: roster.exerciseIds.length,
      productions: productions.length,
      graded: graded.length,
      failed,
      pending: productions.length - graded.length - failed,
    },
    gradeDistribution,
    meanGrade: mean(graded),
    exercises,
    students,
  };
}

/** The asking service's own data about a session; null when the session does not exist. */
export interface SessionRosterReader {
  roster(sessionId: number): Promise<SessionRoster | null>;
}
export const SESSION_ROSTER = Symbol('SessionRosterReader');

/**
 * The S2 use case: the roster from this service, the productions from wherever they live, one
 * report. Who may read it is the caller's rule (the session's teacher or an admin).
 */
export class SessionReportService {
  constructor(
    private readonly rosters: SessionRosterReader,
    private readonly productions: SessionProductionsSource,
  ) {}

  async report(sessionId: number, onBehalfOf: OnBehalfOf): Promise<SessionReport> {
    const roster = await this.rosters.roster(sessionId);
    if (!roster) throw notFound('business session', sessionId);
    const productions = await this.productions.productionsOfSession(sessionId, onBehalfOf);
    return buildSessionReport(roster, productions);
  }
}
