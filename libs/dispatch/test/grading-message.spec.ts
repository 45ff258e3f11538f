import { messageIdOf, productionIdOfMessageId, replyWaitMs } from '../src/grading-message';

describe('job ids', () => {
  it('one job id per production, and back', () => {
    expect(messageIdOf(42)).toBe('production-42');
    expect(productionIdOfMessageId('production-42')).toBe(42);
    expect(productionIdOfMessageId('other-1')).toBeNull();
    expect(productionIdOfMessageId(undefined)).toBeNull();
  });
});

describe('replyWaitMs', () => {
  it('is the whole timeout without an arrival time', () => {
    expect(replyWaitMs(30_000, undefined, 1_000)).toBe(30_000);
  });

  it('subtracts the time spent before the dispatch, down to zero', () => {
    expect(replyWaitMs(30_000, 1_000, 13_000)).toBe(18_000);
    expect(replyWaitMs(30_000, 1_000, 45_000)).toBe(0);
  });

  it('never exceeds the timeout for an arrival time in the future', () => {
    expect(replyWaitMs(30_000, 99_000, 1_000)).toBe(30_000);
  });
});
