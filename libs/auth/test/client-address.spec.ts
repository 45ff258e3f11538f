/** The per-client rate-limit key: X-Forwarded-For believed from the variant's own proxies only. */
import { clientAddressOf, TrustedProxies } from '../src/client-address';

const req = (peer: string, xff?: string) => ({ headers: xff === undefined ? {} : { 'x-forwarded-for': xff }, socket: { remoteAddress: peer } });

describe('clientAddressOf', () => {
  const loopback = new TrustedProxies(['loopback']);

  it('a peer that is not one of our proxies is the client, whatever X-Forwarded-For it sends', () => {
    expect(clientAddressOf(req('203.0.113.5', '198.51.100.1'), loopback)).toBe('203.0.113.5');
    expect(clientAddressOf(req('10.1.2.3', '198.51.100.1'), loopback)).toBe('10.1.2.3');
    expect(clientAddressOf(req('127.0.0.1', '198.51.100.1'), new TrustedProxies([]))).toBe('127.0.0.1');
  });

  it("through our proxies: the first hop they did not vouch for; what the client prepended is never read", () => {
    expect(clientAddressOf(req('127.0.0.1', '1.2.3.4, 10.1.2.3'), loopback)).toBe('10.1.2.3');
    // HAProxy then the gateway, both ours (loopback): the client is what HAProxy saw.
    expect(clientAddressOf(req('127.0.0.1', '6.6.6.6, 192.0.2.7, 127.0.0.1'), loopback)).toBe('192.0.2.7');
    expect(clientAddressOf(req('::ffff:127.0.0.1', '192.0.2.9'), loopback)).toBe('192.0.2.9');
  });

  it('named ranges, CIDR ranges and single addresses; an unusable hop stops the walk', () => {
    const proxies = new TrustedProxies(['172.18.0.0/16', '2001:db8::1']);
    expect(clientAddressOf(req('172.18.0.4', '192.0.2.1'), proxies)).toBe('192.0.2.1');
    expect(clientAddressOf(req('2001:db8::1', '192.0.2.2'), proxies)).toBe('192.0.2.2');
    expect(clientAddressOf(req('172.18.0.4', 'not-an-address'), proxies)).toBe('172.18.0.4');
    expect(() => new TrustedProxies(['gateway'])).toThrow(/expected an IP address, a CIDR range, or one of loopback/);
  });
});
