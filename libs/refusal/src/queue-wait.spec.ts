import type { GradingBacklog } from '@shellgrade/domain';
import { MAX_RETRY_AFTER_S, queueWaitOf, retryAfterSeconds } from './queue-wait';

const backlog = (ahead: number, finishedPerS: number | null): GradingBacklog => ({ ahead: async () => ({ ahead, finishedPerS }) });

describe('the wait a queued student is told', () => {
  it('is the productions ahead divided by the recent finishing rate', async () => {
    expect(await queueWaitOf(backlog(6, 0.5), 42)).toEqual({ ahead: 6, estimatedWaitS: 12 });
    expect(await queueWaitOf(backlog(0, 2), 42)).toEqual({ ahead: 0, estimatedWaitS: 0 });
  });

  it('has no estimate before any grading finished, and none at all without a backlog reader or when it fails', async () => {
    expect(await queueWaitOf(backlog(3, null), 42)).toEqual({ ahead: 3, estimatedWaitS: null });
    expect(await queueWaitOf(undefined, 42)).toBeNull();
    expect(await queueWaitOf({ ahead: async () => Promise.reject(new Error('database down')) }, 42)).toBeNull();
  });

  it('asks a refused student back in whole seconds between 1 and the cap, or after the fallback without an estimate', () => {
    expect(retryAfterSeconds(11.2, 5)).toBe(12);
    expect(retryAfterSeconds(0.2, 5)).toBe(1);
    expect(retryAfterSeconds(10_000, 5)).toBe(MAX_RETRY_AFTER_S);
    expect(retryAfterSeconds(null, 5)).toBe(5);
    expect(retryAfterSeconds(undefined, 7)).toBe(7);
  });
});
