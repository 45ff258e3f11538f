import type { IncomingMessage } from 'node:http';
import { isLoopbackAddress, mayReadOps, presentsScrapeToken } from './internal-request';

const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('operational endpoints access', () => {
  it('knows loopback addresses (v4, v6, v4-mapped) from every other, private ranges included', () => {
    for (const a of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.1.2.3', '172.20.0.5', '192.168.1.1', '169.254.1.1', 'fd00::1', '::ffff:10.0.0.1', '8.8.8.8', '2001:db8::1', undefined]) {
      expect(isLoopbackAddress(a)).toBe(false);
    }
  });

  it('refuses relayed requests and private-range callers in internal mode, whatever the proxy address', () => {
    expect(mayReadOps(req('127.0.0.1'), 'internal')).toBe(true);
    expect(mayReadOps(req('10.0.0.5'), 'internal')).toBe(false);
    expect(mayReadOps(req('192.168.1.9'), 'internal')).toBe(false);
    expect(mayReadOps(req('127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }), 'internal')).toBe(false);
    expect(mayReadOps(req('127.0.0.1', { forwarded: 'for=8.8.8.8' }), 'internal')).toBe(false);
    expect(mayReadOps(req('8.8.8.8'), 'internal')).toBe(false);
    expect(mayReadOps(req('8.8.8.8'), 'public')).toBe(true);
  });

  it('recognises the scrape token as a bearer credential, and nothing when none is configured', () => {
    const token = 'a'.repeat(40);
    expect(presentsScrapeToken(req('8.8.8.8', { authorization: `Bearer ${token}` }), token)).toBe(true);
    expect(presentsScrapeToken(req('8.8.8.8', { authorization: `Bearer ${token}b` }), token)).toBe(false);
    expect(presentsScrapeToken(req('8.8.8.8', { authorization: token }), token)).toBe(false);
    expect(presentsScrapeToken(req('8.8.8.8', { authorization: 'Bearer ' }), '')).toBe(false);
    expect(presentsScrapeToken(req('8.8.8.8'), undefined)).toBe(false);
  });
});
