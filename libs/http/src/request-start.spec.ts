import { formatRequestStart, parseRequestStart } from './request-start';

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
