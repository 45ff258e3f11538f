import { DomainError, type ArchiveStore, type ExerciseProduction, type ProductionRepository } from '@shellgrade/domain';
import type { GradingMessage } from '@shellgrade/dispatch';
import { QueueDispatch, type PublishedGrading, type QueueDispatchOptions, type QueueTransport } from '../src';

const production = (id: number, status: ExerciseProduction['status']) => ({ id, status }) as ExerciseProduction;

/** The productions and archives as maps, and a transport that records what it was asked; `replied`: the production a sync reply carries. */
function rig(transport: Partial<QueueTransport> = {}, options: Partial<QueueDispatchOptions> = {}, replied?: ExerciseProduction) {
  const rows = new Map<number, ExerciseProduction>([[1, production(1, 'received')]]);
  const productions = {
    setStatus: jest.fn(async (id: number, status: 'queued' | 'grading') => void (rows.get(id)!.status = status)),
    findById: jest.fn(async (id: number) => rows.get(id) ?? null),
    delete: jest.fn(async (id: number) => void rows.delete(id)),
    complete: jest.fn(async (id: number, outcome: { failureReason?: string }) => {
      Object.assign(rows.get(id)!, { status: 'failed', failureReason: outcome.failureReason });
      return rows.get(id)!;
    }),
  } as unknown as ProductionRepository;
  const archives = { delete: jest.fn(async () => undefined) } as unknown as ArchiveStore;
  const published: { message: GradingMessage; headers: Record<string, string>; replyBy?: number }[] = [];
  const fake: QueueTransport = {
    system: 'fake',
    queue: 'q',
    publish: async (message, headers, replyBy): Promise<PublishedGrading> => {
      published.push({ message, headers, replyBy });
      return { outcome: async () => replied };
    },
    refusedAsFull: () => false,
    ...transport,
  };
  const dispatch = new QueueDispatch(fake, productions, archives, { reply: 'async', replyTimeoutMs: 5_000, retryAfterSeconds: 4, ...options });
  return { rows, productions, archives, published, dispatch };
}

describe('QueueDispatch', () => {
  it('marks the production queued, publishes its id and deadline, and answers with it as it stands (async)', async () => {
    const r = rig({}, { answerBudgetMs: 60_000 });
    await expect(r.dispatch.dispatch({ productionId: 1, receivedAt: 1_000 })).resolves.toMatchObject({ id: 1, status: 'queued' });
    expect(r.productions.setStatus).toHaveBeenCalledWith(1, 'queued');
    expect(r.published).toEqual([{ message: { productionId: 1, deadline: 61_000 }, headers: expect.any(Object), replyBy: undefined }]);
  });

  it('does not write queued again for a production created queued (stored whole)', async () => {
    const r = rig();
    r.rows.get(1)!.status = 'queued';
    await r.dispatch.dispatch({ productionId: 1, production: production(1, 'queued') });
    expect(r.productions.setStatus).not.toHaveBeenCalled();
  });

  it('sync: waits for the outcome until the reply timeout counted from the arrival, and takes the production the reply carried', async () => {
    const graded = production(1, 'graded');
    const r = rig({}, { reply: 'sync' }, graded);
    // A clock that ticks on every read: the deadline must not depend on how often it is read.
    let clock = 1_000_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => clock++);
    try {
      await expect(r.dispatch.dispatch({ productionId: 1, receivedAt: clock - 4_000 })).resolves.toBe(graded);
    } finally {
      now.mockRestore();
    }
    expect(r.published[0].replyBy).toBe(1_000_000 + 1_000);
    expect(r.productions.findById).not.toHaveBeenCalled();
  });

  it('sync without a production in the reply reads it back', async () => {
    const r = rig({}, { reply: 'sync' });
    await expect(r.dispatch.dispatch({ productionId: 1 })).resolves.toMatchObject({ id: 1, status: 'queued' });
    expect(r.productions.findById).toHaveBeenCalledWith(1);
  });

  it('a queue the transport counts full refuses before publishing: 503 + Retry-After, the production deleted', async () => {
    const r = rig({ full: async () => true });
    const refused = await r.dispatch.dispatch({ productionId: 1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 4, details: { broker: 'fake', queue: 'q' } });
    expect(r.published).toEqual([]);
    expect(r.rows.has(1)).toBe(false);
  });

  it('a publish the broker refused for a full queue deletes the production; any other failure makes it final, failed', async () => {
    const full = rig({ publish: async () => Promise.reject(new Error('nack')), refusedAsFull: () => true });
    await expect(full.dispatch.dispatch({ productionId: 1 })).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/queue is full/) });
    expect(full.rows.has(1)).toBe(false);

    const down = rig({ publish: async () => Promise.reject(new Error('no confirm within 10000 ms')) });
    await expect(down.dispatch.dispatch({ productionId: 1 })).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/broker is unavailable/) });
    expect(down.rows.get(1)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/fake did not confirm \(no confirm within 10000 ms\)/) });
  });

  it('ready and close reach the transport when it has a lifecycle of its own, and are no-ops otherwise', async () => {
    const ready = jest.fn(async () => undefined);
    const close = jest.fn(async () => undefined);
    const r = rig({ ready, close });
    await r.dispatch.ready();
    await r.dispatch.close();
    expect(ready).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);
    await expect(rig().dispatch.ready()).resolves.toBeUndefined();
  });
});
