import { createHash } from 'node:crypto';
import type { Exercise, ExerciseProduction, StudentStatement } from './entities';
import { DomainError } from './errors';
import type { ArchiveStore, Grader, GradingDispatch, LoadedForGrading, NewProduction, ProductionOutcome, ProductionRepository, SubmissionAdmission, SubmissionContextReader } from './ports';
import { answerDeadlineOf, GradingWorker, isExpired, refuseClosedSubmission, SubmissionService } from './submission';

/** In-memory fakes of the ports: unit tests only. */
function fakes(deadline: Date | null = null) {
  const rows = new Map<number, ExerciseProduction>();
  const keys = new Map<string, number>();
  const stored = new Map<number, Buffer>();
  let nextId = 1;
  const statement = { id: 7, userId: 1, sessionId: 1, exerciseId: 2, statementHtml: '<p/>', questionArchive: Buffer.from('q'), deadline } as StudentStatement;
  const exercise = { id: 2, graderScript: 'print()', locale: 'en', state: 'published' } as Exercise;
  const session = { id: 1, startsAt: new Date(Date.now() - 86_400_000), endsAt: new Date(Date.now() + 86_400_000) };
  const context: SubmissionContextReader = { load: jest.fn(async () => ({ statement, exercise, session, enrolled: true })) };
  const productions: ProductionRepository = {
    create: jest.fn(async (p: NewProduction) => {
      const existing = keys.get(p.submissionKey);
      if (existing) return { production: rows.get(existing)!, created: false };
      const row = { ...p, id: nextId++, grade: null, comment: [], failureReason: null, createdAt: new Date(), gradedAt: null } as ExerciseProduction;
      rows.set(row.id, row);
      keys.set(p.submissionKey, row.id);
      return { production: row, created: true };
    }),
    findById: jest.fn(async (id: number) => rows.get(id) ?? null),
    setStatus: jest.fn(async (id: number, status: 'queued' | 'grading') => void (rows.get(id)!.status = status)),
    complete: jest.fn(async (id: number, outcome: ProductionOutcome) => {
      const row = rows.get(id)!;
      if (row.status === 'graded' || row.status === 'failed') return null;
      Object.assign(row, 'grade' in outcome ? { status: 'graded', ...outcome } : { status: 'failed', failureReason: outcome.failureReason });
      return { ...row };
    }),
    delete: jest.fn(async (id: number) => void rows.delete(id)),
    deleteAll: jest.fn(async () => rows.size),
    reclaimInterrupted: jest.fn(async () => []),
  };
  const archives: ArchiveStore = {
    put: jest.fn(async (id: number, bytes: Buffer) => {
      stored.set(id, bytes);
      return { key: String(id), sha256: '' };
    }),
    get: jest.fn(async (id: number) => stored.get(id)!),
    delete: jest.fn(async () => undefined),
  };
  const grader: Grader = { grade: jest.fn(async () => ({ grade: 50, comment: [] })) };
  return { rows, context, productions, archives, grader };
}

const validator = { validate: jest.fn(async () => undefined) };

describe('SubmissionService + GradingWorker', () => {
  function service(f: ReturnType<typeof fakes>) {
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    const dispatch: GradingDispatch = { dispatch: (r) => worker.grade(r.productionId, { production: r.production, archive: r.archive, context: r.context }) };
    return { worker, submit: new SubmissionService(f.context, validator, f.productions, f.archives, dispatch) };
  }
  const cmd = { userId: 1, exerciseId: 2, statementId: 7, archive: Buffer.from('tgz') };

  it('stores, grades once and returns the graded production', async () => {
    const f = fakes();
    const p = await service(f).submit.submit(cmd);
    expect(p).toMatchObject({ status: 'graded', grade: 50, archiveSize: 3 });
    expect(f.archives.put).toHaveBeenCalledWith(p.id, cmd.archive);
    expect(f.grader.grade).toHaveBeenCalledTimes(1);
    expect(f.context.load).toHaveBeenCalledTimes(1); // the worker reuses what the submission loaded
  });

  it('reads nothing back in process: the created production, context and archive are handed on, the final row comes from complete', async () => {
    const f = fakes();
    const p = await service(f).submit.submit(cmd);
    expect(p).toMatchObject({ status: 'graded', grade: 50 });
    // Database round trips of one inline submission: context, create, archive, grading status, outcome.
    expect(f.productions.findById).not.toHaveBeenCalled();
    expect(f.archives.get).not.toHaveBeenCalled();
    expect(f.productions.setStatus).toHaveBeenCalledTimes(1);
    expect(f.productions.complete).toHaveBeenCalledTimes(1);
  });

  it('returns the first production for a repeated submission key without regrading', async () => {
    const f = fakes();
    const s = service(f).submit;
    const a = await s.submit({ ...cmd, submissionKey: 'k' });
    const b = await s.submit({ ...cmd, submissionKey: 'k' });
    expect(b.id).toBe(a.id);
    expect(f.grader.grade).toHaveBeenCalledTimes(1);
  });

  it('a redelivered grading of a final production does not regrade', async () => {
    const f = fakes();
    const { submit, worker } = service(f);
    const p = await submit.submit(cmd);
    await worker.grade(p.id);
    expect(f.grader.grade).toHaveBeenCalledTimes(1);
  });

  it('refuses after the deadline, before storing anything', async () => {
    const f = fakes(new Date(Date.now() - 1000));
    await expect(service(f).submit.submit(cmd)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(f.rows.size).toBe(0);
  });

  it('removes the row when the archive store fails, and answers unavailable', async () => {
    const f = fakes();
    (f.archives.put as jest.Mock).mockRejectedValueOnce(new Error('ECONNREFUSED'));
    await expect(service(f).submit.submit(cmd)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(f.rows.size).toBe(0);
  });

  it('records a grader failure as a failed production with its reason', async () => {
    const f = fakes();
    (f.grader.grade as jest.Mock).mockRejectedValueOnce(new DomainError('grading-failed', 'timed out'));
    const p = await service(f).submit.submit(cmd);
    expect(p).toMatchObject({ status: 'failed', failureReason: 'grading-failed: timed out' });
  });
});

describe('SubmissionService admission', () => {
  const cmd = { userId: 1, exerciseId: 2, statementId: 7, archive: Buffer.from('tgz') };
  /** An admission of `places` places that counts what it was given back. */
  function admission(places: number) {
    const state = { inside: 0, released: 0 };
    const gate: SubmissionAdmission = {
      enter: () => {
        if (state.inside >= places) throw new DomainError('unavailable', 'busy', {}, 3);
        state.inside++;
        return { release: () => void (state.inside--, state.released++) };
      },
    };
    return { gate, state };
  }

  it('an overloaded process refuses before it reads or stores anything (503 with retry-after)', async () => {
    const f = fakes();
    const { gate } = admission(0);
    const submit = new SubmissionService(f.context, validator, f.productions, f.archives, { dispatch: jest.fn() }, { admission: gate });
    await expect(submit.submit(cmd)).rejects.toMatchObject({ kind: 'unavailable', retryAfterSeconds: 3 });
    expect(f.context.load).not.toHaveBeenCalled();
    expect(f.productions.create).not.toHaveBeenCalled();
  });

  it('holds its place until the submission is answered, and frees it on success and on failure', async () => {
    const f = fakes();
    const { gate, state } = admission(1);
    let finish!: () => void;
    const graded = new Promise<void>((resolve) => (finish = resolve));
    const dispatch: GradingDispatch = { dispatch: jest.fn(async () => (await graded, { id: 1 }) as unknown as ExerciseProduction) };
    const submit = new SubmissionService(f.context, validator, f.productions, f.archives, dispatch, { admission: gate });
    const first = submit.submit(cmd);
    await new Promise((r) => setImmediate(r));
    await expect(submit.submit({ ...cmd, submissionKey: 'second' })).rejects.toMatchObject({ kind: 'unavailable' });
    finish();
    await first;
    expect(state).toEqual({ inside: 0, released: 1 });
    const failing = new SubmissionService(f.context, { validate: jest.fn(async () => Promise.reject(new DomainError('invalid-archive', 'bad'))) }, f.productions, f.archives, dispatch, { admission: gate });
    await expect(failing.submit({ ...cmd, submissionKey: 'third' })).rejects.toMatchObject({ kind: 'invalid-archive' });
    expect(state).toEqual({ inside: 0, released: 2 });
  });
});

describe('GradingWorker failure classes', () => {
  it('marks a corrupt stored archive as a failed production', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    const { production } = await f.productions.create({ userId: 1, exerciseId: 2, statementId: 7, submissionKey: 'c', archiveSize: 1, archiveSha256: 'x', status: 'queued' });
    (f.archives.get as jest.Mock).mockRejectedValueOnce(new DomainError('grading-failed', 'archive of production 1 is corrupt'));
    await expect(worker.grade(production.id)).resolves.toMatchObject({ status: 'failed' });
  });

  it('behind a broker, starts from the production and its context read together where the reader can', async () => {
    const f = fakes();
    const { production } = await f.productions.create({ userId: 1, exerciseId: 2, statementId: 7, submissionKey: 'j', archiveSize: 1, archiveSha256: 'x', status: 'queued' });
    const loaded = await f.context.load(1, 7, 2);
    (f.context.load as jest.Mock).mockClear();
    (f.productions.findById as jest.Mock).mockClear();
    const loadForGrading = jest.fn(async (id: number) => ({ production: { ...f.rows.get(id)! }, context: loaded }));
    const worker = new GradingWorker({ ...f.context, loadForGrading }, f.productions, f.archives, f.grader);
    await expect(worker.grade(production.id)).resolves.toMatchObject({ status: 'graded', grade: 50 });
    expect(loadForGrading).toHaveBeenCalledTimes(1);
    expect(f.productions.findById).not.toHaveBeenCalled();
    expect(f.context.load).not.toHaveBeenCalled();
  });

  it('a production whose statement is gone fails as not-found, unless it is already final (a redelivery)', async () => {
    const f = fakes();
    const { production } = await f.productions.create({ userId: 1, exerciseId: 2, statementId: 7, submissionKey: 'g', archiveSize: 1, archiveSha256: 'x', status: 'queued' });
    const loadForGrading = jest.fn(async (id: number) => ({ production: { ...f.rows.get(id)! }, context: null }));
    const worker = new GradingWorker({ ...f.context, loadForGrading }, f.productions, f.archives, f.grader);
    await expect(worker.grade(production.id)).rejects.toMatchObject({ kind: 'not-found' });
    expect(f.grader.grade).not.toHaveBeenCalled();
    f.rows.get(production.id)!.status = 'graded';
    await expect(worker.grade(production.id)).resolves.toMatchObject({ status: 'graded' });
  });

  it('lets an unavailable store propagate so the dispatcher retries', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    const { production } = await f.productions.create({ userId: 1, exerciseId: 2, statementId: 7, submissionKey: 'u', archiveSize: 1, archiveSha256: 'x', status: 'queued' });
    (f.archives.get as jest.Mock).mockRejectedValueOnce(new DomainError('unavailable', 'object store unreachable'));
    await expect(worker.grade(production.id)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(f.rows.get(production.id)!.status).toBe('queued');
  });
});

describe('archives kept in the production row (storage: postgres; issue 32 item 5)', () => {
  const owner = { userId: 1, exerciseId: 2, statementId: 7 };
  const cmd = { ...owner, archive: Buffer.from('tgz') };
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  /** The fakes with an archive store that keeps its bytes in the row, and a reader that takes productions with them. */
  function inRow() {
    const f = fakes();
    const rowArchives = new Map<number, Buffer>();
    const archives: ArchiveStore = { ...f.archives, inProductionRow: true };
    const create = f.productions.create as jest.Mock;
    const baseCreate = create.getMockImplementation()!;
    create.mockImplementation(async (p: NewProduction) => {
      const made = await baseCreate(p);
      if (made.created && p.archive) rowArchives.set(made.production.id, p.archive);
      return made;
    });
    const loaded = { statement: { id: 7, statementHtml: '<p/>', questionArchive: Buffer.from('q') } as StudentStatement, exercise: { id: 2, graderScript: 'print()', locale: 'en' } as Exercise, session: { id: 1, startsAt: new Date(0), endsAt: new Date(0) }, enrolled: true };
    const loadForGrading = jest.fn(async (id: number, options: { take?: boolean } = {}): Promise<LoadedForGrading | null> => {
      const row = f.rows.get(id);
      if (!row) return null;
      if (!options.take) return { production: { ...row }, context: loaded };
      const final = row.status === 'graded' || row.status === 'failed';
      if (!final) row.status = 'grading';
      return { production: { ...row }, context: loaded, taken: !final, archive: rowArchives.get(id) ?? null };
    });
    const context: SubmissionContextReader = { ...f.context, loadForGrading };
    return { ...f, archives, context, rowArchives, loadForGrading };
  }

  it('the submission writes the archive with its row: no put, and the row carries exactly the bytes it hashed', async () => {
    const f = inRow();
    const dispatch: GradingDispatch = { dispatch: jest.fn(async (r) => r.production!) };
    const p = await new SubmissionService(f.context, validator, f.productions, f.archives, dispatch).submit(cmd);
    expect(f.archives.put).not.toHaveBeenCalled();
    expect(f.productions.create).toHaveBeenCalledWith(expect.objectContaining({ archive: cmd.archive, archiveSha256: sha(cmd.archive), archiveSize: 3 }));
    expect(f.rowArchives.get(p.id)).toBe(cmd.archive);
  });

  it('behind a dispatch that queues, a production stored whole is created queued; one whose archive is stored apart is created received', async () => {
    const queueing = (): GradingDispatch => ({ queues: true, dispatch: jest.fn(async (r) => r.production!) });
    const whole = inRow();
    await expect(new SubmissionService(whole.context, validator, whole.productions, whole.archives, queueing()).submit(cmd)).resolves.toMatchObject({ status: 'queued' });
    const apart = fakes();
    await expect(new SubmissionService(apart.context, validator, apart.productions, apart.archives, queueing()).submit(cmd)).resolves.toMatchObject({ status: 'received' });
    const inline = inRow();
    await expect(new SubmissionService(inline.context, validator, inline.productions, inline.archives, { dispatch: jest.fn(async (r) => r.production!) }).submit(cmd)).resolves.toMatchObject({ status: 'received' });
  });

  it('a store that keeps archives apart still gets put after the row, and the row is created without bytes', async () => {
    const f = fakes();
    const dispatch: GradingDispatch = { dispatch: jest.fn(async (r) => r.production!) };
    const p = await new SubmissionService(f.context, validator, f.productions, f.archives, dispatch).submit(cmd);
    expect(f.archives.put).toHaveBeenCalledWith(p.id, cmd.archive);
    expect((f.productions.create as jest.Mock).mock.calls[0][0]).not.toHaveProperty('archive');
  });

  it('a worker behind a broker takes the production with its archive in one read: no archive get, no status update of its own', async () => {
    const f = inRow();
    const { production } = await f.productions.create({ ...owner, submissionKey: 'r', archiveSize: 3, archiveSha256: sha(cmd.archive), status: 'queued', archive: cmd.archive });
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    await expect(worker.grade(production.id)).resolves.toMatchObject({ status: 'graded', grade: 50 });
    expect(f.loadForGrading).toHaveBeenCalledWith(production.id, { take: true });
    expect(f.archives.get).not.toHaveBeenCalled();
    expect(f.productions.setStatus).not.toHaveBeenCalled();
    expect(f.grader.grade).toHaveBeenCalledWith(expect.objectContaining({ submission: cmd.archive }));
  });

  it('an archive read with the row is verified as the store verifies it: corrupt or missing bytes fail the production, ungraded', async () => {
    const f = inRow();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    const corrupt = (await f.productions.create({ ...owner, submissionKey: 'x', archiveSize: 3, archiveSha256: sha(Buffer.from('other')), status: 'queued', archive: cmd.archive })).production;
    await expect(worker.grade(corrupt.id)).resolves.toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^grading-failed: .*corrupt/) });
    const missing = (await f.productions.create({ ...owner, submissionKey: 'm', archiveSize: 3, archiveSha256: sha(cmd.archive), status: 'queued' })).production;
    await expect(worker.grade(missing.id)).resolves.toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^not-found: archive/) });
    expect(f.grader.grade).not.toHaveBeenCalled();
  });

  it('a production finished by another delivery between the read and the take is read back, not graded again', async () => {
    const f = inRow();
    const { production } = await f.productions.create({ ...owner, submissionKey: 'race', archiveSize: 3, archiveSha256: sha(cmd.archive), status: 'queued', archive: cmd.archive });
    // The row as the statement's snapshot saw it (queued), but the take found it final.
    f.loadForGrading.mockImplementationOnce(async (id: number) => {
      const seen = { ...f.rows.get(id)! };
      Object.assign(f.rows.get(id)!, { status: 'graded', grade: 70 });
      return { production: seen, context: null, taken: false, archive: cmd.archive };
    });
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    await expect(worker.grade(production.id)).resolves.toMatchObject({ status: 'graded', grade: 70 });
    expect(f.grader.grade).not.toHaveBeenCalled();
    expect(f.productions.complete).not.toHaveBeenCalled();
  });

  it('an archive handed over in process is not taken with the row (nothing to read)', async () => {
    const f = inRow();
    const { production } = await f.productions.create({ ...owner, submissionKey: 'h', archiveSize: 3, archiveSha256: sha(cmd.archive), status: 'queued', archive: cmd.archive });
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    await expect(worker.grade(production.id, { archive: cmd.archive })).resolves.toMatchObject({ status: 'graded' });
    expect(f.loadForGrading).toHaveBeenCalledWith(production.id, {});
    expect(f.productions.setStatus).toHaveBeenCalledWith(production.id, 'grading');
  });
});

describe('GradingWorker answer deadline (issue 31 item 3)', () => {
  const T = 1_800_000_000_000;
  const cmd = { userId: 1, exerciseId: 2, statementId: 7, archive: Buffer.from('tgz') };
  async function queuedProduction(f: ReturnType<typeof fakes>) {
    const { production } = await f.productions.create({ userId: 1, exerciseId: 2, statementId: 7, submissionKey: 'd', archiveSize: 1, archiveSha256: 'x', status: 'queued' });
    await f.archives.put(production.id, Buffer.from('tgz'));
    return production;
  }

  it('does not start the sandbox once the deadline has passed: the production ends failed, expired', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => T + 2_500);
    const p = await queuedProduction(f);
    const final = await worker.grade(p.id, { deadline: T });
    expect(f.grader.grade).not.toHaveBeenCalled();
    expect(final.status).toBe('failed');
    expect(final.failureReason).toMatch(/^expired: .*2\.5 s/);
    expect(isExpired(final)).toBe(true);
  });

  it('a deadline reached exactly counts as passed; one still ahead grades', async () => {
    const f = fakes();
    let now = T;
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => now);
    const atDeadline = await worker.grade((await queuedProduction(f)).id, { deadline: T });
    expect(atDeadline.status).toBe('failed');
    now = T - 1;
    const f2 = fakes();
    const early = new GradingWorker(f2.context, f2.productions, f2.archives, f2.grader, () => now);
    await expect(early.grade((await queuedProduction(f2)).id, { deadline: T })).resolves.toMatchObject({ status: 'graded', grade: 50 });
  });

  it('is checked after the archive was read: a slow store can make the grading too late', async () => {
    const f = fakes();
    let now = T - 10;
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => now);
    const p = await queuedProduction(f);
    (f.archives.get as jest.Mock).mockImplementationOnce(async () => {
      now = T + 1; // the read took the rest of the budget
      return Buffer.from('tgz');
    });
    await expect(worker.grade(p.id, { deadline: T })).resolves.toMatchObject({ status: 'failed' });
    expect(f.grader.grade).not.toHaveBeenCalled();
  });

  it('without a deadline (papers\' presets, unknown arrival) every production is graded', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => Number.MAX_SAFE_INTEGER);
    await expect(worker.grade((await queuedProduction(f)).id)).resolves.toMatchObject({ status: 'graded' });
    expect(answerDeadlineOf(undefined, 60_000)).toBeUndefined();
    expect(answerDeadlineOf(T, undefined)).toBeUndefined();
    expect(answerDeadlineOf(T, 60_000)).toBe(T + 60_000);
  });

  it('a retry with the key of an expired attempt is a new submission, graded; the same retry again finds it', async () => {
    const f = fakes();
    let now = T + 1;
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => now);
    const dispatch: GradingDispatch = { dispatch: (r) => worker.grade(r.productionId, { archive: r.archive, context: r.context, deadline: T }) };
    const s = new SubmissionService(f.context, validator, f.productions, f.archives, dispatch);
    const first = await s.submit({ ...cmd, submissionKey: 'k' });
    expect(isExpired(first)).toBe(true);
    now = T - 1;
    const retry = await s.submit({ ...cmd, submissionKey: 'k' });
    expect(retry).toMatchObject({ status: 'graded', submissionKey: `k>after-${first.id}` });
    expect((await s.submit({ ...cmd, submissionKey: 'k' })).id).toBe(retry.id);
    expect(f.grader.grade).toHaveBeenCalledTimes(1);
  });

  it('an already final production is returned as is, deadline or not (a redelivery)', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => T + 1);
    const p = await queuedProduction(f);
    await f.productions.complete(p.id, { grade: 80, comment: [] });
    await expect(worker.grade(p.id, { deadline: T })).resolves.toMatchObject({ status: 'graded', grade: 80 });
  });
});

describe('refuseClosedSubmission (enrolment, session dates, exercise state, deadline)', () => {
  const now = new Date('2030-03-01T12:00:00Z');
  const open = {
    statement: { id: 7, deadline: null } as StudentStatement,
    exercise: { id: 2, state: 'published' } as Exercise,
    session: { id: 1, startsAt: new Date('2030-01-01T00:00:00Z'), endsAt: new Date('2030-06-30T00:00:00Z') },
    enrolled: true,
  };
  const refusal = (over: Partial<typeof open>) => {
    try {
      refuseClosedSubmission({ ...open, ...over }, now);
      return 'accepted';
    } catch (e) {
      return e instanceof DomainError ? `${e.kind}: ${e.message}` : 'crash';
    }
  };

  it('accepts an enrolled student in a running session on a published exercise', () => {
    expect(refusal({})).toBe('accepted');
  });

  it.each([
    ['not enrolled', { enrolled: false }, /not enrolled in session 1/],
    ['a draft exercise', { exercise: { id: 2, state: 'draft' } as Exercise }, /not open for submissions \(it is draft\)/],
    ['an archived exercise', { exercise: { id: 2, state: 'archived' } as Exercise }, /it is archived/],
    ['a session not started', { session: { ...open.session, startsAt: new Date('2030-04-01T00:00:00Z') } }, /opens at 2030-04-01/],
    ['a session over', { session: { ...open.session, endsAt: new Date('2030-02-01T00:00:00Z') } }, /closed at 2030-02-01/],
    ['a passed deadline', { statement: { id: 7, deadline: new Date('2030-02-15T00:00:00Z') } as StudentStatement }, /deadline of statement 7 passed/],
  ])('refuses %s with 403 and says why', (_name, over, why) => {
    const answer = refusal(over);
    expect(answer).toMatch(/^forbidden: /);
    expect(answer).toMatch(why);
  });
});
