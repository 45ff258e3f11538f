/**
 * CPU per login, the whole login path (AuthService: account read, password check, rehash check,
 * refresh-token insert, token signing) against real PostgreSQL, in-process, no HTTP, by the kind
 * of hash the accounts hold:
 * - before: argon2id m = 19 MiB, t = 2 (the secure default until 7 MiB × 5), at kdfCost 14 —
 *   what a login cost before, and what it still costs for accounts hashed then (the rows are of
 *   equal strength, so those hashes are kept: the run checks that none was rewritten);
 * - after: argon2id m = 7 MiB, t = 5 (the secure default now), at kdfCost 14;
 * - scrypt N = 2^14 at kdfCost 13 (the secure default before argon2id; no upgrade);
 * - an unknown email at kdfCost 14 (the decoy verify that hides which emails exist; a 401);
 * - scrypt N = 2 at kdfCost 1: everything of the path but the hash, the floor.
 * Interleaved rounds, the order rotated each round; CPU from process.cpuUsage (worker threads
 * included); median and quartiles over the rounds.
 *
 *   npm run bench -- login-cpu [--rounds 10] [--per-round 10] [--out results/password-hash]
 * Needs PostgreSQL (npm run servers -- up postgres). Writes <out>/logins-<stamp>.json and logins-latest.{json,md}.
 */
import type { Command } from 'commander';
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { AuthService, hashPassword, RateLimits, scryptHash, SessionFamilies, TokenService, TokenVersions, type AuthConfig } from '@shellgrade/auth';
import { createPool, PgRefreshTokenRepository, PgUserRepository } from '@shellgrade/persistence';
import { createTestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
import { median } from 'simple-statistics';
import { measureMachineSpeed, speedText, type MachineSpeed } from './machine-speed';
import { spreadOf, type Spread } from './password-hash-bench';
import { registerRoundsBench } from './bench-output';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];
/** Accounts per side, logged in to in turn. */
const ACCOUNTS = 4;
const UNKNOWN_EMAIL = 'nobody@login-cpu-bench.invalid';

export interface LoginCost {
  name: string;
  cpuMsPerLogin: Spread;
}

export interface LoginCpuBench {
  at: string;
  speed: MachineSpeed;
  rounds: number;
  perRound: number;
  costs: LoginCost[];
  /** Median CPU per login, after / before. */
  ratio: number;
  /** Stored 19 MiB × 2 hashes rewritten during the run (0: equal strength is kept, as it should be). */
  rehashedBefore: number;
}

type Pool = ReturnType<typeof createPool>;

function service(pool: Pool, kdfCost: number): AuthService {
  const cfg = { kdfCost, jwtSecret: 'login-cpu-bench-secret-0123456789', accessTtlSeconds: 900, refreshTtlSeconds: 3600, tokenVersionCacheMs: 0 } as AuthConfig;
  const refreshTokens = new PgRefreshTokenRepository(pool);
  const tokens = new TokenService({ secret: cfg.jwtSecret, accessTtlSeconds: 900, refreshTtlSeconds: 3600 });
  const limits = new RateLimits({ enabled: false } as AuthConfig['rateLimits']);
  const users = new PgUserRepository(pool);
  return new AuthService(tokens, users, refreshTokens, cfg, limits, new SessionFamilies(refreshTokens, cfg), new TokenVersions(users, cfg));
}

interface Side {
  name: string;
  kdfCost: number;
  /** The accounts' stored hash; undefined: logins name an unknown email. */
  hash?: string;
}

export async function runLoginCpuBench(rounds: number, perRound: number): Promise<LoginCpuBench> {
  const speed = measureMachineSpeed();
  const password = SEED_PASSWORDS.student;
  const argon2id = (memoryKiB: number, timeCost: number) => argon2Hash(password, { algorithm: Algorithm.Argon2id, memoryCost: memoryKiB, timeCost, parallelism: 1 });
  const sides: Side[] = [
    { name: 'before: argon2id m=19 MiB t=2 accounts (the default until now), kdfCost 14', kdfCost: 14, hash: await argon2id(19_456, 2) },
    { name: 'after: argon2id m=7 MiB t=5 accounts (the default now: hashPassword(…, 14)), kdfCost 14', kdfCost: 14, hash: await hashPassword(password, 14) },
    { name: 'scrypt N=2^14 accounts, kdfCost 13 (before argon2id; no upgrade)', kdfCost: 13, hash: await scryptHash(password, 14) },
    { name: 'unknown email, kdfCost 14 (decoy verify; 401)', kdfCost: 14 },
    { name: 'scrypt N=2 accounts, kdfCost 1 (the path without the hash)', kdfCost: 1, hash: await hashPassword(password, 1) },
  ];
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
  try {
    await seed(pool, { students: sides.length * ACCOUNTS, teachers: 0, catalog, kdfCost: 4 });
    const emailOf = (s: number, k: number) => studentEmail(s * ACCOUNTS + (k % ACCOUNTS) + 1);
    for (const [s, side] of sides.entries()) {
      for (let k = 0; k < ACCOUNTS; k++) if (side.hash) await pool.query('UPDATE users SET password_hash = $2 WHERE email = $1', [emailOf(s, k), side.hash]);
    }
    const logins = sides.map((side, s) => {
      const auth = service(pool, side.kdfCost);
      return async (k: number) => {
        if (side.hash) await auth.login(emailOf(s, k), password, '127.0.0.1');
        else await auth.login(UNKNOWN_EMAIL, password, '127.0.0.1').catch(() => undefined);
      };
    });
    for (const login of logins) await login(0); // warm-up: connections, the decoy hash, JIT
    const samples = sides.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < sides.length; j++) {
        const s = (r + j) % sides.length;
        const start = process.cpuUsage();
        for (let k = 0; k < perRound; k++) await logins[s]!(k);
        const used = process.cpuUsage(start);
        samples[s]!.push((used.user + used.system) / 1000 / perRound);
      }
    }
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM users WHERE email = ANY($1) AND password_hash <> $2', [
      Array.from({ length: ACCOUNTS }, (_, k) => emailOf(0, k)),
      sides[0]!.hash,
    ]);
    const costs = sides.map((side, s) => ({ name: side.name, cpuMsPerLogin: spreadOf(samples[s]!) }));
    const ratio = Math.round((median(samples[1]!) / median(samples[0]!)) * 100) / 100;
    return { at: new Date().toISOString(), speed, rounds, perRound, costs, ratio, rehashedBefore: Number(rows[0]!.n) };
  } finally {
    await pool.end();
    await db.drop();
  }
}

export function formatLoginCpuBench(b: LoginCpuBench): string {
  return [
    `### CPU per login, in-process against PostgreSQL (${b.rounds} interleaved rounds × ${b.perRound}; ${speedText(b.speed)})`,
    '',
    '| accounts | CPU ms per login (median) | quartiles | min–max |',
    '|---|---:|---:|---:|',
    ...b.costs.map((c) => `| ${c.name} | ${c.cpuMsPerLogin.median} | ${c.cpuMsPerLogin.q1}–${c.cpuMsPerLogin.q3} | ${c.cpuMsPerLogin.min}–${c.cpuMsPerLogin.max} |`),
    `| after / before | ${b.ratio} | | |`,
    '',
    `Stored 19 MiB × 2 hashes rewritten by the logins: ${b.rehashedBefore} (equal strength: expected 0).`,
    '',
  ].join('\n');
}

export function registerLoginCpuCommand(program: Command): Command {
  return registerRoundsBench(program, {
    command: 'login-cpu',
    description: 'CPU per login (verify, rehash check, token issue) by the kind of stored hash, in-process against PostgreSQL -> <out>/logins-<stamp>.json and logins-latest.{json,md}',
    rounds: 10,
    perRound: 10,
    perRoundDescription: 'logins of each kind per round',
    folder: 'password-hash',
    prefix: 'logins-',
    measure: runLoginCpuBench,
    markdown: formatLoginCpuBench,
  });
}
