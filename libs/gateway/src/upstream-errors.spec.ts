import { status } from '@grpc/grpc-js';
import { classifyGrpcError } from './grpc-upstream-errors';
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

describe('classifyGrpcError', () => {
  const classify = (code: number, clientLeft = false) => classifyGrpcError({ code, details: 'Connection dropped 127.0.0.1:7101' }, 'exercise', 100, 1024, clientLeft);

  it.each([
    [status.UNAVAILABLE, 503, 'refused'],
    [status.DEADLINE_EXCEEDED, 504, 'timeout'],
    [status.RESOURCE_EXHAUSTED, 502, 'other'],
    [status.INTERNAL, 502, 'other'],
  ])('code %i → %i %s, naming the service and nothing internal', (code, httpStatus, kind) => {
    const f = classify(code);
    expect(f).toMatchObject({ status: httpStatus, kind });
    expect(f!.detail).toMatch(/^the exercise service /);
    expect(f!.detail).not.toMatch(/127\.0\.0\.1|Connection dropped|UNAVAILABLE|INTERNAL/);
  });

  it('answers nobody when the gateway cancelled because its client left', () => {
    expect(classify(status.CANCELLED, true)).toBeNull();
  });

  it('answers 503 when the service cancelled the call (shutdown, dropped connection): never a hang', () => {
    expect(classify(status.CANCELLED, false)).toMatchObject({ status: 503, kind: 'refused' });
  });
});
