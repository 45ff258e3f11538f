/**
 * The SPS's production_data (the original SPA's JSON: a map from byte index to byte value) as a
 * file that benchmarks/sps.js reads with open(). Reading a text file costs a k6
 * VU almost nothing, while building the text in each VU (byte by byte) or decoding it from a
 * SharedArray element costs it 2–5 ms — times hundreds of VUs per run, and under overload k6
 * initialises new VUs during the load. The same text as k6/lib/sps-body.js productionDataJson
 * (production-data.spec.ts holds them equal).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** JSON.stringify lists integer keys in ascending order: the same order as the SPA's map. */
export function productionDataText(name: string, bytes: Uint8Array): string {
  const data: Record<number, number> = {};
  bytes.forEach((b, i) => (data[i] = b));
  return JSON.stringify({ name, size: bytes.length, data });
}

/** Writes <dir>/production-data.json for `archive` and returns its path. */
export function writeProductionData(dir: string, archive: string): string {
  const file = join(dir, 'production-data.json');
  writeFileSync(file, productionDataText('answer.tgz', readFileSync(archive)));
  return file;
}
