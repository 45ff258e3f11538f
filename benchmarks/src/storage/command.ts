// `npm run bench -- storage-growth ...`: the storage micro-benchmark's flags (registered by cli.ts).
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { opt } from '../options';
import { repoRoot } from '../paths';
import { run } from '../shell';
import { runStorageBenchToFiles, STORAGE_BENCH_LIMITS } from './storage-growth-bench';

const intIn =
  ([min, max]: readonly [number, number]) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer in [${min}, ${max}]`);
    return n;
  };

export function registerStorageGrowthCommand(program: Command): Command {
  return program
    .command('storage-growth')
    .description('archive storage micro-benchmark: postgres bytea vs MinIO put/get latency and database growth per 1,000 submissions, on private databases and a private bucket (brings postgres and minio up) -> <out>/latest.{json,md}')
    .option('--count <n>', 'productions per storage', intIn(STORAGE_BENCH_LIMITS.count), 1000)
    .option('--archive-bytes <n>', 'size of each archive in bytes', intIn(STORAGE_BENCH_LIMITS.archiveBytes), 1024)
    .addOption(opt('out', { default: 'results/storage' }))
    .action(async (f: { count: number; archiveBytes: number; out: string }) => {
      await run('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'up', 'postgres', 'minio']);
      process.stdout.write((await runStorageBenchToFiles(f)) + '\n');
    });
}
