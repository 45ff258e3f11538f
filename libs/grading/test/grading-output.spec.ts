import { DomainError } from '@shellgrade/domain';
import { parseGradingOutput } from '../src/grading-output';

const facts = { exitCode: 0 };
const line = (o: unknown) => JSON.stringify(o);
const item = { numQ: 1, verif: 'v', status: 'OK', expl: '' };

describe('parseGradingOutput', () => {
  it('takes the last non-empty line as the result', () => {
    const out = `debug noise\n${line({ grade: 50, comment: [item, { ...item, numQ: 2, status: 'NOT OK' }] })}\n\n`;
    expect(parseGradingOutput(out, facts)).toEqual({ grade: 50, comment: [item, { ...item, numQ: 2, status: 'NOT OK' }] });
  });

  it.each([
    ['nothing', '', /printed nothing/],
    ['garbage', 'Traceback (most recent call last):', /invalid JSON/],
    ['a grade above 100', line({ grade: 101, comment: [] }), /grade/],
    ['a fractional grade', line({ grade: 12.5, comment: [] }), /grade/],
    ['an unknown status', line({ grade: 0, comment: [{ ...item, status: 'KO' }] }), /status/],
    ['a missing comment list', line({ grade: 0 }), /comment/],
  ])('rejects %s with a typed grading-failed error', (_n, out, msg) => {
    const err = (() => {
      try {
        parseGradingOutput(out, facts);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('grading-failed');
    expect((err as DomainError).message).toMatch(msg);
    expect((err as DomainError).details).toEqual(facts);
  });
});
