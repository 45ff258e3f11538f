// e2e-variants: msa-aggregation-1-2, msa-1-2
// End-to-end: paper 003's request mix, smoke-sized (p(r1) 0 then 1, two users, a few seconds
// each), through the same runner as `npm run bench -- mix`, for gateway aggregation: the pattern's
// variant (dashboard answered by the gateway) and its baseline (the client's three calls), real
// services, grader, k6 and the resource sampler. Checks the files, that each step sent only the
// type its p asks for and got every answer right, and that CPU was measured per process.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMix, type MixVariantResult } from '../src/mix/run-mix';

jest.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'sg-mix-e2e-'));

describe('bench mix --pattern aggregation (smoke)', () => {
  it('runs the pattern and its baseline over p(r1) = 0 and 1 and writes the tables and curves', async () => {
    process.env.SG_RESULTS_DIR = join(work, 'results');
    const run = await runMix({ pattern: 'aggregation', profile: 'mix-smoke' });
    for (const f of ['mix.md', 'mix.html', 'mix.json', 'mix-msa-aggregation-1-2.json', 'mix-msa-1-2.json']) expect(existsSync(join(run.dir, f))).toBe(true);
    expect(run.results.map((r) => [r.variant, r.role])).toEqual([['msa-aggregation-1-2', 'pattern'], ['msa-1-2', 'baseline']]);
    for (const variant of ['msa-aggregation-1-2', 'msa-1-2']) {
      const r = JSON.parse(readFileSync(join(run.dir, `mix-${variant}.json`), 'utf8')) as MixVariantResult;
      expect(r.problems).toEqual([]);
      const [allR2, allR1] = r.rows;
      // p = 0: submissions only; p = 1: dashboards only; every one answered as expected.
      expect([allR2!.r1.count, allR1!.r2.count]).toEqual([0, 0]);
      expect(allR2!.r2.count).toBeGreaterThan(0);
      expect(allR1!.r1.count).toBeGreaterThan(0);
      expect([allR2!.r2.errorRate, allR1!.r1.errorRate]).toEqual([0, 0]);
      expect(allR1!.cpuCores['sg-gateway-0']).toBeGreaterThan(0);
      const k6 = JSON.parse(readFileSync(join(run.dir, `k6-mix-${variant}.json`), 'utf8')) as { config: { aggregated: boolean } };
      expect(k6.config.aggregated).toBe(variant === 'msa-aggregation-1-2');
    }
    expect(readFileSync(run.markdownFile, 'utf8')).toContain('msa-aggregation-1-2 vs msa-1-2, per p(r1)');
  });
});
