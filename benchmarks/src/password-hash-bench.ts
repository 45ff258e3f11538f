/**
 * CPU per password hash and per verify at each of OWASP's five equal-strength argon2id settings
 * (libs/auth argon2-strength.ts), plus scrypt N = 2^14 (the secure default before argon2id) and
 * the paper-faithful scrypt N = 2 for the hash. The verify table is what a login pays and what
 * picked the row new hashes take (password.ts). Interleaved rounds in one process, the order
 * rotated each round so no setting always follows the same one; CPU from process.cpuUsage (user
 * + system of every thread: both libraries hash on libuv worker threads), so the host's speed
 * cancels out of the ratios; median and quartiles over the rounds. The system share is the
 * kernel zeroing the pages each argon2 call maps afresh (the binding mmaps and unmaps its memory
 * per call), so it shrinks with m.
 *
 *   npm run bench -- password-hash [--rounds 12] [--per-round 8] [--out results/password-hash]
 * Writes <out>/<stamp>.json and latest.{json,md}; prints the tables. Run it on a quiet machine.
 */
import type { Command } from 'commander';
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { argon2ParamsFor, hashPassword, needsRehash, OWASP_ARGON2ID_ROWS, scryptHash, type Argon2Setting } from '@shellgrade/auth';
import { median, quantile } from 'simple-statistics';
import { measureMachineSpeed, speedText, type MachineSpeed } from './machine-speed';
import { registerRoundsBench } from './bench-output';

/** Median and quartiles over the rounds, ms. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

export interface HashCost {
  name: string;
  /** CPU ms per hash over the rounds. */
  cpuMsPerHash: Spread;
  /** Median relative to the first candidate (scrypt 2^14). */
  ratio: number;
}

export interface VerifyCost {
  name: string;
  memoryKiB: number;
  timeCost: number;
  /** The row hashPassword(…, 14) writes. */
  isDefault: boolean;
  cpuMsPerVerify: Spread;
  /** Medians of the user and system parts, ms. */
  userMs: number;
  systemMs: number;
  /** Median wall time per verify, ms (one at a time: the latency a login waits for it). */
  wallMs: number;
  /** Median CPU relative to 19 MiB × 2 (the secure default before). */
  ratio: number;
}

export interface PasswordHashBench {
  at: string;
  speed: MachineSpeed;
  rounds: number;
  perRound: number;
  hashes: HashCost[];
  verifies: VerifyCost[];
  /** µs per needsRehash call on a stored argon2id string (the rehash check every login makes). */
  rehashCheckUs: number;
}

const PASSWORD = 'correct horse battery staple';
const MiB = 1024;
const settingName = (s: Argon2Setting) => `argon2id m=${s.memoryKiB / MiB} MiB t=${s.timeCost} p=1`;
const argon2idHash = (s: Argon2Setting) => argon2Hash(PASSWORD, { algorithm: Algorithm.Argon2id, memoryCost: s.memoryKiB, timeCost: s.timeCost, parallelism: 1 });

interface Sample {
  cpuMs: number;
  userMs: number;
  systemMs: number;
  wallMs: number;
}

async function measure(work: () => Promise<unknown>, times: number): Promise<Sample> {
  const wall = process.hrtime.bigint();
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) await work();
  const used = process.cpuUsage(start);
  const wallMs = Number(process.hrtime.bigint() - wall) / 1e6 / times;
  return { cpuMs: (used.user + used.system) / 1000 / times, userMs: used.user / 1000 / times, systemMs: used.system / 1000 / times, wallMs };
}

/** Runs each task `perRound` times per round, all tasks in every round, starting one further along each round. */
async function interleaved(tasks: (() => Promise<unknown>)[], rounds: number, perRound: number): Promise<Sample[][]> {
  for (const t of tasks) await t(); // warm-up: first allocation, lazy binding load
  const samples = tasks.map(() => [] as Sample[]);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const i = (r + k) % tasks.length;
      samples[i]!.push(await measure(tasks[i]!, perRound));
    }
  }
  return samples;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function spreadOf(xs: number[]): Spread {
  return { median: round2(median(xs)), q1: round2(quantile(xs, 0.25)), q3: round2(quantile(xs, 0.75)), min: round2(Math.min(...xs)), max: round2(Math.max(...xs)) };
}

function rehashCheckUs(stored: string, calls = 20_000): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) needsRehash(stored, 14);
  const used = process.cpuUsage(start);
  return round2((used.user + used.system) / calls);
}

export async function runPasswordHashBench(rounds: number, perRound: number): Promise<PasswordHashBench> {
  const speed = measureMachineSpeed();
  const byDefault = argon2ParamsFor(14)!;
  const isDefault = (s: Argon2Setting) => s.memoryKiB === byDefault.memoryKiB && s.timeCost === byDefault.timeCost;

  // Hashing (sign-up, password change, upgrade at login): the default through libs/auth, the other rows directly.
  const hashCandidates = [
    { name: 'scrypt N=2^14 r=8 p=1 (secure default before argon2id)', hash: () => scryptHash(PASSWORD, 14) },
    ...OWASP_ARGON2ID_ROWS.map((s) =>
      isDefault(s) ? { name: `${settingName(s)} (secure default: hashPassword(…, 14))`, hash: () => hashPassword(PASSWORD, 14) } : { name: settingName(s), hash: () => argon2idHash(s) },
    ),
    { name: 'scrypt N=2 r=8 p=1 (paper-faithful: kdfCost 1)', hash: () => hashPassword(PASSWORD, 1) },
  ];
  const hashSamples = await interleaved(
    hashCandidates.map((c) => c.hash),
    rounds,
    perRound,
  );
  const hashMedians = hashSamples.map((s) => median(s.map((x) => x.cpuMs)));
  const hashes = hashCandidates.map((c, i) => ({ name: c.name, cpuMsPerHash: spreadOf(hashSamples[i]!.map((x) => x.cpuMs)), ratio: round2(hashMedians[i]! / hashMedians[0]!) }));

  // Verifying (every login): one stored hash per row, checked with the right password.
  const stored = await Promise.all(OWASP_ARGON2ID_ROWS.map(argon2idHash));
  const verifySamples = await interleaved(
    stored.map((h) => () => argon2Verify(h, PASSWORD)),
    rounds,
    perRound,
  );
  const before = OWASP_ARGON2ID_ROWS.findIndex((s) => s.memoryKiB === 19 * MiB && s.timeCost === 2);
  const verifyMedian = (i: number) => median(verifySamples[i]!.map((x) => x.cpuMs));
  const verifies = OWASP_ARGON2ID_ROWS.map((s, i) => {
    const xs = verifySamples[i]!;
    return {
      name: settingName(s),
      memoryKiB: s.memoryKiB,
      timeCost: s.timeCost,
      isDefault: isDefault(s),
      cpuMsPerVerify: spreadOf(xs.map((x) => x.cpuMs)),
      userMs: round2(median(xs.map((x) => x.userMs))),
      systemMs: round2(median(xs.map((x) => x.systemMs))),
      wallMs: round2(median(xs.map((x) => x.wallMs))),
      ratio: round2(verifyMedian(i) / verifyMedian(before)),
    };
  });
  return { at: new Date().toISOString(), speed, rounds, perRound, hashes, verifies, rehashCheckUs: rehashCheckUs(stored[before]!) };
}

const spreadText = (s: Spread) => `${s.median} | ${s.q1}–${s.q3} | ${s.min}–${s.max}`;

export function formatPasswordHashBench(b: PasswordHashBench): string {
  return [
    `### CPU per password verify, OWASP's equal-strength argon2id settings (${b.rounds} interleaved rounds × ${b.perRound}; ${speedText(b.speed)})`,
    '',
    '| setting | CPU ms per verify (median) | quartiles | min–max | user ms | system ms | wall ms | × 19 MiB t=2 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...b.verifies.map((v) => `| ${v.name}${v.isDefault ? ' **(default)**' : ''} | ${spreadText(v.cpuMsPerVerify)} | ${v.userMs} | ${v.systemMs} | ${v.wallMs} | ${v.ratio} |`),
    '',
    `needsRehash on a stored argon2id string (every login's rehash check): ${b.rehashCheckUs} µs CPU per call.`,
    '',
    `### CPU per password hash (${b.rounds} interleaved rounds × ${b.perRound})`,
    '',
    '| scheme | CPU ms per hash (median) | quartiles | min–max | × scrypt 2^14 |',
    '|---|---:|---:|---:|---:|',
    ...b.hashes.map((c) => `| ${c.name} | ${spreadText(c.cpuMsPerHash)} | ${c.ratio} |`),
    '',
  ].join('\n');
}

export function registerPasswordHashCommand(program: Command): Command {
  return registerRoundsBench(program, {
    command: 'password-hash',
    description: "CPU per password hash and per verify at each of OWASP's equal-strength argon2id settings (in-process, no servers) -> <out>/<stamp>.json and latest.{json,md}",
    rounds: 12,
    perRound: 8,
    perRoundDescription: 'hashes or verifies of each setting per round',
    folder: 'password-hash',
    prefix: '',
    measure: runPasswordHashBench,
    markdown: formatPasswordHashBench,
  });
}
