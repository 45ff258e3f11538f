/** The harness lock's wait bound (harness-lock.ts): a day by default, SG_HARNESS_WAIT_S otherwise, nonsense refused. */
import { harnessWaitS } from '../src/harness-lock';

describe('harness lock wait', () => {
  it('waits a day unless told; 0 refuses at once; a bad value is an error, not a silent default', () => {
    expect(harnessWaitS({})).toBe(24 * 3600);
    expect(harnessWaitS({ SG_HARNESS_WAIT_S: '0' })).toBe(0);
    expect(harnessWaitS({ SG_HARNESS_WAIT_S: '90' })).toBe(90);
    expect(() => harnessWaitS({ SG_HARNESS_WAIT_S: 'soon' })).toThrow('SG_HARNESS_WAIT_S must be a number of seconds >= 0, got "soon"');
    expect(() => harnessWaitS({ SG_HARNESS_WAIT_S: '-1' })).toThrow();
  });
});
