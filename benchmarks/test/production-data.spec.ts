import { randomBytes } from 'node:crypto';
import { productionDataText } from '../src/production-data';
// The k6-side encoder (plain JS module run by k6; jest transforms it like TypeScript).
import { productionDataJson } from '../../k6/lib/sps-body.js';

describe('production_data text for k6 (benchmarks/src/production-data.ts)', () => {
  it.each([0, 1, 11, 947])('is the same text as k6/lib/sps-body.js builds, for %i bytes', (n) => {
    const bytes = new Uint8Array(randomBytes(n));
    expect(productionDataText('answer.tgz', bytes)).toBe(productionDataJson('answer.tgz', bytes));
  });

  it('is the SPA format: name, size and a map from byte index to byte value', () => {
    expect(JSON.parse(productionDataText('a.tgz', new Uint8Array([31, 139])))).toEqual({ name: 'a.tgz', size: 2, data: { 0: 31, 1: 139 } });
  });
});
