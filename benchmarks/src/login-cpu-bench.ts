/**
 * CPU per login before/after the switch to argon2id: the login path itself
 * (AuthService: account read, password check, refresh-token insert, token signing) against real
 * PostgreSQL, in-process, no HTTP. "before": accounts hashed with scrypt N = 2^14 and a cost below
 * 14, so nothing is upgraded — exactly the old secure login; "after": argon2id accounts at the
 * default cost 14. Interleaved rounds, CPU from process.cpuUsage (worker threads included).
 *
 *   node dist/benchmarks/src/login-cpu-bench.js [--rounds 6] [--per-round 10] [--out results/password-hash]
 * Needs PostgreSQL (bash infra/bin/servers up postgres). Writes <out>/logins-<stamp>.json and logins-latest.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AuthService, hashPassword, RateLimits, scryptHash, SessionFamilies, TokenService, type AuthConfig } from '@shellgrade/auth';
import { createPool, PgRefreshTokenRepository, PgUserRepository } from '@shellgrade/persistence';
import { createTestDatabase } from '@shellgrade/persistence/testing';
import { seed, SEED_PASSWORDS, studentEmail } from '@shellgrade/admin-cli/seed';
import { mean } from 'simple-statistics';
import { measureMachineSpeed, speedText } from './machine-speed';
import { resultsDir, resultStamp } from './paths';

const catalog = [{ slug: 'paper-scripts', name: 'p', statementHtml: '<p/>', questionArchive: Buffer.from([1]), graderScript: 'x', locale: 'en', skills: [] }];
const STUDENTS = 4;

function service(pool: ReturnType<typeof createPool>, kdfCost: number): AuthService {
  const cfg = { kdfCost, jwtSecret: 'login-cpu-bench-secret-0123456789', accessTtlSeconds: 900, refreshTtlSeconds: 3600, tokenVersionCacheMs: 0 } as AuthConfig;
  const refreshTokens = new PgRefreshTokenRepository(pool);
  const tokens = new TokenService({ secret: cfg.jwtSecret, accessTtlSeconds: 900, refreshTtlSeconds: 3600 });
  const limits = new RateLimits({ enabled: false } as AuthConfig['rateLimits']);
  return new AuthService(tokens, new PgUserRepository(pool), refreshTokens, cfg, limits, new SessionFamilies(refreshTokens, cfg));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '6' }, 'per-round': { type: 'string', default: '10' }, out: { type: 'string' } } });
  const rounds = Number(values.rounds);
  const perRound = Number(values['per-round']);
  const speed = measureMachineSpeed();
  const db = await createTestDatabase();
  const pool = createPool({ databaseUrl: db.url, size: 4, idleTimeoutMs: 30_000 });
  try {
    await seed(pool, { students: 2 * STUDENTS, teachers: 0, catalog, kdfCost: 4 });
    const password = SEED_PASSWORDS.student;
    // Students 1..4 keep scrypt 2^14 (the old secure hash), 5..8 get argon2id (the new default).
    const oldHash = await scryptHash(password, 14);
    const newHash = await hashPassword(password, 14);
    for (let i = 1; i <= 2 * STUDENTS; i++) {
      await pool.query('UPDATE users SET password_hash = $2 WHERE email = $1', [studentEmail(i), i <= STUDENTS ? oldHash : newHash]);
    }
    const sides = [
      { name: 'before: scrypt N=2^14 accounts (no upgrade)', auth: service(pool, 13), first: 1 },
      { name: 'after: argon2id m=19 MiB t=2 accounts (default kdfCost 14)', auth: service(pool, 14), first: STUDENTS + 1 },
    ];
    const samples = sides.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (const [s, side] of sides.entries()) {
        const start = process.cpuUsage();
        for (let k = 0; k < perRound; k++) await side.auth.login(studentEmail(side.first + (k % STUDENTS)), password, '127.0.0.1');
        const used = process.cpuUsage(start);
        samples[s]!.push((used.user + used.system) / 1000 / perRound);
      }
    }
    const costs = sides.map((side, s) => ({ name: side.name, cpuMsPerLogin: Math.round(mean(samples[s]!) * 100) / 100 }));
    const result = { at: new Date().toISOString(), speed, rounds, perRound, costs, ratio: Math.round((costs[1]!.cpuMsPerLogin / costs[0]!.cpuMsPerLogin) * 100) / 100 };
    const text = [
      `### CPU per login, in-process against PostgreSQL (${rounds} interleaved rounds × ${perRound}; ${speedText(speed)})`,
      '',
      '| accounts | CPU ms per login |',
      '|---|---:|',
      ...costs.map((c) => `| ${c.name} | ${c.cpuMsPerLogin} |`),
      `| after / before | ${result.ratio} |`,
      '',
    ].join('\n');
    const outDir = resolve(values.out ?? join(resultsDir(), 'password-hash'));
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, `logins-${resultStamp()}.json`), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(join(outDir, 'logins-latest.md'), text);
    process.stdout.write(text);
  } finally {
    await pool.end();
    await db.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
