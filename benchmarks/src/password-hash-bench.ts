/**
 * CPU per password hash, scrypt N = 2^14 (the secure default before argon2id) against
 * argon2id at OWASP's password-storage settings (all of equal strength by the cheat sheet; the
 * first is the one the secure default uses), plus the paper-faithful scrypt N = 2. Interleaved
 * A/B rounds in one process, CPU from process.cpuUsage (user + system of every thread: both
 * libraries hash on libuv/napi worker threads), so the host's speed cancels out of the ratios.
 *
 *   node dist/benchmarks/src/password-hash-bench.js [--rounds 8] [--per-round 5] [--out results/password-hash]
 * Writes <out>/<stamp>.json and latest.{json,md}; prints the table. Run it on a quiet machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword, scryptHash } from '@shellgrade/auth';
import { mean } from 'simple-statistics';
import { measureMachineSpeed, speedText, type MachineSpeed } from './machine-speed';
import { resultsDir, resultStamp } from './paths';

interface Candidate {
  name: string;
  hash: () => Promise<unknown>;
}

export interface HashCost {
  name: string;
  /** CPU ms per hash, mean of the rounds. */
  cpuMsPerHash: number;
  /** Relative to the first candidate (scrypt 2^14). */
  ratio: number;
}

export interface PasswordHashBench {
  at: string;
  speed: MachineSpeed;
  rounds: number;
  perRound: number;
  costs: HashCost[];
}

const PASSWORD = 'correct horse battery staple';
const argon2id = (memoryKiB: number, timeCost: number) => () =>
  argon2Hash(PASSWORD, { algorithm: Algorithm.Argon2id, memoryCost: memoryKiB, timeCost, parallelism: 1 });

/** What the project hashes with (through libs/auth), then the other OWASP argon2id settings. */
const CANDIDATES: Candidate[] = [
  { name: 'scrypt N=2^14 r=8 p=1 (old secure default; kdfCost 14 before argon2id)', hash: () => scryptHash(PASSWORD, 14) },
  { name: 'argon2id m=19 MiB t=2 p=1 (new secure default: hashPassword(…, 14))', hash: () => hashPassword(PASSWORD, 14) },
  { name: 'argon2id m=46 MiB t=1 p=1 (OWASP)', hash: argon2id(47_104, 1) },
  { name: 'argon2id m=12 MiB t=3 p=1 (OWASP)', hash: argon2id(12_288, 3) },
  { name: 'argon2id m=9 MiB t=4 p=1 (OWASP)', hash: argon2id(9_216, 4) },
  { name: 'argon2id m=7 MiB t=5 p=1 (OWASP)', hash: argon2id(7_168, 5) },
  { name: 'scrypt N=2 r=8 p=1 (paper-faithful: kdfCost 1)', hash: () => hashPassword(PASSWORD, 1) },
];

async function cpuMsOf(candidate: Candidate, times: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) await candidate.hash();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / times;
}

export async function runPasswordHashBench(rounds: number, perRound: number): Promise<PasswordHashBench> {
  const speed = measureMachineSpeed();
  for (const c of CANDIDATES) await c.hash(); // warm-up: first allocation, lazy binding load
  const samples = CANDIDATES.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of CANDIDATES.entries()) samples[i]!.push(await cpuMsOf(c, perRound));
  }
  const means = samples.map((s) => mean(s));
  const costs = CANDIDATES.map((c, i) => ({ name: c.name, cpuMsPerHash: round2(means[i]!), ratio: round2(means[i]! / means[0]!) }));
  return { at: new Date().toISOString(), speed, rounds, perRound, costs };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function formatPasswordHashBench(b: PasswordHashBench): string {
  return [
    `### CPU per password hash (${b.rounds} interleaved rounds × ${b.perRound} hashes; ${speedText(b.speed)})`,
    '',
    '| scheme | CPU ms per hash | × scrypt 2^14 |',
    '|---|---:|---:|',
    ...b.costs.map((c) => `| ${c.name} | ${c.cpuMsPerHash} | ${c.ratio} |`),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '8' }, 'per-round': { type: 'string', default: '5' }, out: { type: 'string' } } });
  const bench = await runPasswordHashBench(Number(values.rounds), Number(values['per-round']));
  const outDir = resolve(values.out ?? join(resultsDir(), 'password-hash'));
  await mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify(bench, null, 2)}\n`;
  await writeFile(join(outDir, `${resultStamp()}.json`), json);
  await writeFile(join(outDir, 'latest.json'), json);
  await writeFile(join(outDir, 'latest.md'), formatPasswordHashBench(bench));
  process.stdout.write(formatPasswordHashBench(bench));
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
