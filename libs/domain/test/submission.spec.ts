import type { Exercise, ExerciseProduction, StudentStatement } from '../src/entities';
import { DomainError } from '../src/errors';
import type { GradingDispatch, SubmissionAdmission } from '../src/ports';
import { isExpired } from '../src/answer-deadline';
import { GradingWorker } from '../src/grading-worker';
import { refuseClosedSubmission, SubmissionService } from '../src/submission';
import { fakes, inRow, owner, sha, validator } from './support/port-fakes';

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

describe('SubmissionService: archives kept in the production row (storage: postgres)', () => {
  const cmd = { ...owner, archive: Buffer.from('tgz') };

  it('the submission writes the archive with its row: no put, and the row carries exactly the bytes it hashed', async () => {
    const f = inRow();
    const dispatch: GradingDispatch = { dispatch: jest.fn(async (r) => r.production!) };
    const p = await new SubmissionService(f.context, validator, f.productions, f.archives, dispatch).submit(cmd);
    expect(f.archives.put).not.toHaveBeenCalled();
    expect(f.productions.create).toHaveBeenCalledWith(expect.objectContaining({ archive: cmd.archive, archiveSha256: sha(cmd.archive), archiveSize: 3 }));
    expect(f.rowArchives.get(p.id)).toBe(cmd.archive);
  });

  it('a production stored whole is created as its dispatch starts it (queued, grading); one whose archive is stored apart is created received', async () => {
    const startingAs = (startsAs?: GradingDispatch['startsAs']): GradingDispatch => ({ startsAs, dispatch: jest.fn(async (r) => r.production!) });
    const created = (f: ReturnType<typeof fakes>, dispatch: GradingDispatch) => new SubmissionService(f.context, validator, f.productions, f.archives, dispatch).submit(cmd);
    await expect(created(inRow(), startingAs('queued'))).resolves.toMatchObject({ status: 'queued' });
    await expect(created(inRow(), startingAs('grading'))).resolves.toMatchObject({ status: 'grading' });
    await expect(created(inRow(), startingAs())).resolves.toMatchObject({ status: 'received' });
    await expect(created(fakes(), startingAs('queued'))).resolves.toMatchObject({ status: 'received' });
    await expect(created(fakes(), startingAs('grading'))).resolves.toMatchObject({ status: 'received' });
  });

  it('graded inline from a row stored whole: created grading, no status update before the sandbox, the outcome stored once', async () => {
    const f = inRow();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader);
    const inline: GradingDispatch = { startsAs: 'grading', dispatch: (r) => worker.grade(r.productionId, { production: r.production, archive: r.archive, context: r.context }) };
    await expect(new SubmissionService(f.context, validator, f.productions, f.archives, inline).submit(cmd)).resolves.toMatchObject({ status: 'graded', grade: 50 });
    expect(f.productions.create).toHaveBeenCalledWith(expect.objectContaining({ status: 'grading', archive: cmd.archive }));
    expect(f.productions.setStatus).not.toHaveBeenCalled();
    expect(f.productions.complete).toHaveBeenCalledTimes(1);
    expect(f.grader.grade).toHaveBeenCalledTimes(1);
  });

  it('a store that keeps archives apart still gets put after the row, and the row is created without bytes', async () => {
    const f = fakes();
    const dispatch: GradingDispatch = { dispatch: jest.fn(async (r) => r.production!) };
    const p = await new SubmissionService(f.context, validator, f.productions, f.archives, dispatch).submit(cmd);
    expect(f.archives.put).toHaveBeenCalledWith(p.id, cmd.archive);
    expect((f.productions.create as jest.Mock).mock.calls[0][0]).not.toHaveProperty('archive');
  });
});

describe('SubmissionService after an expired attempt', () => {
  const T = 1_800_000_000_000;
  const cmd = { userId: 1, exerciseId: 2, statementId: 7, archive: Buffer.from('tgz') };

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
