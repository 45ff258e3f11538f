/**
 * What `bench pg-statements` makes of pg_stat_statements: the difference between two readings of
 * the view (one before and one after the requests of one type), per statement, and the table the
 * command prints. Pure functions: the command (pg-statements.ts) reads the view and the clock.
 */

/** One row of pg_stat_statements as read (cumulative since the server started or the last reset). */
export interface StatementCounters {
  queryid: string;
  query: string;
  calls: number;
  rows: number;
  totalExecMs: number;
  walBytes: number;
  sharedBlksDirtied: number;
}

/** A reading of the view: every row of the database and role under test, by queryid. */
export type StatementSnapshot = Map<string, StatementCounters>;

/** What one statement did between two readings. */
export interface StatementDelta {
  query: string;
  calls: number;
  rows: number;
  execMs: number;
  walBytes: number;
  dirtied: number;
}

/** The request types of scenario R, in order (the last verify is sent after logout, without cookies). */
export const REQUEST_TYPES = ['login', 'verify', 'sps', 'logout', 'verify_out'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** What requests of one type cost PostgreSQL, per request. */
export interface RequestCost {
  type: RequestType;
  requests: number;
  /** Statements per request (pg_stat_statements calls ÷ requests); each is one round trip (no multi-statement strings are sent). */
  statements: number;
  execMs: number;
  walBytes: number;
  /** CPU of the PostgreSQL server (every process of it but the reader's own backend) per request, ms. */
  cpuMs: number | null;
  /** Each statement with its calls per request, most called first. */
  byStatement: { query: string; perRequest: number }[];
}

/** The statements run between `before` and `after` (a statement first seen in `after` counts from zero). */
export function statementDeltas(before: StatementSnapshot, after: StatementSnapshot): StatementDelta[] {
  const deltas: StatementDelta[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    const calls = now.calls - (was?.calls ?? 0);
    if (calls <= 0) continue;
    deltas.push({
      query: now.query,
      calls,
      rows: now.rows - (was?.rows ?? 0),
      execMs: now.totalExecMs - (was?.totalExecMs ?? 0),
      walBytes: now.walBytes - (was?.walBytes ?? 0),
      dirtied: now.sharedBlksDirtied - (was?.sharedBlksDirtied ?? 0),
    });
  }
  return deltas.sort((a, b) => b.calls - a.calls || a.query.localeCompare(b.query));
}

/** A statement's text on one line, whitespace collapsed and cut: enough to recognise it in a table. */
export function statementLabel(query: string, max = 110): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Sums the deltas of several phases of one request type into its cost per request. */
export function requestCost(type: RequestType, requests: number, deltas: StatementDelta[], cpuMs: number | null): RequestCost {
  const byQuery = new Map<string, number>();
  let calls = 0;
  let execMs = 0;
  let walBytes = 0;
  for (const d of deltas) {
    byQuery.set(d.query, (byQuery.get(d.query) ?? 0) + d.calls);
    calls += d.calls;
    execMs += d.execMs;
    walBytes += d.walBytes;
  }
  const per = (n: number) => (requests > 0 ? n / requests : 0);
  return {
    type,
    requests,
    statements: round(per(calls), 2),
    execMs: round(per(execMs), 3),
    walBytes: Math.round(per(walBytes)),
    cpuMs: cpuMs === null || requests === 0 ? null : round(cpuMs / requests, 2),
    byStatement: [...byQuery]
      .map(([query, n]) => ({ query, perRequest: round(per(n), 2) }))
      .sort((a, b) => b.perRequest - a.perRequest || a.query.localeCompare(b.query)),
  };
}

/** One iteration of scenario R: the sum over request types (each type is sent once per iteration). */
export function perIteration(costs: RequestCost[]): { statements: number; execMs: number; walBytes: number; cpuMs: number | null } {
  const sum = (f: (c: RequestCost) => number) => costs.reduce((s, c) => s + f(c), 0);
  const cpu = costs.every((c) => c.cpuMs !== null) ? round(sum((c) => c.cpuMs ?? 0), 2) : null;
  return { statements: round(sum((c) => c.statements), 2), execMs: round(sum((c) => c.execMs), 3), walBytes: sum((c) => c.walBytes), cpuMs: cpu };
}

export interface PgStatementsResult {
  at: string;
  commit: string | null;
  variant: string;
  kdfCost: number;
  /** The services' synchronous_commit for the run (spec database.synchronousCommit); absent in results from before it was recorded: on. */
  synchronousCommit?: 'on' | 'off';
  iterations: number;
  pauseS: number;
  speed: string;
  /** How the server's CPU was read: its own cgroup (ns, reaped backends included) or /proc (clock ticks). */
  cpuSource?: 'cgroup' | 'proc';
  costs: RequestCost[];
}

const CPU_SOURCES = {
  cgroup: "CPU: the server's own cgroup (cpuacct, ns: every PostgreSQL process, exited backends included) but the reader's backend",
  proc: "CPU: every PostgreSQL process but the reader's backend, from /proc in clock ticks (10 ms each: read a small figure as ± a tick over its requests)",
};

/** The command's printout: per request type, then per iteration, then each type's statements. */
export function pgStatementsMarkdown(r: PgStatementsResult): string {
  const total = perIteration(r.costs);
  const cpu = (v: number | null) => (v === null ? '–' : v.toFixed(2));
  const lines = [
    `### PostgreSQL per request of scenario R — ${r.variant} (kdfCost ${r.kdfCost}${r.synchronousCommit === 'off' ? ', synchronous_commit off' : ''}), ${r.iterations} iterations, ${r.pauseS} s between a user's requests${r.commit ? `, commit ${r.commit}` : ''}`,
    '',
    ...(r.synchronousCommit === 'off'
      ? ["**synchronous_commit off**: every write was answered before its WAL reached the disk (what durability costs is the difference from a run with it on; no preset ships this).", '']
      : []),
    `${r.speed}. Statements from pg_stat_statements (database and role of the services); each is one round trip. ${CPU_SOURCES[r.cpuSource ?? 'proc']}, over the requests of that type.`,
    '',
    '| request | statements (= round trips) | exec ms | WAL bytes | PostgreSQL CPU ms |',
    '|---|---:|---:|---:|---:|',
    ...r.costs.map((c) => `| ${c.type} | ${c.statements} | ${c.execMs.toFixed(3)} | ${c.walBytes} | ${cpu(c.cpuMs)} |`),
    `| **per iteration** | **${total.statements}** | ${total.execMs.toFixed(3)} | ${total.walBytes} | **${cpu(total.cpuMs)}** |`,
    '',
  ];
  for (const c of r.costs) {
    lines.push(`#### ${c.type} (${c.statements} per request)`, '');
    if (c.byStatement.length === 0) lines.push('no statement', '');
    else lines.push(...c.byStatement.map((s) => `- ${s.perRequest} × \`${statementLabel(s.query)}\``), '');
  }
  return lines.join('\n');
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
