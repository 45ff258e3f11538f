/** The command a published record says made it: a reader reruns exactly that, testbed included. */
import { commandOf } from '../../src/findings/record';

describe('commandOf', () => {
  it('names the mode and the scale model, and nothing for the full unscaled default', () => {
    expect(commandOf({ mode: 'quick', testbed: 'scaled' })).toBe('npm run findings -- --quick --testbed scaled');
    expect(commandOf({ mode: 'full', testbed: 'scaled' })).toBe('npm run findings -- --testbed scaled');
    expect(commandOf({ mode: 'smoke' })).toBe('npm run findings -- --smoke');
    expect(commandOf({ mode: 'full', testbed: 'unscaled' })).toBe('npm run findings');
  });
});
