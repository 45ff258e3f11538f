import { DomainError, notFound, type SubmissionContext, type SubmissionContextReader } from '@shellgrade/domain';
import { CachedSubmissionContextReader } from '../src/cached-submission-context.reader';
import type { ContextLookup, FillGuard, SubmissionContextCache } from '../src/context-cache';
import { RecordingObserver } from './support/recording-observer';
import { sampleContext } from './sample-context';

/** A deep copy, as a fresh database read would return (structuredClone turns Buffers into Uint8Arrays). */
const copyOf = ({ statement, exercise, session, enrolled }: SubmissionContext): SubmissionContext => ({
  statement: { ...statement, questionArchive: Buffer.from(statement.questionArchive), deadline: statement.deadline && new Date(statement.deadline) },
  exercise: { ...exercise, questionArchive: Buffer.from(exercise.questionArchive), skills: [...exercise.skills] },
  session: { ...session, startsAt: new Date(session.startsAt), endsAt: new Date(session.endsAt) },
  enrolled,
});

/** The "database": one statement, counting its reads. */
class CountingReader implements SubmissionContextReader {
  calls = 0;
  constructor(public context: SubmissionContext) {}
  async load(userId: number, statementId: number, exerciseId: number): Promise<SubmissionContext> {
    this.calls++;
    const { statement } = this.context;
    if (statement.id !== statementId || statement.userId !== userId || statement.exerciseId !== exerciseId) throw notFound('student statement', statementId);
    return copyOf(this.context);
  }
}

/** An in-memory cache store; `failing` makes a step reject as an unreachable Redis would. */
class FakeCache implements SubmissionContextCache {
  readonly entries = new Map<number, string>();
  fills: { statementId: number; exerciseId: number; guard: FillGuard }[] = [];
  failing: { lookup?: boolean; fill?: boolean } = {};
  async lookup(statementId: number): Promise<ContextLookup> {
    if (this.failing.lookup) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    return { entry: this.entries.get(statementId) ?? null, guard: { exerciseGeneration: '4', statementGeneration: null } };
  }
  async fill(statementId: number, exerciseId: number, entry: string, guard: FillGuard): Promise<boolean> {
    if (this.failing.fill) throw new Error('Command timed out');
    this.fills.push({ statementId, exerciseId, guard });
    this.entries.set(statementId, entry);
    return true;
  }
}


describe('CachedSubmissionContextReader', () => {
  const context = sampleContext({ userId: 7, statementId: 11, exerciseId: 3 });
  let inner: CountingReader;
  let cache: FakeCache;
  let observer: RecordingObserver;
  let reader: CachedSubmissionContextReader;

  beforeEach(() => {
    inner = new CountingReader(context);
    cache = new FakeCache();
    observer = new RecordingObserver();
    reader = new CachedSubmissionContextReader(inner, cache, observer);
  });

  it('a miss reads the inner reader once and fills, with the change counters the lookup saw', async () => {
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(inner.calls).toBe(1);
    expect(cache.fills).toEqual([{ statementId: 11, exerciseId: 3, guard: { exerciseGeneration: '4', statementGeneration: null } }]);
    expect(observer.results).toEqual(['miss']);
  });

  it('a hit answers without the inner reader, with equal Buffers and Dates in a fresh object', async () => {
    const first = await reader.load(7, 11, 3);
    const second = await reader.load(7, 11, 3);
    const third = await reader.load(7, 11, 3);
    expect(inner.calls).toBe(1);
    expect(second).toEqual(context);
    expect(second.statement.deadline).toBeInstanceOf(Date);
    expect(Buffer.isBuffer(second.exercise.questionArchive)).toBe(true);
    expect(second).not.toBe(first);
    expect(third).not.toBe(second);
    expect(observer.results).toEqual(['miss', 'hit', 'hit']);
  });

  it.each([
    ['another user', 8, 3],
    ['another exercise', 7, 4],
  ])('an entry asked for by %s goes to the inner reader, which answers not-found', async (_who, userId, exerciseId) => {
    await reader.load(7, 11, 3);
    const err = await reader.load(userId, 11, exerciseId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('not-found');
    expect(inner.calls).toBe(2);
    expect(cache.fills).toHaveLength(1);
    expect(observer.results).toEqual(['miss', 'miss']);
  });

  it('a statement that does not exist is not cached', async () => {
    await expect(reader.load(7, 99, 3)).rejects.toMatchObject({ kind: 'not-found' });
    expect(cache.entries.size).toBe(0);
  });

  it('fails open when the cache cannot be read: the inner reader answers, the error is counted', async () => {
    cache.failing.lookup = true;
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(inner.calls).toBe(2);
    expect(cache.fills).toHaveLength(0);
    expect(observer.results).toEqual(['error', 'error']);
    expect(observer.failures).toEqual(['lookup', 'lookup']);
  });

  it('fails open when the cache cannot be filled: the context is still returned', async () => {
    cache.failing.fill = true;
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(observer.results).toEqual(['miss']);
    expect(observer.failures).toEqual(['fill']);
  });

  it('an unreadable entry counts as an error, is answered by the inner reader and overwritten', async () => {
    cache.entries.set(11, '{"v":1,"context":');
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(observer.results).toEqual(['error']);
    expect(observer.failures).toEqual(['decode']);
    expect(await reader.load(7, 11, 3)).toEqual(context);
    expect(inner.calls).toBe(1);
    expect(observer.results).toEqual(['error', 'hit']);
  });

  it('inner failures other than not-found reach the caller unchanged', async () => {
    const down = new DomainError('unavailable', 'database down');
    const failing: SubmissionContextReader = { load: async () => Promise.reject(down) };
    const withFailingInner = new CachedSubmissionContextReader(failing, cache, observer);
    await expect(withFailingInner.load(7, 11, 3)).rejects.toBe(down);
    expect(cache.fills).toHaveLength(0);
  });
});
