import { messageIdOf, productionIdOfMessageId } from '../src';

describe('job ids', () => {
  it('one job id per production, and back', () => {
    expect(messageIdOf(42)).toBe('production-42');
    expect(productionIdOfMessageId('production-42')).toBe(42);
    expect(productionIdOfMessageId('other-1')).toBeNull();
    expect(productionIdOfMessageId(undefined)).toBeNull();
  });
});
