import type { IncomingMessage } from 'node:http';
import { isInternalAddress, mayReadOps } from './internal-request';

const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('operational endpoints access', () => {
  it('knows internal addresses (loopback, private, link-local, v4-mapped) from public ones', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.1', 'fd00::1']) expect(isInternalAddress(a)).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '2001:db8::1', '::ffff:1.2.3.4', undefined]) expect(isInternalAddress(a)).toBe(false);
  });

  it('refuses relayed requests in internal mode, whatever the proxy address', () => {
    expect(mayReadOps(req('127.0.0.1'), 'internal')).toBe(true);
    expect(mayReadOps(req('127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }), 'internal')).toBe(false);
    expect(mayReadOps(req('127.0.0.1', { forwarded: 'for=8.8.8.8' }), 'internal')).toBe(false);
    expect(mayReadOps(req('8.8.8.8'), 'internal')).toBe(false);
    expect(mayReadOps(req('8.8.8.8'), 'public')).toBe(true);
  });
});
