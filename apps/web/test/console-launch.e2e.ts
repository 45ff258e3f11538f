// e2e-variants: naked-mon
/**
 * Launch and watch: an admin launches a `smoke` run of naked-mon from the console and
 * watches it to its end on the live page (server-sent events from the harness's own log and
 * k6's live log); the run folder holds the manifest of the very command shown. A second launch
 * while one runs is refused with 409 problem+json. A cancelled run stops the harness and k6 and
 * is left marked INVALID with who cancelled it. A launch while another measurement holds the
 * machine (the harness lock) waits its turn, saying for whom. A student and a teacher see no Launch entry, no
 * page, and the endpoints answer them 404.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';
import { ADMIN, asStudentAndTeacher, call } from './console-roles';
import { chooseLaunch, launchEnded, LaunchedRuns, manifestOf, pressLaunch } from './console-launching';
import { livingGroupMembers } from '@shellgrade/console-server';
import { HARNESS_LOCK } from '@shellgrade/launcher';

jest.setTimeout(600_000);

const launched = new LaunchedRuns();
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  launched.removeAll();
});

/** Launches naked-mon/smoke from the Launch page; the live page's run id. */
async function launchSmoke(page: Page): Promise<string> {
  expect(await chooseLaunch(page, { preset: 'naked-mon', profile: 'smoke' })).toBe('npm run bench -- run --variant naked-mon --profile smoke');
  return pressLaunch(page, launched);
}

it('an admin launches a smoke run and watches it finish; a second launch meanwhile is refused with 409', async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    const id = await launchSmoke(page);
    expect(id).toMatch(/^\d{8}T\d{6}Z-naked-mon-smoke$/);
    await page.getByTestId('launch-state').filter({ hasText: 'running' }).waitFor();
    const busy = await call(page, 'POST', '/ops/launches', { plan: 'run', preset: 'naked-mon', profile: 'smoke' });
    expect(busy).toEqual({ status: 409, type: 'application/problem+json' });

    // The steps table forms while k6 runs; the verdict once the test has ended.
    const steps = page.getByTestId('launch-steps');
    await steps.getByRole('row', { name: /^run 1/ }).waitFor();
    const ended = await launchEnded(page);
    const verdict = (await page.getByTestId('launch-verdict').textContent()) ?? '';
    const row = (await steps.getByRole('row', { name: /^run 1/ }).textContent()) ?? '';
    // The figures of this real run, for the record (the closing note quotes them).
    const facts = await page.evaluate<string, string>((url) => fetch(url).then((r) => r.text()), `/ops/launches/${id}`);
    process.stdout.write(`launched ${id}: ${verdict} | ${row} | stage: ${await page.getByTestId('launch-stage').textContent()}\n${facts}\n`);
    expect(ended).toBe('finished');
    expect(verdict).toMatch(/^(VALID|INVALID): \d+ \/ 1 runs valid$/);
    expect(row).toMatch(/^run 10\d+\.\d+ \/s[1-9]\d*\d+ \(.*\)\d+ ms(VALID|INVALID)/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The run folder is the shell command's: the same manifest (variant, profile, run id) and its results.
    const dir = join(REPO, 'results', id);
    const manifest = manifestOf(id);
    expect([manifest.runId, manifest.variant.name, manifest.profile.name]).toEqual([id, 'naked-mon', 'smoke']);
    expect(manifest.command).toBe(`npm run bench -- run --variant naked-mon --profile smoke --run-id ${id}`);
    for (const f of ['aggregated.json', 'run-1.json', 'k6-run-1.log', 'meta.json']) expect(existsSync(join(dir, f))).toBe(true);
    expect(await page.getByText(`npm run bench -- run --variant naked-mon --profile smoke --run-id ${id}`).count()).toBe(1);
  } finally {
    await context.close();
  }
});

it('a launch while another measurement holds the machine waits its turn, the live page saying for whom, then runs', async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  // This test process plays a shell run going on: it holds the harness lock as `bench run` would.
  await HARNESS_LOCK.acquire('a shell run (console-launch.e2e.ts)', { waitMs: 0 });
  let held = true;
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    await launchSmoke(page);
    await page.getByTestId('launch-stage').filter({ hasText: `waiting for the machine: pid ${process.pid} is measuring (a shell run (console-launch.e2e.ts), since ` }).waitFor();
    expect(await page.getByTestId('launch-state').textContent()).toBe('running');
    HARNESS_LOCK.release();
    held = false;
    expect(await launchEnded(page)).toBe('finished');
  } finally {
    if (held) HARNESS_LOCK.release();
    await context.close();
  }
});

it('an admin cancels a run: the harness and k6 stop, the run is marked INVALID with who cancelled it', async () => {
  const { entry } = await variantUp('naked-mon');
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    const id = await launchSmoke(page);
    // Cancel once the harness has said something (the variant checked, seeding or load under way).
    await page.getByTestId('launch-log').getByRole('listitem').first().waitFor();
    await page.getByRole('button', { name: 'Cancel the run' }).click();
    await page.getByTestId('launch-state').filter({ hasText: 'cancelled' }).waitFor();
    expect(await page.getByTestId('launch-cancelled').textContent()).toMatch(/^by an admin from .+ at .+: the run is INVALID$/);

    const record = JSON.parse(readFileSync(join(REPO, 'run', 'console', 'launches', `${id}.json`), 'utf8')) as { pid: number; state: string };
    expect(record.state).toBe('cancelled');
    // Nothing of the harness's process group runs any more (k6 included); killed members may linger as zombies.
    expect(livingGroupMembers(record.pid)).toEqual([]);
    const mark = JSON.parse(readFileSync(join(REPO, 'results', id, 'cancelled.json'), 'utf8')) as { valid: boolean; reasons: string[] };
    expect(mark.valid).toBe(false);
    expect(mark.reasons[0]).toMatch(/^cancelled from the console by an admin/);

    // The console's run list says INVALID.
    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await page.getByTestId('runs').getByRole('row', { name: new RegExp(id) }).getByText('invalid').waitFor();
  } finally {
    await context.close();
  }
});

it('a student and a teacher see no Launch entry nor page, and the launch endpoints answer them 404', async () => {
  const { entry } = await variantUp('naked-mon');
  await asStudentAndTeacher(browser, entry, async (page) => {
    expect(await page.getByRole('link', { name: 'Launch', exact: true }).count()).toBe(0);
    for (const [method, url, body] of [
      ['GET', '/ops/launches'],
      ['POST', '/ops/launches', { plan: 'run', preset: 'naked-mon', profile: 'smoke' }],
      ['GET', '/ops/launches/20261127T000000Z-naked-mon-smoke/events'],
      ['POST', '/ops/launches/20261127T000000Z-naked-mon-smoke/cancel'],
    ] as const) {
      expect(await call(page, method, url, body)).toEqual({ status: 404, type: 'application/problem+json' });
    }
    await page.goto(`${entry}/console/launch`);
    await page.getByText('This page does not exist.').waitFor();
  });
});
