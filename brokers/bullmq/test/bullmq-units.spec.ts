import { assertGraderExecAllowed, loadBullMqConfig, messageIdOf, productionIdOfMessageId } from '../src/core';

describe('job ids', () => {
  it('one job id per production, and back', () => {
    expect(messageIdOf(42)).toBe('production-42');
    expect(productionIdOfMessageId('production-42')).toBe(42);
    expect(productionIdOfMessageId('other-1')).toBeNull();
    expect(productionIdOfMessageId(undefined)).toBeNull();
  });
});

describe('config', () => {
  it('has bounded retention and stalled recovery by default', () => {
    expect(loadBullMqConfig({})).toMatchObject({
      SG_BROKER_QUEUE: 'sg-grading',
      SG_BROKER_KEEP_COMPLETED: 1000,
      SG_BROKER_KEEP_FAILED: 5000,
      SG_BROKER_MAX_STALLED: 2,
    });
  });
  it('refuses queue names with ":" and names the variable', () => {
    expect(() => loadBullMqConfig({ SG_BROKER_QUEUE: 'a:b' })).toThrow(/SG_BROKER_QUEUE/);
  });
  it('refuses the blocking grader, which would stall lock renewal', () => {
    expect(() => assertGraderExecAllowed('blocking')).toThrow(/SG_GRADER_EXEC=blocking/);
    expect(() => assertGraderExecAllowed('pool')).not.toThrow();
  });
});
