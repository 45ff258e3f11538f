/**
 * `npm run bench -- pg-statements`: what each request of scenario R costs PostgreSQL — its
 * statements (pg_stat_statements; one round trip each), their WAL and the server's CPU — on the
 * variant as launched (real HTTP, real grading), so a change to a repository shows up here as a
 * statement fewer or a cheaper one.
 *
 * The requests go out type by type: every user of a round logs in, then (after the pause the
 * original's client makes, 5 s: the services' per-process caches of token versions and sessions
 * are as cold as under that client) every user verifies, and so on. Between two types the view
 * and /proc are read once: each type's statements and CPU are its own, nothing is timed per request.
 * A user serves one iteration only (a fresh account each time, as under the original's client).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { Client } from 'pg';
import { stringify } from 'yaml';
import { loadConnections, loadVariant } from '@shellgrade/variant';
import { exclusive } from './harness-lock';
import { nonNegative, opt, positiveInt } from './options';
import { phase } from './log';
import { measureMachineSpeed, speedText } from './machine-speed';
import { defaultArchive, repoRoot, resultsDir, resultStamp } from './paths';
import { CpuCgroups, detectCgroup } from './cgroup-cpu';
import { procTable } from './proc-times';
import {
  type PgStatementsResult,
  pgStatementsMarkdown,
  REQUEST_TYPES,
  requestCost,
  type RequestType,
  type StatementDelta,
  statementDeltas,
  type StatementSnapshot,
} from './pg-statements-report';
import { entryUrl, seedStudents, variantDown, variantRunning, variantStatus, variantUp } from './stack';

/** Marks the reader's own statements, which are left out of every count. */
const MONITOR = '/* pg-statements monitor */';

interface Flags {
  variant: string;
  kdfCost: number;
  synchronousCommit: 'on' | 'off';
  users: number;
  rounds: number;
  userPauseS: number;
  out?: string;
  keepUp?: boolean;
}

interface SeededUser {
  email: string;
  password: string;
  exId: number;
  psId: number;
}

export function registerPgStatementsCommand(program: Command): Command {
  return program
    .command('pg-statements')
    .description("PostgreSQL per request type of scenario R (statements = round trips from pg_stat_statements, WAL, the server's CPU) and per iteration, on the variant as launched -> <out>/<stamp>-<variant>.json and latest.md")
    .addOption(opt('variant', { description: 'variant preset (or spec file)', default: 'naked-mon-zygote' }))
    .addOption(opt('kdfCost', { description: "the spec's auth.kdfCost for this run (1: the paper-faithful login cost)", default: 1 }))
    .addOption(
      new Option('--synchronous-commit <mode>', "the services' PostgreSQL synchronous_commit for this run (spec database.synchronousCommit): off prices durability, the difference from a run with on")
        .choices(['on', 'off'])
        .default('on'),
    )
    .option('--users <n>', 'users per round (each serves one iteration)', positiveInt, 40)
    .addOption(opt('rounds', { description: 'measured rounds (one more, unmeasured, warms the processes up)', default: 2 }))
    .option('--user-pause-s <s>', "pause between a user's requests (the original client's 5 s)", nonNegative, 5)
    .addOption(opt('out', { description: 'output folder (default: results/pg-statements)' }))
    .addOption(opt('keepUp'))
    .action(async (f: Flags) => {
      const result = await exclusive(`pg-statements ${f.variant}`, () => measure(f));
      process.stdout.write(`${pgStatementsMarkdown(result)}\n`);
    });
}

async function measure(f: Flags): Promise<PgStatementsResult> {
  const outDir = resolve(f.out ?? join(resultsDir(), 'pg-statements'));
  mkdirSync(outDir, { recursive: true });
  const stamp = resultStamp();
  const spec = loadVariant(f.variant);
  spec.auth = { ...spec.auth, kdfCost: f.kdfCost };
  spec.database = { ...spec.database, synchronousCommit: f.synchronousCommit };
  const specFile = join(outDir, `${stamp}-${spec.name}.spec.yaml`);
  writeFileSync(specFile, stringify(spec));
  const wasUp = await variantRunning(specFile);
  phase(`pg-statements: ${spec.name} (kdfCost ${f.kdfCost}, synchronous_commit ${f.synchronousCommit}), ${f.rounds} round(s) of ${f.users} users, ${f.userPauseS} s pauses`);
  await variantUp(specFile);
  const speed = measureMachineSpeed();
  try {
    const csv = join(outDir, `${stamp}-users.csv`);
    await seedStudents(f.users * (f.rounds + 1), csv, f.kdfCost);
    const users = readUsers(readFileSync(csv, 'utf8'));
    const status = await variantStatus();
    const entry = entryUrl(status);
    const postgresPid = status.servers.find((s) => s.name === 'postgres')?.pid ?? null;
    const archive = readFileSync(defaultArchive());
    const monitor = await Monitor.open(postgresPid);
    try {
      const sent = new Map<RequestType, { requests: number; deltas: StatementDelta[]; cpuMs: number | null }>(REQUEST_TYPES.map((t) => [t, { requests: 0, deltas: [], cpuMs: 0 }]));
      for (let round = 0; round <= f.rounds; round++) {
        const measured = round > 0;
        phase(measured ? `round ${round}/${f.rounds}` : 'warm-up round (not counted)');
        const clients = users.slice(round * f.users, (round + 1) * f.users).map((u) => new ScenarioClient(entry, u, archive));
        for (const [i, type] of REQUEST_TYPES.entries()) {
          if (i > 0 && f.userPauseS > 0) await sleep(f.userPauseS * 1000);
          const before = await monitor.read();
          for (const c of clients) await c.send(type);
          // A queued grading (async reply) is the submission's work: wait for it before reading.
          if (type === 'sps') await monitor.gradingsSettled();
          const after = await monitor.read();
          if (!measured) continue;
          const acc = sent.get(type)!;
          acc.requests += clients.length;
          acc.deltas.push(...statementDeltas(before.statements, after.statements));
          acc.cpuMs = acc.cpuMs === null || before.cpuMs === null || after.cpuMs === null ? null : acc.cpuMs + (after.cpuMs - before.cpuMs);
        }
      }
      const costs = REQUEST_TYPES.map((t) => {
        const acc = sent.get(t)!;
        return requestCost(t, acc.requests, acc.deltas, acc.cpuMs);
      });
      const result: PgStatementsResult = {
        at: new Date().toISOString(),
        commit: commitOf(),
        variant: spec.name,
        kdfCost: f.kdfCost,
        synchronousCommit: f.synchronousCommit,
        iterations: f.rounds * f.users,
        pauseS: f.userPauseS,
        speed: speedText(speed),
        cpuSource: monitor.cpuSource,
        costs,
      };
      writeFileSync(join(outDir, `${stamp}-${spec.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
      writeFileSync(join(outDir, 'latest.md'), pgStatementsMarkdown(result));
      return result;
    } finally {
      await monitor.close();
    }
  } finally {
    if (!wasUp && !f.keepUp) await variantDown();
  }
}

/** The reader: pg_stat_statements of the services' database and role, and the server's CPU (its cgroup where the machine has one, else /proc). */
class Monitor {
  private constructor(
    private readonly db: Client,
    private readonly postgresPid: number | null,
    private readonly ownPid: number,
    private readonly ticksPerS: number,
    private readonly cgroups: CpuCgroups | null,
  ) {}

  get cpuSource(): 'cgroup' | 'proc' {
    return this.cgroups ? 'cgroup' : 'proc';
  }

  static async open(postgresPid: number | null): Promise<Monitor> {
    const db = new Client({ connectionString: loadConnections().DATABASE_URL });
    await db.connect();
    try {
      await db.query(`${MONITOR} SELECT 1 FROM pg_stat_statements LIMIT 1`);
    } catch (err) {
      await db.end();
      throw new Error(
        `pg_stat_statements cannot be read (${(err as Error).message}): PostgreSQL must load it (infra/servers/postgres.sh does since it was added there; ` +
          'restart a server started before: npm run servers -- restart postgres)',
      );
    }
    const { rows } = await db.query<{ pid: number }>(`${MONITOR} SELECT pg_backend_pid() AS pid`);
    if (postgresPid === null) phase('PostgreSQL pid unknown: no CPU figures');
    const ownPid = rows[0]!.pid;
    return new Monitor(db, postgresPid, ownPid, clockTicksPerS(), postgresPid === null ? null : await serverCgroups(postgresPid, ownPid));
  }

  async read(): Promise<{ statements: StatementSnapshot; cpuMs: number | null }> {
    const cpuMs = await this.serverCpuMs();
    const { rows } = await this.db.query<{ queryid: string; query: string; calls: string; rows: string; total_exec_time: number; wal_bytes: string; shared_blks_dirtied: string }>(
      `${MONITOR} SELECT queryid::text, query, calls, rows, total_exec_time, wal_bytes::bigint, shared_blks_dirtied
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND userid = (SELECT oid FROM pg_roles WHERE rolname = current_user)
          AND query NOT LIKE '%pg-statements monitor%'`,
    );
    const statements: StatementSnapshot = new Map(
      rows.map((r) => [
        r.queryid,
        { queryid: r.queryid, query: r.query, calls: Number(r.calls), rows: Number(r.rows), totalExecMs: r.total_exec_time, walBytes: Number(r.wal_bytes), sharedBlksDirtied: Number(r.shared_blks_dirtied) },
      ]),
    );
    return { statements, cpuMs };
  }

  /** Until no production waits for its grade (sync replies: at once). */
  async gradingsSettled(): Promise<void> {
    for (;;) {
      const { rows } = await this.db.query<{ n: number }>(`${MONITOR} SELECT count(*)::int AS n FROM exercise_productions WHERE status NOT IN ('graded', 'failed')`);
      if (rows[0]!.n === 0) return;
      await sleep(200);
    }
  }

  /** Every process of the server (those reaped included) but the reader's own backend. */
  private async serverCpuMs(): Promise<number | null> {
    if (this.cgroups) {
      const s = this.cgroups.cpuS(SERVER_GROUP);
      return s === null ? null : s * 1000;
    }
    if (this.postgresPid === null) return null;
    const table = await procTable();
    const root = table.find((p) => p.pid === this.postgresPid);
    if (!root) return null;
    let ticks = root.ownTicks + root.reapedChildrenTicks;
    for (const p of descendants(table, root.pid)) if (p.pid !== this.ownPid) ticks += p.ownTicks;
    return (ticks / this.ticksPerS) * 1000;
  }

  close(): Promise<void> {
    this.cgroups?.release(); // the server's processes back where they were
    return this.db.end();
  }
}

const SERVER_GROUP = 'postgres';

/**
 * The server in a CPU cgroup of its own (its backends forked later land there too, and their CPU
 * stays counted after they exit), the reader's backend in another; null where the machine has no
 * CPU cgroup or the server cannot be moved (then /proc's clock ticks).
 */
async function serverCgroups(postgresPid: number, readerPid: number): Promise<CpuCgroups | null> {
  const flavour = detectCgroup();
  if (!flavour) return null;
  const cgroups = new CpuCgroups(flavour, `pgs-${process.pid}`);
  try {
    const tree = descendants(await procTable(), postgresPid).map((p) => p.pid).filter((pid) => pid !== readerPid);
    cgroups.attach('reader', [readerPid]);
    if (cgroups.attach(SERVER_GROUP, [postgresPid, ...tree]) === 0) throw new Error('no process moved');
    return cgroups;
  } catch (err) {
    phase(`PostgreSQL's CPU from /proc (its cgroup could not be made: ${(err as Error).message})`);
    cgroups.release();
    return null;
  }
}

type ProcRow = Awaited<ReturnType<typeof procTable>>[number];

/** The processes below `root` in the process tree. */
function descendants(table: ProcRow[], root: number): ProcRow[] {
  const children = new Map<number, ProcRow[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: ProcRow[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child.pid);
    }
  }
  return found;
}

/** One student's side of scenario R: a cookie jar (path-scoped, as a browser's) and the five requests. */
class ScenarioClient {
  private readonly jar = new Map<string, { value: string; path: string }>();

  constructor(
    private readonly base: string,
    private readonly user: SeededUser,
    private readonly archive: Buffer,
  ) {}

  async send(type: RequestType): Promise<void> {
    switch (type) {
      case 'login':
        return this.expect(type, 200, 'POST', '/api/user/login', JSON.stringify({ email: this.user.email, password: this.user.password }));
      case 'verify':
        return this.expect(type, 200, 'GET', '/api/auth/verify');
      case 'sps':
        return this.expect(type, [201, 202], 'POST', '/api/exercise-production', spsBody(this.user, this.archive));
      case 'logout':
        return this.expect(type, 200, 'DELETE', '/api/user/logout');
      case 'verify_out':
        // The original's client flushes its session cookies after logout: this one carries none.
        this.jar.clear();
        return this.expect(type, 401, 'GET', '/api/auth/verify');
    }
  }

  private async expect(type: RequestType, expected: number | number[], method: string, path: string, body?: string): Promise<void> {
    const headers: Record<string, string> = {};
    const cookie = [...this.jar].filter(([, c]) => path.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.base), { method, headers, body });
    const text = await res.text();
    for (const line of res.headers.getSetCookie()) this.keep(line);
    if (!(Array.isArray(expected) ? expected : [expected]).includes(res.status)) {
      throw new Error(`${type} of ${this.user.email}: ${method} ${path} answered ${res.status}, expected ${String(expected)}: ${text.slice(0, 300)}`);
    }
  }

  private keep(setCookie: string): void {
    const [pair, ...attributes] = setCookie.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const expires = attr('expires');
    if (!value || (expires !== undefined && Date.parse(expires) <= Date.now()) || attr('max-age') === '0') this.jar.delete(name);
    else this.jar.set(name, { value, path: attr('path') ?? '/' });
  }
}

/** The original SPA's JSON submission: production_data.data maps each byte's index to the byte. */
function spsBody(u: SeededUser, archive: Buffer): string {
  const data = Array.from(archive, (b, i) => `"${i}":${b}`).join(',');
  return `{"ex_id":${u.exId},"ps_id":${u.psId},"production_data":{"name":"answer.tgz","size":${archive.length},"data":{${data}}}}`;
}

/** The seed's CSV: email,password,user_id,ex_id,ps_id. */
function readUsers(text: string): SeededUser[] {
  const [header, ...lines] = text.trim().split('\n');
  const cols = header!.split(',');
  const at = (name: string) => cols.indexOf(name);
  return lines.map((line) => {
    const f = line.split(',');
    return { email: f[at('email')]!, password: f[at('password')]!, exId: Number(f[at('ex_id')]), psId: Number(f[at('ps_id')]) };
  });
}

function clockTicksPerS(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function commitOf(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot(), encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
