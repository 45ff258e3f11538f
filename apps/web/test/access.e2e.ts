// e2e-variants: naked-mon
/**
 * A student cannot open another student's production nor the teachers' pages — the
 * page shows the API's refusal (its problem+json detail), never a blank page, and no token is
 * left where script can read it (httpOnly cookies only; local and session storage empty).
 */
import type { Browser } from 'playwright-core';
import { loadSamples } from '@shellgrade/grading';
// The launcher, seeding and HTTP helpers of the system tests (test/support), as in test/variants.e2e.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { BrowserSession, spaSubmission } from '../../../test/support/http-client';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { seed, variantUp } from '../../../test/support/stack';
import { alertText, launch, logIn, newPage } from './browser';

jest.setTimeout(300_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

it("shows the API's refusal for another student's production and for teacher pages", async () => {
  const { entry } = await variantUp('naked-mon');
  const [owner, other] = await seed(2);
  // The owner's production, made over HTTP (the setup; the browser is the other student's).
  const s = new BrowserSession(entry);
  expect((await s.request('POST', '/api/user/login', { email: owner!.email, password: owner!.password })).status).toBe(200);
  const submitted = await s.request('POST', '/api/exercise-production', spaSubmission(owner!.exerciseId, owner!.statementId, loadSamples('paper-scripts').good));
  expect(submitted.status).toBe(201);
  const epId = (submitted.body as { ep_id: number }).ep_id;
  const sessions = await s.request('GET', '/api/business-session');
  const sessionId = (sessions.body as { session_id: number }[])[0]!.session_id;

  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, other!.email, other!.password);
    // No nav to the teachers' pages for a student.
    expect(await page.getByRole('link', { name: 'Sessions', exact: true }).count()).toBe(0);

    await page.goto(`${entry}/production/${epId}`);
    expect(await alertText(page)).toBe(`exercise production ${epId} does not exist`);
    await page.getByRole('button', { name: 'Log out' }).waitFor(); // the app, not a blank page

    // The session's report: not theirs, so, as everywhere (libs/auth ownership.ts), it does not exist for them.
    await page.goto(`${entry}/teacher/sessions/${sessionId}`);
    expect(await alertText(page)).toBe(`business session ${sessionId} does not exist`);

    await page.goto(`${entry}/teacher/exercises/new`);
    await page.getByLabel('Name', { exact: true }).fill('Not mine');
    await page.getByLabel(/^Slug/).fill('not-mine');
    await page.getByLabel('Grading script (Python, prints one JSON line)').fill('print(1)');
    await page.getByLabel(/^Question archive/).setInputFiles({ name: 'q.tar.gz', mimeType: 'application/gzip', buffer: Buffer.from([31, 139]) });
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await alertText(page)).toBe('requires role admin or teacher');

    // The session is in httpOnly cookies only.
    const storage = await page.evaluate<number>('localStorage.length + sessionStorage.length');
    expect(storage).toBe(0);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'access_token')?.httpOnly).toBe(true);
    expect(await page.evaluate<string>('document.cookie')).not.toContain('access_token');
  } finally {
    await context.close();
  }
});

it('logs in with the keyboard alone, shows a wrong password as the API words it, and logs out for good', async () => {
  const { entry } = await variantUp('naked-mon');
  const [student] = await seed(1);
  const { context, page } = await newPage(browser);
  try {
    await page.goto(entry);
    await page.getByLabel('Email').waitFor();
    // Tab order reaches the labelled fields; Enter submits.
    for (let i = 0; i < 5 && (await page.evaluate<string>('document.activeElement.id')) !== 'email'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('email');
    await page.keyboard.type(student!.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    expect(await alertText(page)).toBe('invalid email or password');

    await page.getByLabel('Password').fill(student!.password);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).press('Enter');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    // Logged out on the server too: a reload finds no session.
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
  } finally {
    await context.close();
  }
});
