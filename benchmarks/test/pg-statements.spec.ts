import {
  perIteration,
  pgStatementsMarkdown,
  requestCost,
  statementDeltas,
  statementLabel,
  type StatementCounters,
  type StatementSnapshot,
} from '../src/pg-statements-report';

const row = (queryid: string, query: string, calls: number, extra: Partial<StatementCounters> = {}): StatementCounters => ({
  queryid,
  query,
  calls,
  rows: calls,
  totalExecMs: calls * 0.1,
  walBytes: calls * 100,
  sharedBlksDirtied: 0,
  ...extra,
});
const snapshot = (...rows: StatementCounters[]): StatementSnapshot => new Map(rows.map((r) => [r.queryid, r]));

describe('pg-statements: what one request type cost, from two readings of pg_stat_statements', () => {
  it('counts the calls made between the readings, a statement first seen in the second from zero, an idle one not at all', () => {
    const before = snapshot(row('1', 'SELECT a', 10), row('2', 'SELECT idle', 4));
    const after = snapshot(row('1', 'SELECT a', 13), row('2', 'SELECT idle', 4), row('3', 'INSERT b', 2));
    const deltas = statementDeltas(before, after);
    expect(deltas.map((d) => [d.query, d.calls])).toEqual([
      ['SELECT a', 3],
      ['INSERT b', 2],
    ]);
    expect(deltas[0]).toMatchObject({ rows: 3, walBytes: 300 });
    expect(deltas[0]!.execMs).toBeCloseTo(0.3, 9);
  });

  it('divides by the requests sent: statements, WAL and CPU per request, the same statement of several rounds summed', () => {
    const round = [
      { query: 'SELECT a', calls: 4, rows: 4, execMs: 0.4, walBytes: 0, dirtied: 0 },
      { query: 'INSERT b', calls: 2, rows: 2, execMs: 0.2, walBytes: 800, dirtied: 2 },
    ];
    const cost = requestCost('login', 4, [...round, ...round], 12);
    expect(cost).toMatchObject({ requests: 4, statements: 3, walBytes: 400, cpuMs: 3 });
    expect(cost.byStatement).toEqual([
      { query: 'SELECT a', perRequest: 2 },
      { query: 'INSERT b', perRequest: 1 },
    ]);
    expect(requestCost('verify_out', 4, [], 0)).toMatchObject({ statements: 0, cpuMs: 0, byStatement: [] });
  });

  it('sums the request types into one iteration; no CPU figure when one type has none', () => {
    const a = requestCost('login', 2, [{ query: 'q', calls: 4, rows: 0, execMs: 1, walBytes: 10, dirtied: 0 }], 4);
    const b = requestCost('sps', 2, [{ query: 'r', calls: 10, rows: 0, execMs: 2, walBytes: 30, dirtied: 0 }], 6);
    expect(perIteration([a, b])).toEqual({ statements: 7, execMs: 1.5, walBytes: 20, cpuMs: 5 });
    expect(perIteration([a, requestCost('sps', 2, [], null)]).cpuMs).toBeNull();
  });

  it('prints one line per request type, the iteration, and each statement on one line', () => {
    const costs = [requestCost('login', 1, [{ query: 'SELECT id,\n   email FROM users WHERE email = $1', calls: 1, rows: 1, execMs: 0.05, walBytes: 0, dirtied: 0 }], 0.5)];
    const text = pgStatementsMarkdown({ at: 'now', commit: 'abc', variant: 'naked-mon-zygote', kdfCost: 1, iterations: 1, pauseS: 5, speed: 'speed', costs });
    expect(text).toContain('| login | 1 | 0.050 | 0 | 0.50 |');
    expect(text).toContain('| **per iteration** | **1** |');
    expect(text).toContain('- 1 × `SELECT id, email FROM users WHERE email = $1`');
    expect(statementLabel('x'.repeat(200), 20)).toHaveLength(20);
  });

  it("says where the server's CPU was read: its own cgroup (ns), or /proc's clock ticks", () => {
    const result = { at: 'now', commit: 'abc', variant: 'naked-mon-zygote', kdfCost: 1, iterations: 1, pauseS: 5, speed: 'speed', costs: [] };
    expect(pgStatementsMarkdown({ ...result, cpuSource: 'cgroup' })).toMatch(/the server's own cgroup \(cpuacct, ns/);
    expect(pgStatementsMarkdown(result)).toMatch(/from \/proc in clock ticks/);
  });

  it('a run with synchronous_commit off says so in its title and why it differs; one with it on, or from before it was recorded, says nothing', () => {
    const result = { at: 'now', commit: 'abc', variant: 'naked-mon-zygote', kdfCost: 1, iterations: 1, pauseS: 5, speed: 'speed', costs: [] };
    const off = pgStatementsMarkdown({ ...result, synchronousCommit: 'off' });
    expect(off.split('\n')[0]).toContain('(kdfCost 1, synchronous_commit off)');
    expect(off).toMatch(/\*\*synchronous_commit off\*\*: every write was answered before its WAL reached the disk/);
    for (const on of [pgStatementsMarkdown({ ...result, synchronousCommit: 'on' }), pgStatementsMarkdown(result)]) expect(on).not.toMatch(/synchronous_commit/);
  });
});
