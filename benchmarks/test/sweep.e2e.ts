// e2e-variants: msa-redis-1-2
// End-to-end: paper 001's closed-model sweep, smoke-sized (two steps of 1 and 2 threads, a few
// seconds each), through the same runner as `npm run bench -- sweep`, on msa-redis-1-2 (the S2
// report crosses the internal hop, the cache is counted). Checks the files, that every step
// measured answered requests without errors, and that S2 read the productions the runner wrote.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { loadConnections } from '@shellgrade/variant';
import { runSweep, type SweepClassResult } from '../src/sweep/run-sweep';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-sweep-e2e-'));
const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 1 });
afterAll(() => db.end());

describe('bench sweep (smoke) on msa-redis-1-2', () => {
  it('measures every step of S1 and S2 and writes the tables', async () => {
    process.env.SG_RESULTS_DIR = join(work, 'results');
    const run = await runSweep({ variant: 'msa-redis-1-2', classes: ['s1', 's2'], profile: 'sweep-smoke', runId: 'e2e-sweep', productionsPerStatement: 3 });
    for (const f of ['sweep.md', 'sweep-s1.json', 'sweep-s2.json', 'k6-sweep-s1.json', 'k6-sweep-s2.json', 'users.csv']) expect(existsSync(join(run.dir, f))).toBe(true);
    const statements = (await db.query("SELECT count(*)::int AS n FROM student_statements s JOIN business_sessions b ON b.id = s.session_id WHERE b.name = 'Seeded session'")).rows[0].n as number;
    for (const klass of ['s1', 's2'] as const) {
      const r = JSON.parse(readFileSync(join(run.dir, `sweep-${klass}.json`), 'utf8')) as SweepClassResult;
      expect(r.k6ExitCode).toBe(0);
      expect(r.schedule.map((s) => s.vus)).toEqual([1, 2]);
      expect(r.sessionProductions).toBe(3 * statements);
      for (const row of r.analysis.rows) {
        expect(row.requests).toBeGreaterThan(0);
        expect(row.errorRate).toBe(0);
      }
      // The hold windows are part of what k6 sent (ramps, setup and drains are the rest).
      const k6 = JSON.parse(readFileSync(join(run.dir, `k6-sweep-${klass}.json`), 'utf8')) as { k6: { metrics: { http_reqs: { values: { count: number } } } } };
      expect(r.analysis.rows.reduce((n, row) => n + row.requests, 0)).toBeLessThan(k6.k6.metrics.http_reqs.values.count);
      expect(r.cacheStats.map((c) => c.process).sort()).toEqual(['sg-exercise-0', 'sg-exercise-1', 'sg-gateway-0', 'sg-leftover-0']);
    }
    // S2 started cold: the first report of the session missed, the others were answered from Redis.
    const s2 = JSON.parse(readFileSync(join(run.dir, 'sweep-s2.json'), 'utf8')) as SweepClassResult;
    const leftover = s2.reportCacheStats.find((c) => c.process === 'sg-leftover-0')!;
    expect(leftover.miss).toBe(1);
    expect(leftover.hit).toBeGreaterThan(0);
    expect(run.markdown).toContain('S1 on msa-redis-1-2');
    expect(run.markdown).toContain('S2 on msa-redis-1-2');
  });
});
