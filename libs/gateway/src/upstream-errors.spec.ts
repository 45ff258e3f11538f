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
    const f = classifyUpstreamError(err(code), 'exercise', 100);
    expect(f).toMatchObject({ status, kind, markDown });
    expect(f.detail).toMatch(/^the exercise service /);
    // Neither an internal address nor a system error code reaches the client.
    expect(f.detail).not.toMatch(/http:|127\.0\.0\.1|\bE[A-Z]{3,}/);
  });

  it('maps the gateway timeout to 504 naming the limit', () => {
    const f = classifyUpstreamError(upstreamTimeoutError(250), 'leftover', 250);
    expect(f).toMatchObject({ status: 504, kind: 'timeout' });
    expect(f.detail).toBe('the leftover service did not answer within 250 ms');
  });
});
