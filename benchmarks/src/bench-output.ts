// A micro-benchmark on the front door: interleaved rounds of repeated operations, measured under the
// harness lock, its result left as a stamped JSON record (kept, for trends), the latest record and
// its Markdown table beside it, and the table on stdout.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { exclusive } from './harness-lock';
import { opt } from './options';
import { resultsDir, resultStamp } from './paths';

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

export interface RoundsBench<T> {
  command: string;
  description: string;
  /** Default rounds, and default repetitions of each setting per round (with what one repetition is). */
  rounds: number;
  perRound: number;
  perRoundDescription: string;
  /** Output folder under results/ by default, and the file names' prefix in it. */
  folder: string;
  prefix: string;
  measure: (rounds: number, perRound: number) => Promise<T>;
  markdown: (result: T) => string;
}

/** Registers `bench <command> [--rounds n] [--per-round n] [--out dir]` for one micro-benchmark. */
export function registerRoundsBench<T>(program: Command, b: RoundsBench<T>): Command {
  return program
    .command(b.command)
    .description(b.description)
    .addOption(opt('rounds', { description: 'interleaved rounds', default: b.rounds }))
    .addOption(opt('perRound', { description: b.perRoundDescription, default: b.perRound }))
    .addOption(opt('out', { description: `output folder (default: results/${b.folder})` }))
    .action((f: { rounds: number; perRound: number; out?: string }) =>
      exclusive(`${b.command} bench`, async () => {
        const result = await b.measure(f.rounds, f.perRound);
        await writeBenchOutput(f.out ?? join(resultsDir(), b.folder), b.prefix, result, b.markdown(result));
      }),
    );
}
