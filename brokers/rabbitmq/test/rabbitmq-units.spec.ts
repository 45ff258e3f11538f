import type { ConsumeMessage } from 'amqplib';
import { DomainError, type ArchiveStore, type ProductionRepository } from '@shellgrade/domain';
import { gradingMessageSchema } from '@shellgrade/dispatch';
import { refuseSubmission } from '@shellgrade/refusal';
import { PendingReplies, decodeJson, deliveryCountOf, encodeJson, gradingReplySchema, replyOf, topologyOf } from '../src';

const msg = (headers: Record<string, unknown> | undefined) => ({ properties: { headers } }) as unknown as ConsumeMessage;

describe('PendingReplies', () => {
  it('resolves true on the reply, false on timeout, and ignores late or unknown replies', async () => {
    jest.useFakeTimers();
    const replies = new PendingReplies();
    const a = replies.expect('a', 1, 1_000);
    const b = replies.expect('b', 2, 1_000);
    replies.settle('a');
    replies.settle('zzz');
    jest.advanceTimersByTime(1_000);
    await expect(a.done).resolves.toBe(true);
    await expect(b.done).resolves.toBe(false);
    replies.settle('b');
    expect(replies.size).toBe(0);
    jest.useRealTimers();
  });

  it('after a reconnection, waiters poll their production and settle once it is final', async () => {
    const replies = new PendingReplies();
    const w = replies.expect('w', 5, 10_000);
    let final = false;
    const seen: number[] = [];
    replies.pollAfterReconnect(async (id) => {
      seen.push(id);
      return final;
    }, 10);
    await new Promise((r) => setTimeout(r, 35));
    expect(replies.size).toBe(1);
    final = true;
    await expect(w.done).resolves.toBe(true);
    expect(new Set(seen)).toEqual(new Set([5]));
    expect(replies.size).toBe(0);
  });
});

describe('grading reply', () => {
  const final = {
    id: 7, userId: 1, exerciseId: 2, statementId: 3, status: 'graded' as const, grade: 80,
    comment: [{ numQ: 1, verif: 'hello.sh exists', status: 'OK' as const, expl: '' }],
    failureReason: null, submissionKey: 'k', archiveSize: 3, archiveSha256: 'a'.repeat(64),
    createdAt: new Date('2026-11-27T00:00:00.000Z'), gradedAt: new Date('2026-11-27T00:00:01.500Z'),
  };

  it('carries the final production across the broker, dates revived, so the requester need not read it back', () => {
    const received = decodeJson(gradingReplySchema, encodeJson(replyOf(final)));
    expect(received).toEqual({ productionId: 7, status: 'graded', production: final });
  });

  it('carries no production when the worker has only its id and status, or it is not final', () => {
    expect(replyOf({ id: 7, status: 'failed' })).toEqual({ productionId: 7, status: 'failed' });
    expect(replyOf({ ...final, status: 'grading' })).toEqual({ productionId: 7, status: 'grading' });
  });
});

describe('deliveryCountOf', () => {
  it('reads the quorum-queue x-delivery-count header, 0 when absent or bad', () => {
    expect(deliveryCountOf(msg(undefined))).toBe(0);
    expect(deliveryCountOf(msg({ 'x-delivery-count': 2 }))).toBe(2);
    expect(deliveryCountOf(msg({ 'x-delivery-count': 'x' }))).toBe(0);
  });
});

describe('grading message', () => {
  it('accepts {productionId} only', () => {
    expect(decodeJson(gradingMessageSchema, Buffer.from('{"productionId":7}'))).toEqual({ productionId: 7 });
    expect(decodeJson(gradingMessageSchema, Buffer.from('{"productionId":-1}'))).toBeNull();
    expect(decodeJson(gradingMessageSchema, Buffer.from('not json'))).toBeNull();
  });
});

describe('topology', () => {
  it('derives the dead-letter names from the work queue', () => {
    expect(topologyOf('q')).toEqual({ work: 'q', deadLetterExchange: 'q.dlx', deadLetter: 'q.dead' });
  });
});

describe('refuseSubmission', () => {
  const deps = () => ({
    productions: { delete: jest.fn().mockResolvedValue(undefined), complete: jest.fn().mockResolvedValue(true) } as unknown as ProductionRepository,
    archives: { delete: jest.fn().mockResolvedValue(undefined) } as unknown as ArchiveStore,
  });
  const info = { broker: 'rabbitmq', queue: 'q', retryAfterSeconds: 4 };

  it('queue full: deletes the production and its archive, 503 with Retry-After', async () => {
    const d = deps();
    const error = await refuseSubmission('queue-full', 3, d, info);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 4 });
    expect(d.productions.delete).toHaveBeenCalledWith(3);
    expect(d.archives.delete).toHaveBeenCalledWith(3);
    expect(d.productions.complete).not.toHaveBeenCalled();
  });

  it('queue full with the backlog known: says how many wait and asks the student back when they should be graded', async () => {
    const error = await refuseSubmission('queue-full', 3, deps(), { ...info, wait: { ahead: 12, estimatedWaitS: 23.5 } });
    expect(error).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 24, details: { queued_ahead: 12, estimated_wait_s: 23.5 } });
    expect(error.message).toBe('the grading queue is full (12 submissions are waiting, about 24 s of grading); your submission was not saved, submit it again in 24 s');
    // Nothing finished lately: the count is told, the spec's Retry-After is kept.
    const early = await refuseSubmission('queue-full', 3, deps(), { ...info, wait: { ahead: 12, estimatedWaitS: null } });
    expect(early).toMatchObject({ retryAfterSeconds: 4, details: { queued_ahead: 12, estimated_wait_s: null } });
    expect(early.message).toMatch(/^the grading queue is full \(12 submissions are waiting\); .* in 4 s$/);
  });

  it('broker unavailable: the production is made final (a late delivery is then a no-op)', async () => {
    const d = deps();
    const error = await refuseSubmission('broker-unavailable', 3, d, { ...info, error: new Error('timeout') });
    expect(error).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 4 });
    expect(d.productions.complete).toHaveBeenCalledWith(3, { failureReason: expect.stringMatching(/unavailable: not queued.*timeout/) });
    expect(d.productions.delete).not.toHaveBeenCalled();
  });
});
