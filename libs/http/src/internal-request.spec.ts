import type { IncomingMessage } from 'node:http';
import { isLoopbackAddress, isReboundRequest, mayReadOps, namesThisMachine, presentsScrapeToken } from './internal-request';

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

  it('knows the Host headers that name this machine: localhost, loopback addresses, configured names, with or without a port', () => {
    for (const host of ['localhost', 'LocalHost:3000', '127.0.0.1', '127.0.0.1:8080', '127.1.2.3', '[::1]', '[::1]:3000', '[::ffff:127.0.0.1]:3000', undefined]) {
      expect({ host, local: namesThisMachine(host) }).toEqual({ host, local: true });
    }
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', 'localhost.', '127.0.0.1.nip.io', '10.0.0.5', '[::2]', '', 'a b', 'localhost:3000:1']) {
      expect({ host, local: namesThisMachine(host) }).toEqual({ host, local: false });
    }
    expect(namesThisMachine('Shellgrade.Lab:3000', ['shellgrade.lab'])).toBe(true);
    expect(namesThisMachine('shellgrade.lab', [])).toBe(false);
  });

  it('takes a loopback caller naming another site for a page rebound to 127.0.0.1: no loopback credential', () => {
    const rebound = req('127.0.0.1', { host: 'evil.example:3000' });
    expect(mayReadOps(rebound, 'internal')).toBe(false);
    expect(isReboundRequest(rebound)).toBe(true);
    expect(mayReadOps(req('127.0.0.1', { host: 'localhost:3000' }), 'internal')).toBe(true);
    expect(isReboundRequest(req('127.0.0.1', { host: 'shellgrade.lab' }), ['shellgrade.lab'])).toBe(false);
    // Relayed or remote callers have no loopback credential to lose; they are not "rebound".
    expect(isReboundRequest(req('127.0.0.1', { host: 'evil.example', 'x-forwarded-for': '8.8.8.8' }))).toBe(false);
    expect(isReboundRequest(req('8.8.8.8', { host: 'evil.example' }))).toBe(false);
  });
});
