import { answerDeadlineOf, isExpired } from '../src/answer-deadline';
import { DomainError } from '../src/errors';
import { GradingWorker } from '../src/grading-worker';
import { fakes, inRow, owner, sha, type Fakes } from './support/port-fakes';

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

describe('GradingWorker: archives kept in the production row (storage: postgres)', () => {
  const cmd = { ...owner, archive: Buffer.from('tgz') };

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

describe('GradingWorker answer deadline', () => {
  const T = 1_800_000_000_000;
  async function queuedProduction(f: Fakes) {
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

  it('an already final production is returned as is, deadline or not (a redelivery)', async () => {
    const f = fakes();
    const worker = new GradingWorker(f.context, f.productions, f.archives, f.grader, () => T + 1);
    const p = await queuedProduction(f);
    await f.productions.complete(p.id, { grade: 80, comment: [] });
    await expect(worker.grade(p.id, { deadline: T })).resolves.toMatchObject({ status: 'graded', grade: 80 });
  });
});
