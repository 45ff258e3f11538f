import { classifyUpstreamError, upstreamTimeoutError } from './upstream-errors';

const err = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

describe('classifyUpstreamError', () => {
  it.each([
    ['ECONNREFUSED', 502, 'refused', true],
    ['ECONNRESET', 502, 'reset', false],
    ['EPIPE', 502, 'reset', false],
    ['EHOSTUNREACH', 502, 'unreachable', true],
    ['EWHATEVER', 502, 'other', false],
  ])('%s → %i %s', (code, status, kind, markDown) => {
    const f = classifyUpstreamError(err(code), 'exercise (http://127.0.0.1:1)', 100);
    expect(f).toMatchObject({ status, kind, markDown });
    expect(f.detail).toContain('exercise (http://127.0.0.1:1)');
  });

  it('maps the gateway timeout to 504 naming the limit', () => {
    const f = classifyUpstreamError(upstreamTimeoutError(250), 'leftover (http://x)', 250);
    expect(f).toMatchObject({ status: 504, kind: 'timeout' });
    expect(f.detail).toBe('upstream leftover (http://x) did not answer within 250 ms');
  });
});
