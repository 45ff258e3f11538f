import { z } from 'zod';
import { base64Bytes, idParam, isoDate, nonEmpty, pageQuery } from './requests';

describe('CRUD request schemas', () => {
  it('parses ids from path strings and rejects the rest', () => {
    expect(idParam.parse('42')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '99999999999']) expect(idParam.safeParse(bad).success).toBe(false);
  });

  it('pages with defaults and bounds', () => {
    expect(pageQuery.parse({})).toEqual({ limit: 100, offset: 0 });
    expect(pageQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(pageQuery.safeParse({ limit: '1001' }).success).toBe(false);
  });

  it('decodes base64 bytes and refuses other text', () => {
    expect(base64Bytes.parse(Buffer.from([0, 255, 7]).toString('base64'))).toEqual(Buffer.from([0, 255, 7]));
    expect(base64Bytes.safeParse('not base64!').success).toBe(false);
  });

  it('accepts ISO dates only (null is handled by .nullable(), never coerced to 1970)', () => {
    expect(isoDate.parse('2030-06-01T12:00:00Z').toISOString()).toBe('2030-06-01T12:00:00.000Z');
    expect(isoDate.safeParse('tomorrow').success).toBe(false);
    expect(isoDate.nullable().parse(null)).toBeNull();
  });

  it('makes update bodies partial, strict and non-empty', () => {
    const update = nonEmpty(z.object({ name: z.string(), age: z.number() }));
    expect(update.parse({ name: 'x' })).toEqual({ name: 'x' });
    expect(update.safeParse({}).success).toBe(false);
    expect(update.safeParse({ name: 'x', extra: 1 }).success).toBe(false);
  });
});
