import { DomainError, type ArchiveStore, type ProductionRepository } from '@shellgrade/domain';
import { refuseSubmission } from './refusal';

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
