// e2e-variants: naked-mon, msa-bullmq-1-1-async
/**
 * Students in a real browser: log in, open an exercise of their session, upload a
 * correct and a wrong archive (file picker, then drag and drop) and see both grades with their
 * feedback — at once on a synchronous variant (naked-mon: 201), by polling on an asynchronous one
 * (msa-bullmq-1-1-async: 202, then GET /api/exercise-production/:id) — then their history; a
 * file over the server's archive limit is refused before any upload. Real launcher, PostgreSQL,
 * sandboxed grader; headless Chromium at 375 px.
 */
import type { Browser, Page } from 'playwright-core';
import { loadSamples } from '@shellgrade/grading';
// The launcher and seeding helpers of the system tests (test/support), as in test/variants.e2e.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { freshStudent } from '../../../test/support/sessions';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';

jest.setTimeout(600_000);

const paper = loadSamples('paper-scripts');
const EXERCISE = 'Scripts, permissions and archives (ShellOnYou payload)';
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Drops `bytes` as a file on the drop zone, as a user dragging it from their desktop does. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  // Built in the page (a string: the tests' TypeScript has no DOM types).
  const transfer = await page.evaluateHandle(
    `(() => { const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array(${JSON.stringify([...bytes])})], ${JSON.stringify(name)}, { type: 'application/gzip' })); return dt; })()`,
  );
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
}

/** Submits and waits for the grade: returns the SPS status the browser got (201 sync, 202 async). */
async function submitAndWaitForGrade(page: Page): Promise<{ status: number; grade: string }> {
  const reply = page.waitForResponse((r) => r.url().endsWith('/api/exercise-production') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Submit' }).click();
  const status = (await reply).status();
  const grade = page.getByTestId('outcome').getByTestId('grade');
  await grade.waitFor();
  return { status, grade: (await grade.textContent()) ?? '' };
}

describe.each([
  ['naked-mon', 201],
  ['msa-bullmq-1-1-async', 202],
])('a student on %s', (variant, expectedStatus) => {
  it('uploads a correct and a wrong archive and sees both grades, their feedback and the history', async () => {
    const { entry } = await variantUp(variant);
    const [seeded] = await seed(2);
    // Its own account: the history then holds this test's productions only, none from earlier runs.
    const student = await freshStudent(entry, seeded!.exerciseId);
    const { context, page } = await newPage(browser);
    try {
      await logIn(page, entry, student.email, student.password);
      await page.getByRole('article', { name: 'Seeded session' }).getByRole('link', { name: EXERCISE }).click();
      await page.getByRole('heading', { name: EXERCISE }).waitFor();
      await page.getByTitle('Statement').waitFor();

      // The correct answer through the file picker: its size shown, then 100 and every check OK.
      await page.getByLabel(/Archive \(\.tar\.gz/).setInputFiles({ name: 'good.tgz', mimeType: 'application/gzip', buffer: paper.good });
      await page.getByTestId('file-info').getByText(/^good\.tgz — [\d.]+ (B|KiB)$/).waitFor();
      const good = await submitAndWaitForGrade(page);
      expect(good).toEqual({ status: expectedStatus, grade: 'Grade: 100/100' });
      const goodRows = await page.getByTestId('outcome').locator('tbody tr').allTextContents();
      expect(goodRows.length).toBeGreaterThan(0);
      expect(goodRows.every((r) => r.includes('OK') && !r.includes('NOT OK'))).toBe(true);

      // A wrong answer dropped on the drop zone: a lower grade and the failed check named.
      const bad = paper.bad[0]!;
      await dropFile(page, `${bad.name}.tgz`, bad.bytes);
      await page.getByTestId('file-info').getByText(`${bad.name}.tgz`).waitFor();
      const wrong = await submitAndWaitForGrade(page);
      expect(wrong.status).toBe(expectedStatus);
      expect(wrong.grade).not.toBe('Grade: 100/100');
      expect(wrong.grade).toMatch(/^Grade: \d+\/100$/);
      await page.getByTestId('outcome').getByRole('cell', { name: 'NOT OK' }).first().waitFor();

      // Both in the history and nothing else, newest first: [#, exercise, sent, status, grade, size].
      await page.getByRole('link', { name: 'My productions' }).click();
      await page.getByRole('heading', { name: 'My productions' }).waitFor();
      const history = page.getByTestId('productions').locator('tbody tr');
      await history.nth(1).waitFor();
      const cells = await Promise.all((await history.all()).map((row) => row.locator('td').allTextContents()));
      const wrongGrade = /^Grade: (\d+)\/100$/.exec(wrong.grade)![1];
      expect(cells.map((c) => [c[1], c[3], c[4]])).toEqual([
        [EXERCISE, 'graded', wrongGrade],
        [EXERCISE, 'graded', '100'],
      ]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});

describe('the archive size check', () => {
  it('refuses a file over the server limit before uploading it, and says so', async () => {
    const { entry } = await variantUp('naked-mon');
    const [student] = await seed(2);
    const { context, page } = await newPage(browser);
    try {
      await logIn(page, entry, student!.email, student!.password);
      const limit = ((await (await page.request.get(`${entry}/app-config.json`)).json()) as { maxArchiveBytes: number }).maxArchiveBytes;
      await page.getByRole('article', { name: 'Seeded session' }).getByRole('link', { name: EXERCISE }).click();
      let posted = false;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/exercise-production')) posted = true;
      });
      await page.getByLabel(/Archive \(\.tar\.gz/).setInputFiles({ name: 'huge.tgz', mimeType: 'application/gzip', buffer: Buffer.alloc(limit + 1) });
      await page.getByRole('alert').getByText('larger than the server accepts').waitFor();
      expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
      expect(posted).toBe(false);
    } finally {
      await context.close();
    }
  });
});
