import { drainDecision, judgeAudit, settledRabbitAcks } from '../src/audit';

const rows = (n: number, status = 'graded') => Array.from({ length: n }, (_, i) => ({ id: i + 1, status }));
const base = { acked: null, drainS: 1, drained: true };

describe('zero-loss audit arithmetic', () => {
  it('balanced: every accepted SPS persisted with a final status', () => {
    const a = judgeAudit({ ...base, acceptedCount: 3, acceptedIds: [1, 2, 3], rows: rows(3) });
    expect(a).toMatchObject({ balanced: true, lost: 0, duplicated: 0, persistedFinal: 3 });
    expect(a.summary).toMatch(/^balanced/);
  });

  it('a deleted production is lost (matched by id)', () => {
    const a = judgeAudit({ ...base, acceptedCount: 3, acceptedIds: [1, 2, 3], rows: rows(3).filter((r) => r.id !== 2) });
    expect(a).toMatchObject({ balanced: false, lost: 1, duplicated: 0 });
    expect(a.summary).toMatch(/^lost 1 \/ duplicated 0/);
  });

  it('a production stuck in the queue after the drain is lost too', () => {
    const a = judgeAudit({ ...base, drained: false, acceptedCount: 2, acceptedIds: [1, 2], rows: [{ id: 1, status: 'graded' }, { id: 2, status: 'queued' }] });
    expect(a).toMatchObject({ lost: 1, stuck: 1 });
  });

  it('the same production acknowledged twice, or acked more often than accepted, is duplicated', () => {
    expect(judgeAudit({ ...base, acceptedCount: 3, acceptedIds: [1, 2, 2], rows: rows(2) }).duplicated).toBe(1);
    expect(judgeAudit({ ...base, acked: 4, acceptedCount: 3, acceptedIds: [1, 2, 3], rows: rows(3) })).toMatchObject({ duplicated: 1, balanced: false });
  });

  it('fewer broker acks than accepted, final productions is unbalanced (a job left to redeliver)', () => {
    const a = judgeAudit({ ...base, acked: 2, acceptedCount: 3, acceptedIds: [1, 2, 3], rows: rows(3) });
    expect(a).toMatchObject({ balanced: false, lost: 0, duplicated: 0, unacked: 1 });
    expect(a.summary).toMatch(/^lost 0 \/ duplicated 0 \/ unacked 1/);
  });

  it('a write the client never heard of (its SPS timed out) is reported, not a loss', () => {
    const a = judgeAudit({ ...base, acked: 3, acceptedCount: 2, acceptedIds: [1, 3], rows: rows(3) });
    expect(a).toMatchObject({ balanced: true, unacknowledgedWrites: 1 });
  });

  it('without ids it falls back to counts; failed grading is final but reported', () => {
    const a = judgeAudit({ ...base, acceptedCount: 3, acceptedIds: null, rows: [...rows(2), { id: 3, status: 'failed' }] });
    expect(a).toMatchObject({ balanced: true, failedGrading: 1 });
    expect(judgeAudit({ ...base, acceptedCount: 3, acceptedIds: null, rows: rows(2) }).lost).toBe(1);
  });

  it('an expired production (never graded, its client had stopped waiting) is final and explicit, never lost', () => {
    const expired = { id: 3, status: 'failed', failureReason: 'expired: not graded, its client had stopped waiting' };
    // Told 202 before it expired: accepted and final.
    const told = judgeAudit({ ...base, acked: 3, acceptedCount: 3, acceptedIds: [1, 2, 3], rows: [...rows(2), expired] });
    expect(told).toMatchObject({ balanced: true, lost: 0, failedGrading: 1, expired: 1 });
    expect(told.summary).toMatch(/1 expired/);
    // Answered 503 (or cut): a write the client was not told was accepted, still no loss.
    const refused = judgeAudit({ ...base, acked: 3, acceptedCount: 2, acceptedIds: [1, 2], rows: [...rows(2), expired] });
    expect(refused).toMatchObject({ balanced: true, lost: 0, expired: 1, unacknowledgedWrites: 1 });
  });
});

describe('the drain: when it may stop waiting', () => {
  const poll = { open: 3, openTold: 0, elapsedS: 15, timeoutS: 120, untoldAfterS: 15 };

  it('ends when nothing is open', () => {
    expect(drainDecision({ ...poll, open: 0, elapsedS: 0 })).toBe('drained');
  });

  it('leaves a backlog no client was told of once untoldAfterS has passed, not before', () => {
    expect(drainDecision(poll)).toBe('untold-only');
    expect(drainDecision({ ...poll, elapsedS: 14 })).toBe('wait');
  });

  it('waits for a production a client was told was accepted, up to the timeout', () => {
    expect(drainDecision({ ...poll, openTold: 1 })).toBe('wait');
    expect(drainDecision({ ...poll, openTold: 1, elapsedS: 120 })).toBe('timeout');
  });

  it('without the told ids (or untoldAfterS) it waits out every open production', () => {
    expect(drainDecision({ ...poll, openTold: null })).toBe('wait');
    expect(drainDecision({ ...poll, untoldAfterS: null })).toBe('wait');
  });

  it('a discarded backlog is reported as stuck work nobody was told of, not a loss', () => {
    const a = judgeAudit({ ...base, drained: false, untoldBacklog: 1, acceptedCount: 1, acceptedIds: [1], rows: [{ id: 1, status: 'graded' }, { id: 2, status: 'grading' }] });
    expect(a).toMatchObject({ balanced: true, lost: 0, stuck: 1, discarded: 1 });
    expect(a.summary).toMatch(/1 of them no client was told of/);
  });
});

describe('RabbitMQ ack readings', () => {
  it('waits until the management stats stop moving (they lag a burst by a few seconds)', async () => {
    const readings = [10, 12, 12];
    const read = jest.fn(async () => readings.shift() ?? 12);
    expect(await settledRabbitAcks(1, 4, read)).toBe(12);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('is null when the management API is not reachable', async () => {
    expect(await settledRabbitAcks(1, 4, async () => null)).toBeNull();
  });
});
