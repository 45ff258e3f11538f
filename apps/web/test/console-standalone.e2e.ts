// e2e-variants: naked-mon
/**
 * The console outside the measured variant (`npm run console`): the researcher signs in
 * with the console's token (a wrong one is refused with where to find it), sees the console's
 * pages only, is offered every plan — matrix, findings and faults too, which a console served by a
 * variant refuses — and launches a smoke run of naked-mon while no variant is up. The harness
 * brings the variant up and down; the console, served by no variant, keeps watching and shows the
 * run finished after the variant has gone. The run folder holds the manifest of the very command
 * shown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { stopVariant, variantStatus } from '@shellgrade/launcher';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO } from '../../../test/support/stack';
import { alertText, horizontalOverflow, launch, newPage } from './browser';
import { chooseLaunch, launchEnded, LaunchedRuns, manifestOf, pressLaunch, signInToConsole } from './console-launching';

jest.setTimeout(600_000);

let browser: Browser;
let consoleProcess: ChildProcess;
let url: string;
const launched = new LaunchedRuns();

/** A port no one listens on now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** `npm run console -- --port <port>`, once it says it listens. */
async function startConsole(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(REPO, 'dist', 'services', 'console', 'src', 'main.js'), '--port', String(port)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('console listening on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the console exited (${code}) before listening: ${out}`)));
  });
  return child;
}

beforeAll(async () => {
  browser = await launch();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  consoleProcess = await startConsole(port);
});
afterAll(async () => {
  await browser?.close();
  if (consoleProcess && consoleProcess.exitCode === null) {
    const exited = new Promise((r) => consoleProcess.once('exit', r));
    consoleProcess.kill('SIGTERM');
    await exited;
  }
  launched.removeAll();
});

it("signs in with the console's token only, and shows the console's pages only", async () => {
  const { context, page } = await newPage(browser);
  try {
    await signInToConsole(page, url, 'not-the-token');
    expect(await page.getByTestId('console-sign-in').textContent()).toMatch(/sign in as console with the token in run\/console\/token/);
    expect(await alertText(page)).toMatch(/^not the console's credential: sign in as console with the token in run\/console\/token/);

    await signInToConsole(page, url);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.waitForURL(/\/console$/);
    const nav = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(nav).toEqual(['shellgrade', 'Console', 'Trend', 'Launch', 'Findings', 'Faults']);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
});

it('launches a smoke run with no variant up and watches it past the variant going down; matrix, findings and faults are offered unrefused', async () => {
  // No variant up: the harness brings naked-mon up (and seeds it) itself, and down at the end.
  await stopVariant();
  const { context, page } = await newPage(browser);
  try {
    await signInToConsole(page, url);
    await page.getByRole('link', { name: 'Launch', exact: true }).click();
    for (const plan of ['matrix', 'findings', 'faults']) {
      await page.getByLabel('Plan').selectOption(plan);
      await page.getByTestId('launch-command').waitFor();
      expect([plan, await page.getByTestId('plan-refused').count()]).toEqual([plan, 0]);
    }
    expect(await page.getByTestId('launch-command').textContent()).toMatch(/^npm run bench -- faults --variant naked-mon --faults all --profile [a-z0-9-]+$/);

    expect(await chooseLaunch(page, { plan: 'run', preset: 'naked-mon', profile: 'smoke' })).toBe('npm run bench -- run --variant naked-mon --profile smoke');
    const id = await pressLaunch(page, launched);
    expect(id).toMatch(/^\d{8}T\d{6}Z-naked-mon-smoke$/);
    const ended = await launchEnded(page);
    const verdict = (await page.getByTestId('launch-verdict').textContent()) ?? '';
    process.stdout.write(`standalone console launched ${id}: ${verdict}\n`);
    expect(ended).toBe('finished');
    expect(await page.getByTestId('launch-results').textContent()).toBe(`results/${id}`);

    // The harness brought the variant it had brought up down again; the console outlived it.
    expect((await variantStatus()).variant).toBeNull();
    expect(manifestOf(id).command).toBe(`npm run bench -- run --variant naked-mon --profile smoke --run-id ${id}`);
  } finally {
    await context.close();
  }
});
