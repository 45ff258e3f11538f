// e2e-variants: naked-mon
/**
 * Launching the bench CLI's other saved plans: an admin launches a suite — a scaled-down
 * load suite (load-smoke: two steps of 4 s) of naked-mon, the variant serving the console — from
 * the Launch page and watches it to its end; the run folder holds the suite's files and the
 * manifest of the very command shown. The plans the console refuses (matrix, findings, faults:
 * they would take down the console that launched them) are offered with their command and the
 * reason, and the server answers 422 problem+json with both; a run of another preset is 409. A
 * student and a teacher get 404 from the launch endpoint whatever the plan.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { alertText, horizontalOverflow, launch, logIn, newPage } from './browser';
import { ADMIN, asStudentAndTeacher, call } from './console-roles';
import { chooseLaunch, launchEnded, LaunchedRuns, manifestOf, pressLaunch } from './console-launching';

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

it('an admin launches a scaled-down load suite of the console\'s variant and watches it finish: the manifest holds the command shown', async () => {
  const { entry } = await variantUp('naked-mon');
  await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    expect(await chooseLaunch(page, { plan: 'suite', preset: 'naked-mon', profile: 'load-smoke' })).toBe('npm run bench -- run --variant naked-mon --profile load-smoke');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const id = await pressLaunch(page, launched);
    expect(id).toMatch(/^\d{8}T\d{6}Z-naked-mon-load-smoke$/);

    // The suite's steps form while k6 runs; the verdict once it has ended.
    await page.getByTestId('launch-steps').getByRole('row', { name: /^run 1/ }).first().waitFor();
    const ended = await launchEnded(page);
    const verdict = (await page.getByTestId('launch-verdict').textContent()) ?? '';
    const steps = await page.getByTestId('launch-steps').locator('tbody tr').allTextContents();
    const facts = await page.evaluate<string, string>((url) => fetch(url).then((r) => r.text()), `/ops/launches/${id}`);
    process.stdout.write(`launched suite ${id}: ${verdict} | ${steps.join(' | ')}\n${facts}\n`);
    expect(ended).toBe('finished');
    expect(verdict).toMatch(/^(VALID|INVALID): \d+ \/ 1 runs valid$/);

    // The run folder is the shell command's: a suite run's files and the same manifest.
    const dir = join(REPO, 'results', id);
    const manifest = manifestOf(id);
    expect([manifest.runId, manifest.variant.name, manifest.profile.name]).toEqual([id, 'naked-mon', 'load-smoke']);
    expect(manifest.command).toBe(`npm run bench -- run --variant naked-mon --profile load-smoke --run-id ${id}`);
    for (const f of ['aggregated.json', 'suite-run-1.json', 'k6-run-1.log', 'meta.json']) expect([f, existsSync(join(dir, f))]).toEqual([f, true]);
    const record = JSON.parse(readFileSync(join(REPO, 'run', 'console', 'launches', `${id}.json`), 'utf8')) as { plan: string; command: string };
    expect(record).toMatchObject({ plan: 'suite', command: manifest.command });
  } finally {
    await context.close();
  }
});

it('matrix, findings and faults are offered with their command and refused with the reason (422); another preset is 409', async () => {
  const { entry } = await variantUp('naked-mon');
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: 'Launch', exact: true }).click();
    await page.getByLabel('Plan').selectOption('matrix');
    await page.getByLabel('Presets').selectOption(['naked-mon', 'msa-1-2']);
    await page.getByLabel('Profile').selectOption('smoke');
    // In the presets list's order.
    expect(await page.getByTestId('launch-command').textContent()).toBe('npm run bench -- matrix --variants msa-1-2,naked-mon --profile smoke');
    expect(await page.getByTestId('plan-refused').textContent()).toMatch(/^Not launched from the console: a matrix brings up each of its presets in turn/);
    await page.getByRole('button', { name: 'Launch' }).click();
    expect(await alertText(page)).toMatch(/^the matrix plan is not launched from the console: .* Run it from a shell: npm run bench -- matrix --variants msa-1-2,naked-mon --profile smoke$/);
    expect(page.url()).toMatch(/\/console\/launch$/);

    await page.getByLabel('Plan').selectOption('faults');
    expect(await page.getByTestId('launch-command').textContent()).toBe('npm run bench -- faults --variant naked-mon --faults all --profile smoke');
    for (const body of [
      { plan: 'findings', mode: 'smoke' },
      { plan: 'faults', preset: 'naked-mon', profile: 'smoke', faults: 'kill-one:monolith' },
      { plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke' },
    ]) {
      expect([body.plan, await call(page, 'POST', '/ops/launches', body)]).toEqual([body.plan, { status: 422, type: 'application/problem+json' }]);
    }
    expect(await call(page, 'POST', '/ops/launches', { plan: 'suite', preset: 'msa-1-2', profile: 'load-smoke' })).toEqual({ status: 409, type: 'application/problem+json' });
    expect(await call(page, 'POST', '/ops/launches', { plan: 'suite', preset: 'naked-mon', profile: 'smoke' })).toEqual({ status: 400, type: 'application/problem+json' });
    // Nothing was started by any of them.
    expect(JSON.parse(await page.evaluate<string>(() => fetch('/ops/launches').then((r) => r.text()))).busy).toBeNull();
  } finally {
    await context.close();
  }
});

it('a student and a teacher get 404 from the launch endpoint whatever the plan', async () => {
  const { entry } = await variantUp('naked-mon');
  await asStudentAndTeacher(browser, entry, async (page) => {
    for (const body of [{ plan: 'suite', preset: 'naked-mon', profile: 'load-smoke' }, { plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke' }, { plan: 'nope' }]) {
      expect([body, await call(page, 'POST', '/ops/launches', body)]).toEqual([body, { status: 404, type: 'application/problem+json' }]);
    }
  });
});
