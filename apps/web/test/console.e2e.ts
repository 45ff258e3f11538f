// e2e-variants: naked-mon
/**
 * Researchers: the console lists the presets and the benchmark runs of the results
 * folder, and opens a run's report through the entry point's read-only relay (/ops/runs). The
 * variant's processes read the repository's results/ (pm2 keeps its own environment), so the
 * test fabricates a run there under a unique id and removes it afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
// The launcher and seeding helpers of the system tests (test/support), as in test/variants.e2e.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';

jest.setTimeout(600_000);

// A stamp far in the future: the newest run, first in the table.
const RUN_ID = `29991231T235959Z-e2e-console-${randomBytes(4).toString('hex')}`;
const RUN_DIR = join(REPO, 'results', RUN_ID);

let browser: Browser;
beforeAll(async () => {
  mkdirSync(join(RUN_DIR, 'report'), { recursive: true });
  writeFileSync(join(RUN_DIR, 'meta.json'), JSON.stringify({ runId: RUN_ID, variant: 'naked-mon', profileName: 'e2e-profile', startedAt: '2999-12-31T23:59:59.000Z', endedAt: '2999-12-31T23:59:59.500Z' }));
  writeFileSync(join(RUN_DIR, 'aggregated.json'), JSON.stringify({ schema: 'shellgrade.bench-aggregated/2', runsAsked: 3, runs: 3, validRuns: 2, valid: true }));
  writeFileSync(join(RUN_DIR, 'report', 'report.html'), '<!doctype html><title>e2e report</title><h1>Fabricated e2e report</h1>');
  writeFileSync(join(RUN_DIR, 'k6-dashboard-run-1.html'), '<!doctype html><h1>Fabricated k6 dashboard</h1>');
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  rmSync(RUN_DIR, { recursive: true, force: true });
});

it('shows the presets and a benchmark run, and opens its report', async () => {
  const { entry } = await variantUp('naked-mon');
  const [student] = await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, student!.email, student!.password);
    await page.getByRole('link', { name: 'Console' }).click();

    const presets = page.getByTestId('presets');
    const nakedMon = presets.getByRole('row', { name: /^naked-mon\b/ }).first();
    await nakedMon.waitFor();
    expect(await nakedMon.getByRole('cell', { name: 'monolith', exact: true }).count()).toBe(1);
    expect(await presets.getByRole('row', { name: /^msa-1-2\b/ }).first().getByRole('cell', { name: 'msa', exact: true }).count()).toBe(1);

    const runs = page.getByTestId('runs');
    const run = runs.getByRole('row', { name: new RegExp(RUN_ID) });
    await run.waitFor();
    // Newest first: the fabricated run (year 2999) heads the table.
    expect(await runs.locator('tbody tr').first().getByRole('rowheader').textContent()).toBe(RUN_ID);
    expect(await run.getByRole('cell', { name: 'e2e-profile' }).count()).toBe(1);
    expect(await run.getByRole('cell', { name: '2 / 3' }).count()).toBe(1);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The report opens in a new tab, through the relay, from the keyboard.
    const report = run.getByRole('link', { name: 'report/report.html' });
    await report.focus();
    const [tab] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`${entry}/ops/runs/${RUN_ID}/report/report.html`);
    await tab.getByRole('heading', { name: 'Fabricated e2e report' }).waitFor();
    expect(await run.getByRole('link', { name: 'dashboard run-1.html' }).getAttribute('href')).toBe(`/ops/runs/${RUN_ID}/k6-dashboard-run-1.html`);
  } finally {
    await context.close();
  }
});
