/**
 * The filters of dispatch: pipeline on in-memory ports: what each does with one message, that a
 * redelivery changes nothing, that the student's own failures travel to record as a readable
 * outcome and that transient ones are thrown for the queue to retry.
 */
import {
  DomainError,
  type ArchiveStore,
  type ArchiveValidator,
  type Exercise,
  type ExerciseProduction,
  type Grader,
  type StudentStatement,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import { inMemoryProductions } from '@shellgrade/domain/testing';
import { checkFilter, gradeFilter, pipelineFilters, pipelineMessageSchema, recordFilter, type FilterResult, type PipelineMessage } from '../src';

function ports() {
  const rows = new Map<number, ExerciseProduction>();
  rows.set(1, { id: 1, userId: 3, exerciseId: 2, statementId: 7, status: 'queued', grade: null, comment: [], failureReason: null } as unknown as ExerciseProduction);
  const statement = { id: 7, statementHtml: '<p/>', questionArchive: Buffer.from('q') } as StudentStatement;
  const exercise = { id: 2, graderScript: 'print()', locale: 'en' } as Exercise;
  const context: SubmissionContextReader = { load: jest.fn(async () => ({ statement, exercise, session: {} as never, enrolled: true })) };
  const productions = inMemoryProductions(rows);
  const archives: ArchiveStore = { put: jest.fn(), get: jest.fn(async () => Buffer.from('tgz')), delete: jest.fn() };
  const validator: ArchiveValidator = { validate: jest.fn(async () => undefined) };
  const grader: Grader = { grade: jest.fn(async () => ({ grade: 100, comment: [{ numQ: 1, verif: 'v', status: 'OK' as const, expl: 'e' }] })) };
  return { rows, context, productions, archives, validator, grader };
}

/** Runs a message through the filters, the way the queues would, until it is done or gone. */
async function throughPipeline(deps: ReturnType<typeof ports>, message: PipelineMessage): Promise<{ visited: string[]; end: FilterResult }> {
  const filters = pipelineFilters(deps);
  const visited: string[] = [];
  let at: keyof typeof filters = 'check';
  for (;;) {
    visited.push(at);
    // What a queue carries: the message as JSON, parsed by the next consumer.
    const end = await filters[at](pipelineMessageSchema.parse(JSON.parse(JSON.stringify(message))));
    if (!('next' in end)) return { visited, end };
    at = end.next;
    message = end.message;
  }
}

describe('pipeline filters', () => {
  it('check → grade → record: the grade and feedback are stored once, at the record filter', async () => {
    const p = ports();
    const { visited, end } = await throughPipeline(p, { productionId: 1 });
    expect(visited).toEqual(['check', 'grade', 'record']);
    expect(end).toMatchObject({ done: { id: 1, status: 'graded', grade: 100 } });
    expect(p.validator.validate).toHaveBeenCalledWith(Buffer.from('tgz'));
    expect(p.productions.complete).toHaveBeenCalledTimes(1);
  });

  it('a redelivered message of a final production is done at once, without grading again', async () => {
    const p = ports();
    await throughPipeline(p, { productionId: 1 });
    for (const filter of [checkFilter(p), gradeFilter(p)]) expect(await filter({ productionId: 1 })).toMatchObject({ done: { status: 'graded' } });
    // A duplicate outcome reaching record keeps the first one.
    expect(await recordFilter(p)({ productionId: 1, outcome: { failureReason: 'late duplicate' } })).toMatchObject({ done: { status: 'graded', grade: 100 } });
    expect(p.grader.grade).toHaveBeenCalledTimes(1);
  });

  it('a deleted production is gone at every filter', async () => {
    const p = ports();
    p.rows.clear();
    expect(await checkFilter(p)({ productionId: 1 })).toEqual({ gone: true });
    expect(await gradeFilter(p)({ productionId: 1 })).toEqual({ gone: true });
  });

  it("an archive that fails the check skips the sandbox: record stores the student's reason", async () => {
    const p = ports();
    p.validator.validate = jest.fn(async () => {
      throw new DomainError('invalid-archive', 'entry ../x leaves the archive');
    });
    const { visited, end } = await throughPipeline(p, { productionId: 1 });
    expect(visited).toEqual(['check', 'record']);
    expect(end).toMatchObject({ done: { status: 'failed', failureReason: 'invalid-archive: entry ../x leaves the archive' } });
    expect(p.grader.grade).not.toHaveBeenCalled();
  });

  it('a grading that fails for the student (DomainError) is a readable failed outcome', async () => {
    const p = ports();
    p.grader.grade = jest.fn(async () => {
      throw new DomainError('grading-failed', 'the grader printed no result');
    });
    const { end } = await throughPipeline(p, { productionId: 1 });
    expect(end).toMatchObject({ done: { status: 'failed', failureReason: 'grading-failed: the grader printed no result' } });
  });

  it('a transient failure (store unavailable, a crash) is thrown for the queue to retry, and stores nothing', async () => {
    const p = ports();
    p.archives.get = jest.fn(async () => {
      throw new DomainError('unavailable', 'the archive store is down');
    });
    await expect(checkFilter(p)({ productionId: 1 })).rejects.toThrow('the archive store is down');
    p.archives.get = jest.fn(async () => Buffer.from('tgz'));
    p.grader.grade = jest.fn(async () => {
      throw new Error('sandbox crashed');
    });
    await expect(gradeFilter(p)({ productionId: 1 })).rejects.toThrow('sandbox crashed');
    expect(p.productions.complete).not.toHaveBeenCalled();
  });

  it('record refuses a message without an outcome (it never guesses one)', async () => {
    await expect(recordFilter(ports())({ productionId: 1 })).rejects.toThrow('without an outcome');
  });
});

describe('answer deadline at each hand-over', () => {
  const T = 1_800_000_000_000;

  it('a message taken after its deadline goes from check straight to record, expired, without a sandbox', async () => {
    const deps = { ...ports(), nowMs: () => T + 1 };
    const { visited, end } = await throughPipeline(deps, { productionId: 1, deadline: T });
    expect(visited).toEqual(['check', 'record']);
    expect(end).toMatchObject({ done: { status: 'failed', failureReason: expect.stringMatching(/^expired: /) } });
    expect(deps.grader.grade).not.toHaveBeenCalled();
  });

  it('the deadline travels from check to grade, and grade looks again before the sandbox starts', async () => {
    let now = T - 10;
    const deps = { ...ports(), nowMs: () => now };
    const passed = await checkFilter(deps)({ productionId: 1, deadline: T });
    expect(passed).toEqual({ next: 'grade', message: { productionId: 1, deadline: T } });
    now = T; // the grade queue held it until the deadline
    const graded = await gradeFilter(deps)((passed as { message: PipelineMessage }).message);
    expect(graded).toMatchObject({ next: 'record', message: { outcome: { failureReason: expect.stringMatching(/^expired: /) } } });
    expect(deps.grader.grade).not.toHaveBeenCalled();
    expect(deps.rows.get(1)!.status).toBe('queued');
  });

  it('a message in time, or one without a deadline, is graded', async () => {
    for (const message of [{ productionId: 1, deadline: T }, { productionId: 1 }]) {
      const deps = { ...ports(), nowMs: () => T - 1 };
      const { end } = await throughPipeline(deps, message);
      expect(end).toMatchObject({ done: { status: 'graded', grade: 100 } });
    }
  });
});
