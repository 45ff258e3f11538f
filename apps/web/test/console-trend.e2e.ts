// e2e-variants: naked-mon
/**
 * The trend view: an admin opens Trend from the console's nav, picks a preset and a
 * profile and reads its three recorded runs over time, oldest first (as `bench trend` reads them
 * through GET /ops/trend): per run its date, profile, the host's speed probe, throughput, SPS
 * p50/p95/p99, KO share, CPU per iteration and validity, a link to the run's folder; the line
 * chart drawn over the three runs; the run whose host's probe differs from the median one's by
 * more than the tolerance flagged. The three runs are fixtures this test writes under a fresh
 * profile name in the results folder the variant reads, and removes afterwards. A student and a
 * teacher get no Trend entry, no page, and 404 problem+json from the endpoint.
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
const PROFILE = `e2etrend-${tag}`;
// Plain tests of naked-mon under a profile of their own, far in the future: the newest runs.
const RUNS = [
  { id: `29991201T000000Z-naked-mon-${PROFILE}`, at: '2999-12-01T00:00:00.000Z', scrypt: 40, sps: { p50: 900, p95: 1200, p99: 1500 }, throughput: 15 },
  { id: `29991202T000000Z-naked-mon-${PROFILE}`, at: '2999-12-02T00:00:00.000Z', scrypt: 80, sps: { p50: 950, p95: 1300, p99: 1700 }, throughput: 14 },
  { id: `29991203T000000Z-naked-mon-${PROFILE}`, at: '2999-12-03T00:00:00.000Z', scrypt: 41, sps: { p50: 800, p95: 1100, p99: 1400 }, throughput: 16, valid: false },
];

function fixture(r: (typeof RUNS)[number]): void {
  const dir = writeTestFolder(RESULTS, r.id, 'naked-mon', [runRecord(1, { sps: r.sps, throughput: r.throughput, cpuS: 9, valid: r.valid })]);
  const file = join(dir, 'aggregated.json');
  const a = JSON.parse(readFileSync(file, 'utf8'));
  a.meta = { ...a.meta, runId: r.id, profileName: PROFILE, startedAt: r.at, machine: { ...a.meta.machine, speed: { scryptN14Ms: r.scrypt, spawnMs: 2 } } };
  a.valid = r.valid !== false;
  a.validRuns = r.valid === false ? 0 : 1;
  writeFileSync(file, JSON.stringify(a));
}

let browser: Browser;
beforeAll(async () => {
  RUNS.forEach(fixture);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const r of RUNS) rmSync(join(RESULTS, r.id), { recursive: true, force: true });
});

it("an admin reads a preset's three recorded runs over time: figures, chart, links, the other host flagged", async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trend' }).click();
    await page.getByLabel('Preset').selectOption('naked-mon');
    await page.getByLabel('Profile').selectOption(PROFILE);
    await page.getByRole('button', { name: 'Show the trend' }).click();

    const table = page.getByTestId('trend');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.locator('th').allTextContents()).toEqual(RUNS.map((r) => r.id));
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(1);
    // profile, speed probe, throughput, SPS p50/p95/p99, KO share, CPU per iteration, validity
    expect(await cells(0)).toEqual([PROFILE, 'scrypt 2^14 40 ms, spawn 2 ms', '15.00 /s', '900.0 ms', '1200.0 ms', '1500.0 ms', '0.00 %', expect.stringMatching(/^\d+\.\d ms$/), 'VALID (1/1)']);
    expect(await cells(1)).toEqual([PROFILE, 'scrypt 2^14 80 ms, spawn 2 msother host speed', '14.00 /s', '950.0 ms', '1300.0 ms', '1700.0 ms', '0.00 %', expect.stringMatching(/ ms$/), 'VALID (1/1)']);
    expect(await cells(2)).toEqual([PROFILE, 'scrypt 2^14 41 ms, spawn 2 msreference host', '16.00 /s', '800.0 ms', '1100.0 ms', '1400.0 ms', '0.00 %', expect.stringMatching(/ ms$/), 'INVALID (0/1, figures from INVALID runs)']);
    expect(await page.getByTestId('trend-host-warnings').textContent()).toMatch(new RegExp(`${RUNS[1]!.id}: the two sides ran on hosts of different speed \\(scrypt 2\\^14 41 vs 80 ms`));
    expect(await page.locator('code.command').textContent()).toBe(`npm run bench -- trend --variant naked-mon --profile ${PROFILE}`);

    // The chart: drawn (pixels painted) over the three runs.
    const chart = page.getByTestId('trend-chart');
    expect(await chart.getAttribute('data-points')).toBe('3');
    // (The tests' TypeScript has no DOM types: the canvas is described by what is read of it.)
    type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
    const painted = await chart.locator('canvas').evaluate((c) => {
      const canvas = c as unknown as Canvas;
      const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    expect(painted).toBeGreaterThan(500);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // Each run links to its folder in the console, whose index opens its files.
    const link = rows.nth(0).getByRole('link', { name: RUNS[0]!.id });
    expect(await link.getAttribute('href')).toBe(`/ops/runs/${RUNS[0]!.id}/`);
    const folder = await context.newPage();
    await folder.goto(`${entry}/ops/runs/${RUNS[0]!.id}/`);
    await folder.getByRole('link', { name: 'aggregated.json' }).waitFor();
    await folder.close();
  } finally {
    await context.close();
  }
});

it('a student and a teacher see no Trend entry nor page, and /ops/trend answers them 404', async () => {
  const { entry } = await variantUp('naked-mon');
  await asStudentAndTeacher(browser, entry, async (page) => {
    await page.getByRole('link', { name: 'Console' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trend' }).count()).toBe(0);
    expect(await call(page, 'GET', '/ops/trend?preset=naked-mon')).toEqual({ status: 404, type: 'application/problem+json' });
    await page.goto(`${entry}/console/trend?preset=naked-mon`);
    await page.getByText('This page does not exist.').waitFor();
  });
});
