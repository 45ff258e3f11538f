import { DomainError } from '@shellgrade/domain';
import { ZodError } from 'zod';
import { decodeMultipart, decodeSpaBody } from './submission-body';

const bytes = Buffer.from([31, 139, 8, 0, 255]);
const asMap = Object.fromEntries([...bytes].map((b, i) => [String(i), b]));

function kindOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.kind;
    if (e instanceof ZodError) return 'zod';
    throw e;
  }
  return 'none';
}

describe('decodeSpaBody', () => {
  it('decodes the byte-index map of the original SPA', () => {
    const out = decodeSpaBody({ ex_id: 2, ps_id: 1, production_data: { name: 'a.tgz', size: 5, data: asMap } }, 100);
    expect(out).toEqual({ exerciseId: 2, statementId: 1, archive: bytes });
  });

  it('decodes an array of bytes to the same bytes, keys in any order', () => {
    const shuffled = Object.fromEntries(Object.entries(asMap).reverse());
    const a = decodeSpaBody({ ex_id: 2, ps_id: 1, production_data: { data: [...bytes] } }, 100);
    const b = decodeSpaBody({ ex_id: '2', ps_id: '1', production_data: { data: shuffled } }, 100);
    expect(a.archive.equals(bytes)).toBe(true);
    expect(b.archive.equals(bytes)).toBe(true);
  });

  it.each([
    ['value above 255', { ...asMap, 2: 256 }],
    ['negative value', { ...asMap, 2: -1 }],
    ['fractional value', { ...asMap, 2: 1.5 }],
    ['string value', { ...asMap, 2: '8' }],
    ['gap in indexes', { 0: 1, 2: 3 }],
    ['non-canonical index', { '00': 1, 1: 2 }],
    ['non-numeric index', { 0: 1, x: 2 }],
  ])('rejects a %s as a validation error', (_name, data) => {
    expect(kindOf(() => decodeSpaBody({ ex_id: 2, ps_id: 1, production_data: { data } }, 100))).toBe('validation');
  });

  it('rejects a size that does not match the data', () => {
    expect(kindOf(() => decodeSpaBody({ ex_id: 2, ps_id: 1, production_data: { size: 9, data: asMap } }, 100))).toBe('validation');
  });

  it('rejects missing or malformed ids and data', () => {
    expect(kindOf(() => decodeSpaBody({ ps_id: 1, production_data: { data: asMap } }, 100))).toBe('zod');
    expect(kindOf(() => decodeSpaBody({ ex_id: -1, ps_id: 1, production_data: { data: asMap } }, 100))).toBe('zod');
    // Beyond PostgreSQL's integer: a 400, never a database error (500).
    expect(kindOf(() => decodeSpaBody({ ex_id: 2 ** 31, ps_id: 1, production_data: { data: asMap } }, 100))).toBe('zod');
    expect(kindOf(() => decodeMultipart({ ex_id: '1', ps_id: '99999999999' }, { buffer: bytes }))).toBe('zod');
    expect(kindOf(() => decodeSpaBody({ ex_id: 1, ps_id: 1 }, 100))).toBe('zod');
    expect(kindOf(() => decodeSpaBody({ ex_id: 1, ps_id: 1, production_data: { data: 'abc' } }, 100))).toBe('zod');
  });

  it('answers too-large before allocating a huge archive', () => {
    expect(kindOf(() => decodeSpaBody({ ex_id: 1, ps_id: 1, production_data: { data: new Array(101).fill(0) } }, 100))).toBe('too-large');
  });
});

describe('decodeMultipart', () => {
  it('reads the fields and the file part', () => {
    expect(decodeMultipart({ ex_id: '3', ps_id: '4' }, { buffer: bytes })).toEqual({ exerciseId: 3, statementId: 4, archive: bytes });
  });

  it('requires the file part', () => {
    expect(kindOf(() => decodeMultipart({ ex_id: '3', ps_id: '4' }, undefined))).toBe('validation');
  });
});
