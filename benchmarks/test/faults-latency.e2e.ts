// e2e-variants: msa-1-2
// End-to-end: +100 ms on msa-1-2's gateway → exercise hop through the real fault proxy
// (toxiproxy, the hop routed by variant up --hop-via for the run), under smoke-rate scenario R,
// through the same runFaults as `bench faults`. Asserted: nothing the client was told accepted is
// lost or duplicated, the toxic and the route are undone (the preset runs unrouted again, no undo
// left in a journal, the proxy stopped) and the trace breakdown names the slowed hop as the largest
// contributor to the p50 and p95 increase. Figures are the benchmark's, not asserted.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- where the launcher writes the ecosystem (the route's undo is checked there)
import { VARIANT_RUN_DIR } from '../../infra/src/paths';
import { JOURNAL_FILE } from '../src/faults/journal';
import { reattribute } from '../src/faults/reattribute';
import { runFaults } from '../src/faults/run-faults';
import { HOP_LISTEN, TOXIPROXY_API } from '../src/faults/toxiproxy';
import { variantStatus, variantUp } from '../src/stack';

jest.setTimeout(600_000);

const work = mkdtempSync(join(tmpdir(), 'sg-faults-latency-e2e-'));

beforeAll(async () => {
  process.env.SG_RESULTS_DIR = work;
  await variantUp('msa-1-2');
});

it('+100 ms on gateway → exercise: 0 lost or duplicated, the fault undone, the attribution names the hop', async () => {
  const { dir, results, skipped } = await runFaults({
    variant: 'msa-1-2',
    faults: ['latency:exercise'],
    rate: 2,
    share: 0.6,
    profile: 'smoke',
    rampS: 2,
    // ~17 SPS traces a window: the p95 band's parts average over MIN_BAND_REQUESTS of them.
    steadyS: 14,
    faultS: 14,
    recoveryS: 5,
    bucketS: 2,
    drainTimeoutS: 30,
  });

  expect(skipped).toEqual([]);
  expect(results).toHaveLength(1);
  const [r] = results;
  expect(r.applied.target).toMatch(/^exercise hop \(127\.0\.0\.1:\d+ → 127\.0\.0\.1:8082\)$/);
  expect(r.audit).not.toBeNull();
  expect(r.lost).toBe(0);
  expect(r.duplicated).toBe(0);
  expect(r.audit!.balanced).toBe(true);
  expect(r.crashes).toEqual([]);

  expect(r.attributionError).toBeUndefined();
  expect(r.attribution).toMatchObject({ hop: 'exercise', p50: { largest: 'exercise.queueing' }, p95: { largest: 'exercise.queueing' }, named: true });

  // Undone: the preset runs again without the proxy in its configuration, nothing left to replay, the proxy stopped.
  const status = await variantStatus();
  expect(status.variant).toBe('msa-1-2');
  expect(status.processes.every((p) => p.status === 'online')).toBe(true);
  expect(readFileSync(join(VARIANT_RUN_DIR, 'ecosystem.config.js'), 'utf8')).not.toContain(HOP_LISTEN);
  for (const folder of readdirSync(work)) expect(existsSync(join(work, folder, JOURNAL_FILE))).toBe(false);
  await expect(fetch(`${TOXIPROXY_API}/version`)).rejects.toThrow();

  const json = JSON.parse(readFileSync(join(dir, 'faults.json'), 'utf8')) as { attribution: { named: number; of: number } };
  expect(json.attribution).toEqual({ named: 1, of: 1, share: 1 });
  expect(readFileSync(join(dir, 'faults.md'), 'utf8')).toContain('1 of 1 latency faults named correctly');

  // Judged again later from Jaeger (bench faults-reattribute): the same windows give the same verdict.
  const again = await reattribute(dir);
  expect(again.share).toEqual({ named: 1, of: 1, share: 1 });
  expect(again.results[0].attribution).toMatchObject({ hop: 'exercise', steadyRequests: r.attribution!.steadyRequests, faultRequests: r.attribution!.faultRequests, named: true });
});
