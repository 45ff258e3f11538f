import { DomainError } from '@shellgrade/domain';
import { FEEDBACK_BOUNDS, GradingFailure, parseArchiveRefusal, parseGradingOutput } from '../src/grading-output';

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
    ['garbage', 'Traceback (most recent call last):', /not valid JSON/],
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

  it('keeps what a grader printed and its stderr out of the student-visible message and details', () => {
    const err = (() => {
      try {
        parseGradingOutput('Traceback: /srv/sandbox/p1/job-1/grader.py line 3', { exitCode: 0, stderrTail: 'secret' });
      } catch (e) {
        return e as GradingFailure;
      }
    })() as GradingFailure;
    expect(`${err.message} ${JSON.stringify(err.details)}`).not.toMatch(/srv|secret|Traceback/);
    expect(err.diagnostics).toMatchObject({ stderrTail: 'secret', stdoutTail: expect.stringContaining('grader.py') });
  });

  it('bounds feedback texts and replaces host paths with the sandbox path', () => {
    const long = { ...item, expl: `cannot read /srv/sb/p1/job-9/submission/T/x: ${'y'.repeat(5000)}`, verif: 'v'.repeat(1000) };
    const r = parseGradingOutput(line({ grade: 0, comment: Array.from({ length: 300 }, () => long) }), facts, ['/srv/sb/p1/job-9', '/srv/sb']);
    expect(r.comment).toHaveLength(FEEDBACK_BOUNDS.items);
    expect([...r.comment[0].expl]).toHaveLength(FEEDBACK_BOUNDS.expl);
    expect([...r.comment[0].verif]).toHaveLength(FEEDBACK_BOUNDS.verif);
    expect(r.comment[0].expl).toMatch(/^cannot read \/job\/submission\/T\/x: y+…$/);
  });
});

describe('parseArchiveRefusal (status 65 from the helper library)', () => {
  it('turns the refusal line into the student 422 with its reason', () => {
    const out = 'noise\n{"archive_refused": {"reason": "archive-mismatch", "message": "entry 2 reads as \'a\' here but was validated as \'b\'"}}\n';
    const e = parseArchiveRefusal(out, { exitCode: 65 });
    expect({ kind: e.kind, details: e.details }).toEqual({ kind: 'invalid-archive', details: { reason: 'archive-mismatch' } });
    expect(e.message).toMatch(/^the archive was refused: entry 2 reads as 'a'/);
  });

  it('is a failed grading when a grader exits 65 without the refusal line', () => {
    const e = parseArchiveRefusal('{"grade": 100, "comment": []}\n', { exitCode: 65 });
    expect(e).toBeInstanceOf(GradingFailure);
  });
});
