// e2e-variants: naked-mon
/**
 * Compare N-way: an admin selects three recorded runs in the console and reads the
 * `bench compare` tables of each against the first (computed by the harness's own CLI through
 * GET /ops/compare): per request type each run's mean, its difference from the baseline with
 * the 95% interval and whether it is significant; the hosts' speed probes and the warning
 * that one host was slower. The three runs are fixtures this test writes under fresh ids in
 * the results folder the variant reads (pm2 keeps its own environment) and removes afterwards.
 * A student and a teacher get neither the page's controls nor the endpoint (404 problem+json).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
// The run-record fixtures of the compare unit tests (benchmarks/test/compare), the same files the harness writes.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runRecord, writeTestFolder } from '../../../benchmarks/test/compare/run-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';
import { ADMIN, asStudentAndTeacher, call } from './console-roles';

jest.setTimeout(600_000);

const RESULTS = join(REPO, 'results');
const tag = randomBytes(4).toString('hex');
// Stamps far in the future: the newest runs, first in the console's table.
const RUN_IDS = [1, 2, 3].map((i) => `2999123${i}T000000Z-e2e-compare-${tag}`);
const NOISE = [0, 7, -5, 3, -4];

/** Five runs of a test whose SPS p50 sits at `spsP50` ms and whose host ran the speed probe in `scryptMs`. */
function fixture(runId: string, variant: string, spsP50: number, scryptMs: number): void {
  const records = NOISE.map((n, i) => runRecord(i + 1, { p50: 100 + n, sps: { p50: spsP50 + 10 * n }, throughput: 15 + n / 10, cpuS: 9 + n / 10 }));
  const dir = writeTestFolder(RESULTS, runId, variant, records);
  const file = join(dir, 'aggregated.json');
  const aggregated = JSON.parse(readFileSync(file, 'utf8')) as { meta: { machine?: Record<string, unknown>; startedAt: string } };
  aggregated.meta.machine = { ...aggregated.meta.machine, speed: { scryptN14Ms: scryptMs, spawnMs: 2 } };
  writeFileSync(file, JSON.stringify(aggregated));
}

let browser: Browser;
beforeAll(async () => {
  fixture(RUN_IDS[0]!, 'naked-mon', 900, 40);
  fixture(RUN_IDS[1]!, 'msa-1-1', 1400, 41);
  fixture(RUN_IDS[2]!, 'msa-1-2', 905, 80);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const id of RUN_IDS) rmSync(join(RESULTS, id), { recursive: true, force: true });
});

it('an admin compares three recorded runs: differences with intervals and significance, speed probes and the warning', async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: 'Console' }).click();
    for (const id of RUN_IDS) await page.getByRole('checkbox', { name: `Compare ${id}` }).check();
    await page.getByRole('button', { name: 'Compare selected (3)' }).click();

    const sps = page.getByTestId('compare-sps');
    await sps.waitFor();
    const p50 = sps.getByRole('row', { name: /^p50 of OK responses/ });
    const cells = p50.getByRole('cell');
    expect(await cells.nth(0).textContent()).toBe('902.0 ms');
    // msa-1-1: +500 ms, its interval excludes 0 — significant and worse.
    expect(await cells.nth(1).textContent()).toMatch(/^1402\.0 ms\+500\.0 ms \[\+\d+\.\d ms, \+\d+\.\d ms\] significant, worse$/);
    // msa-1-2: +5 ms inside the run-to-run noise — not significant.
    expect(await cells.nth(2).textContent()).toMatch(/^907\.0 ms\+5\.0 ms \[−\d+\.\d ms, \+\d+\.\d ms\] not significant$/);
    // The other tables: all requests, login, and the whole run's CPU and memory.
    for (const type of ['all', 'login', 'run']) await page.getByTestId(`compare-${type}`).waitFor();
    expect(await page.getByTestId('compare-run').getByRole('row', { name: /^variant CPU per iteration/ }).count()).toBe(1);

    const runs = page.getByTestId('compared-runs');
    expect(await runs.getByRole('row', { name: new RegExp(`^${RUN_IDS[2]}`) }).getByRole('cell', { name: 'scrypt 2^14 80 ms, spawn 2 ms' }).count()).toBe(1);
    expect(await page.getByTestId('host-warning').first().textContent()).toMatch(/different speed \(scrypt 2\^14 40 vs 80 ms/);
    expect(await page.locator('code.command').first().textContent()).toBe(`npm run bench -- compare ${RUN_IDS[0]} ${RUN_IDS[1]}`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
});

it('a student and a teacher see no compare control and the endpoint answers them 404', async () => {
  const { entry } = await variantUp('naked-mon');
  await asStudentAndTeacher(browser, entry, async (page) => {
    await page.getByRole('link', { name: 'Console' }).click();
    await page.getByTestId('runs').getByRole('row', { name: new RegExp(RUN_IDS[0]!) }).waitFor();
    expect(await page.getByRole('checkbox', { name: /^Compare / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Compare selected/ }).count()).toBe(0);
    expect(await call(page, 'GET', `/ops/compare?runs=${RUN_IDS.slice(0, 2).join(',')}`)).toEqual({ status: 404, type: 'application/problem+json' });
  });
});
