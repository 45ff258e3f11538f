// e2e-variants: naked-mon
// End-to-end: a scaled calibration under the original load test's client (profile original-smoke:
// 1 s quiet, 2 s ramp + 4 s, 0.2 s pauses) against naked-mon — two steps, no warm-up, each step
// judged as Gatling counts (0 KO of any request, SPS p95 <= 2 s), every request of the original's
// sequence sent and counted.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate } from '../src/calibrate';
import { variantUp } from '../src/stack';
import type { RunRecord, TestMeta } from '../src/types';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-original-e2e-'));

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  await variantUp('naked-mon');
});

it("calibrates with the original's client: every probe sends its whole sequence with no warm-up and 0 KO, a VALID step is sustained", async () => {
  const c = await calibrate({ variant: 'naked-mon', scenario: 'original', profile: 'original-smoke', peaks: [1, 2], rampS: 2, holdS: 4, placement: { mode: 'off' } });
  expect(c.scenario).toBe('original');
  // A shared host can make a probe INVALID (foreign CPU load): then it is not sustained, and says so.
  expect(c.steps.length).toBeGreaterThan(0);
  for (const s of c.steps) expect(s.sustained).toBe(s.valid);
  if (c.steps.every((s) => s.valid)) expect(c).toMatchObject({ sustainableRate: 2, firstFailedRate: null });
  // Every probe run, the set-aside ones included: what the client sent and how it counted it.
  const runs = readdirSync(join(work, 'results')).filter((d) => d.includes('-calibrate-original-p'));
  expect(runs.length).toBe(c.steps.length + (c.setAsideRuns?.length ?? 0));
  for (const runId of runs) {
    const dir = join(work, 'results', runId);
    const run = JSON.parse(readFileSync(join(dir, 'run-1.json'), 'utf8')) as RunRecord;
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as TestMeta;
    expect(meta.warmUp).toEqual({ skipped: true, warmedBy: 'none (--warm-up never)', agoS: 0 });
    const users = run.paper.iterations.started;
    expect(users).toBeGreaterThan(0);
    // N = 10 per user, every one sent and OK — the last verify's 401 included (cookies flushed).
    expect(run.paper.KO).toBe(0);
    expect(run.paper.OK).toBe(10 * users);
    expect(run.paper.perType.verify_out.ok).toBe(users);
    expect(run.paper.perType.opt_verify_out.ok).toBe(users);
    expect(run.paper.sps.OK).toBe(users);
    expect(readFileSync(join(dir, 'k6-run-1.txt'), 'utf8')).toMatch(/played by the original load test's client/);
  }
});
