// Where a micro-benchmark leaves its result: a stamped JSON record (kept, for trends), the latest
// record and its Markdown table beside it, and the table on stdout.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resultStamp } from './paths';

/** Writes `<prefix><stamp>.json`, `<prefix>latest.json` and `<prefix>latest.md` into `outDir`, and prints the Markdown. */
export async function writeBenchOutput(outDir: string, prefix: string, record: unknown, markdown: string): Promise<void> {
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(record, null, 2)}\n`;
  await writeFile(join(dir, `${prefix}${resultStamp()}.json`), json);
  await writeFile(join(dir, `${prefix}latest.json`), json);
  await writeFile(join(dir, `${prefix}latest.md`), markdown);
  process.stdout.write(markdown);
}
