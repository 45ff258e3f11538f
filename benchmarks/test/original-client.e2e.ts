// e2e-variants: naked-mon
// End-to-end: a scaled calibration under the original load test's client (profile original-smoke:
// 1 s quiet, 2 s ramp + 4 s, 0.2 s pauses) against naked-mon — two steps, no warm-up, each step
// judged as Gatling counts (0 KO of any request, SPS p95 <= 2 s), every request of the original's
// sequence sent and counted.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate } from '../src/calibrate';
import { variantUp } from '../src/stack';
import type { Aggregated, TestMeta } from '../src/types';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-original-e2e-'));

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = join(work, 'results');
  await variantUp('naked-mon');
});

it("calibrates with the original's client: every step sustained, its ten requests per user all OK, no warm-up", async () => {
  const c = await calibrate({ variant: 'naked-mon', scenario: 'original', profile: 'original-smoke', peaks: [1, 2], rampS: 2, holdS: 4, placement: { mode: 'off' } });
  expect(c.scenario).toBe('original');
  expect(c.steps.map((s) => [s.peak, s.valid, s.ko, s.sustained])).toEqual([
    [1, true, 0, true],
    [2, true, 0, true],
  ]);
  // No step failed: the rate is a lower bound.
  expect(c).toMatchObject({ sustainableRate: 2, firstFailedRate: null });
  for (const s of c.steps) {
    const dir = join(work, 'results', s.runId);
    const a = JSON.parse(readFileSync(join(dir, 'aggregated.json'), 'utf8')) as Aggregated;
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as TestMeta;
    expect(meta.warmUp).toEqual({ skipped: true, warmedBy: 'none (--warm-up never)', agoS: 0 });
    const users = a.paper['iterations.started']!.mean;
    expect(users).toBeGreaterThan(0);
    // N = 10 per user, every one sent and OK — the last verify's 401 included (cookies flushed).
    expect(a.paper.OK!.mean).toBe(10 * users);
    expect(a.paper['perType.verify_out.ok']!.mean).toBe(users);
    expect(a.paper['perType.opt_verify_out.ok']!.mean).toBe(users);
    expect(readFileSync(join(dir, 'k6-run-1.txt'), 'utf8')).toMatch(/played by the original load test's client/);
  }
});
