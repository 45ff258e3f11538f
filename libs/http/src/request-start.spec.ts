import { formatRequestStart, forwardedRequestStart, fromTrustedProxy, parseRequestStart, REQUEST_START_HEADER, requestArrivalOf } from './request-start';

describe('X-Request-Start', () => {
  const ms = 1_795_326_137_175;

  it('round-trips what the gateway writes', () => {
    expect(parseRequestStart(formatRequestStart(ms))).toBe(ms);
  });

  it('accepts seconds, milliseconds and microseconds, with or without t=', () => {
    expect(parseRequestStart('t=1795326137')).toBe(1_795_326_137_000);
    expect(parseRequestStart(String(ms))).toBe(ms);
    expect(parseRequestStart('t=1795326137175123')).toBe(ms);
    expect(parseRequestStart(['t=1795326137.5'])).toBe(1_795_326_137_000);
  });

  it('ignores absent or malformed values', () => {
    for (const v of [undefined, '', 't=', 't=abc', 't=12', '1795326137175; drop', '-1795326137175']) expect(parseRequestStart(v)).toBeUndefined();
  });
});

describe('the arrival a process believes', () => {
  const received = 1_795_326_137_175;
  const budgetMs = 60_000;
  const HOUR = 3_600_000;
  const loopbackProxies = { trusts: (address: string) => address === '127.0.0.1' || address === '::ffff:127.0.0.1' };
  const from = (remoteAddress: string | undefined, start?: number) => ({
    headers: start === undefined ? {} : { [REQUEST_START_HEADER]: formatRequestStart(start) },
    socket: { remoteAddress },
  });

  it('trusts the stamp of a peer that is one of the proxies, and of no other peer', () => {
    expect(fromTrustedProxy(from('127.0.0.1'), loopbackProxies)).toBe(true);
    expect(fromTrustedProxy(from('::ffff:127.0.0.1'), loopbackProxies)).toBe(true);
    expect(fromTrustedProxy(from('192.0.2.7'), loopbackProxies)).toBe(false);
    expect(fromTrustedProxy(from(undefined), loopbackProxies)).toBe(false); // a closed socket names no peer
  });

  it("ignores a client's stamp, future or past: the arrival is when this process received the request", () => {
    for (const start of [received + HOUR, received - HOUR, received - 1000]) {
      expect(requestArrivalOf(from('192.0.2.7', start), received, { proxies: loopbackProxies, budgetMs })).toBe(received);
    }
  });

  it("clamps a proxy's stamp to [received − budget, received]", () => {
    const arrival = (start: number, opts: { budgetMs?: number } = { budgetMs }) => requestArrivalOf(from('127.0.0.1', start), received, { proxies: loopbackProxies, ...opts });
    expect(arrival(received - 1500)).toBe(received - 1500);
    expect(arrival(received + HOUR)).toBe(received);
    expect(arrival(received - HOUR)).toBe(received - budgetMs);
    expect(arrival(received - HOUR, {})).toBe(received - HOUR); // no answer deadline: nothing to clamp it to
    expect(requestArrivalOf({ headers: { [REQUEST_START_HEADER]: 'soon' }, socket: { remoteAddress: '127.0.0.1' } }, received, { proxies: loopbackProxies, budgetMs })).toBe(received);
    expect(requestArrivalOf(from('127.0.0.1'), received, { proxies: loopbackProxies, budgetMs })).toBe(received);
  });

  it("forwards a proxy's stamp as it is and replaces a client's with its own arrival", () => {
    expect(forwardedRequestStart(from('127.0.0.1', received - 1500), received, loopbackProxies)).toBe(formatRequestStart(received - 1500));
    expect(forwardedRequestStart(from('192.0.2.7', received + HOUR), received, loopbackProxies)).toBe(formatRequestStart(received));
    expect(forwardedRequestStart({ headers: { [REQUEST_START_HEADER]: 'junk' }, socket: { remoteAddress: '127.0.0.1' } }, received, loopbackProxies)).toBe(formatRequestStart(received));
  });
});
