// e2e-variants: naked-mon
/**
 * The findings and faults in the app: an admin opens the Findings page from the
 * console's nav and reads each claim's verdict, the comparison behind it (B − A with its
 * interval, Cliff's δ) and the links to the runs it rests on (their reports, the trace
 * breakdown, an exemplar trace in the trace view); then the Faults page: the resilience table
 * (rows faults, columns variants; each cell lost / EFR during / recovery, linking to its run, a
 * latency fault's slowest trace linked to the trace view) and one faults folder in full — at a
 * phone's width without sideways scrolling; under it the architecture verdicts of a fault run three
 * times on two variants (Welch's interval, the rank test), none for cells of one run. The findings folder, the faults folder and the runs
 * they name are fixtures this test writes under fresh names in the results folder the variant
 * reads (pm2 keeps its own environment) and removes afterwards. A student and a teacher get no
 * nav entry and 404 problem+json from the endpoints.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
// The endpoints' unit-test fixtures: the harness's findings.json / faults.json formats.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { EXEMPLAR_P50, reportFixtureFolders, reportFixtureIds, SLOWEST_DURING, writeRepeatedFaultFixtures, writeReportFixtures } from '../../../libs/console-server/src/ops-findings.fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';
import { ADMIN, asStudentAndTeacher, call } from './console-roles';

jest.setTimeout(600_000);

const RESULTS = join(REPO, 'results');
const tag = randomBytes(4).toString('hex');
// Stamps far in the future: the newest folders, first in the pages' lists.
const ids = reportFixtureIds('29991230T0000', tag);

/** In the page (its cookies): the status of a GET of a link's target. */
const statusOf = (page: Page, url: string) => page.evaluate<number, string>((u) => fetch(u).then((r) => r.status), url);

let browser: Browser;
beforeAll(async () => {
  writeReportFixtures(RESULTS, ids);
  writeRepeatedFaultFixtures(RESULTS, ids);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const f of reportFixtureFolders(ids)) rmSync(join(RESULTS, f), { recursive: true, force: true });
});

it("an admin reads the findings' verdicts with the runs and traces behind them, and the resilience table with its runs", async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);

    // Findings, from the nav.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Findings' }).click();
    const folders = page.getByTestId('findings-folders');
    const row = folders.getByRole('row', { name: new RegExp(ids.findings) });
    await row.waitFor();
    expect(await row.textContent()).toContain('1 reproduced, 1 refuted, 1 inconclusive');
    const choose = row.getByRole('link', { name: ids.findings });
    if (await choose.count()) await choose.click();

    const i = page.getByTestId('finding-i');
    await i.waitFor();
    expect(await i.getByTestId('verdict').textContent()).toBe('reproduced');
    expect(await page.getByTestId('finding-ii').getByTestId('verdict').textContent()).toBe('refuted');
    expect(await page.getByTestId('finding-iii').getByTestId('verdict').textContent()).toBe('inconclusive');
    // The numbers behind the verdicts.
    const part = i.getByTestId('parts').getByRole('row', { name: /MSA-1-1 answers faster/ });
    expect(await part.getByRole('cell', { name: '−120 ms [−180 ms, −60.0 ms]' }).count()).toBe(1);
    expect(await part.getByRole('cell', { name: 'p = 0.010, δ = −0.90 (large)' }).count()).toBe(1);
    expect(await part.textContent()).toMatch(/naked-mon \(mon-blocking\)518 ms, n = 2/);
    expect(await page.getByTestId('finding-ii').getByRole('cell', { name: '−5.0 pt [−8.0 pt, −2.0 pt]' }).count()).toBe(1);
    expect(await page.getByTestId('finding-iii').textContent()).toContain('none: its cells were not run');

    // The runs behind (i): all four merged runs, each with its report; the traced one with its breakdown and exemplars.
    const runs = i.getByTestId('finding-runs');
    expect(await runs.locator('li[data-run]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-run')))).toEqual([ids.mon1, ids.mon2, ids.msa1, ids.msa2]);
    const mon1 = runs.locator(`li[data-run="${ids.mon1}"]`);
    const report = await mon1.getByRole('link', { name: 'report' }).getAttribute('href');
    expect(report).toBe(`/ops/runs/${ids.mon1}/report/report.html`);
    expect(await statusOf(page, report!)).toBe(200);
    expect(await statusOf(page, (await mon1.getByRole('link', { name: 'trace breakdown' }).getAttribute('href'))!)).toBe(200);
    expect(await statusOf(page, `/ops/findings/${ids.findings}/findings.html`)).toBe(200);
    const findingsHtml = `/ops/runs/findings/${ids.findings}/findings.html`;
    expect(await page.getByTestId('findings-record').getByRole('link', { name: 'findings.html' }).getAttribute('href')).toBe(findingsHtml);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await mon1.getByRole('link', { name: 'trace: p50 exemplar (120 ms)' }).click();
    await page.waitForURL(`**/console/trace/${EXEMPLAR_P50}`);

    // Item 3: findings.html as the console serves it — its relative links open the run's folder, its traces and its compare page.
    const served = await context.newPage();
    await served.goto(`${entry}${findingsHtml}`);
    await served.getByRole('link', { name: 'traces' }).click();
    await served.waitForURL(`**/ops/runs/${ids.mon1}/breakdown.html`);
    await served.getByRole('heading', { name: 'breakdown' }).waitFor();
    await served.goBack();
    await served.getByRole('link', { name: 'naked-mon', exact: true }).click();
    await served.waitForURL(`**/ops/runs/${ids.mon1}/`);
    await served.getByRole('heading', { name: ids.mon1 }).waitFor();
    await served.getByRole('link', { name: 'report/report.html' }).click();
    await served.getByRole('heading', { name: `report of ${ids.mon1}` }).waitFor();
    await served.goto(`${entry}${findingsHtml}`);
    await served.getByRole('link', { name: /naked-mon vs msa-1-1/ }).click();
    await served.getByRole('heading', { name: 'compare' }).waitFor();
    await served.close();

    // Faults, from the nav: the resilience table, each cell linking to its run.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Faults' }).click();
    const table = page.getByTestId('resilience');
    await table.waitFor();
    const cell = (id: string) => table.locator(`[data-run="${id}"]`);
    expect(await cell(ids.faultMon).textContent()).toBe('lost 0 · EFR 25.0 % · rec 2.0 s');
    expect(await cell(ids.faultMon).getByRole('link').getAttribute('href')).toBe(`/ops/runs/${ids.faultMon}/report/report.html`);
    expect(await cell(ids.faultMsa).textContent()).toBe('lost 3 · EFR 50.0 % · rec not recoveredINVALID');
    // Rows are faults, columns variants.
    expect(await table.getByRole('row', { name: /^restart:postgres/ }).locator(`td[data-variant="msa-1-2"] [data-run="${ids.faultMsa}"]`).count()).toBe(1);
    expect(await table.getByRole('row', { name: /^latency:exercise/ }).locator(`td[data-variant="msa-1-2"] [data-run="${ids.faultLatency}"]`).count()).toBe(1);
    expect(await cell(ids.faultLatency).getByRole('link', { name: 'trace: slowest during the fault (481 ms)' }).getAttribute('href')).toBe(`/console/trace/${SLOWEST_DURING}`);
    expect(await statusOf(page, `/ops/runs/${ids.faultMon}/report/report.html`)).toBe(200);
    // The architecture verdicts under it: kill-one:exercise ran 3 times on each of msa-1-2 and naked-mon (EFR during 32 % vs 11 %, recovery 1.2 s vs 2.5 s).
    const verdict = page.getByTestId('verdicts').getByRole('row', { name: /^kill-one:exercise/ });
    expect(await verdict.locator('th, td').allTextContents()).toEqual([
      'kill-one:exercise', 'msa-1-2 vs naked-mon', '32.0 / 11.0', '-21.0 pp [-25.2, -16.8]', 'p 0.100 · δ -1.00 (large)', '1.2 / 2.5', '+1.3 s [+0.2, +2.3]', 'p 0.100 · δ +1.00 (large)', 'naked-mon lower; naked-mon higher',
    ]);
    expect(await page.getByTestId('verdicts').getByRole('row', { name: /^restart:postgres/ }).count()).toBe(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // One faults folder in full.
    await page.getByTestId('faults-folders').getByRole('link', { name: ids.faults }).click();
    const detail = page.getByTestId('fault-runs');
    await detail.waitFor();
    expect(await detail.getByRole('row', { name: /^restart:postgres/ }).count()).toBe(2);
    expect(await detail.textContent()).toContain('yes (expected exercise.queueing)');
    expect(await detail.textContent()).toContain('native server postgres (injected)');
    expect(await page.getByRole('link', { name: 'faults.md' }).getAttribute('href')).toBe(`/ops/runs/${ids.faults}/faults.md`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
});

it('a student and a teacher get no Findings or Faults entry and the endpoints answer them 404', async () => {
  const { entry } = await variantUp('naked-mon');
  await asStudentAndTeacher(browser, entry, async (page) => {
    await page.getByRole('link', { name: 'Console' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Findings' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Faults' }).count()).toBe(0);
    for (const url of ['/ops/findings', `/ops/findings/${ids.findings}`, `/ops/findings/${ids.findings}/findings.html`, `/ops/runs/findings/${ids.findings}/findings.html`, '/ops/faults', `/ops/faults/${ids.faults}`]) {
      expect([url, await call(page, 'GET', url)]).toEqual([url, { status: 404, type: 'application/problem+json' }]);
    }
  });
});
