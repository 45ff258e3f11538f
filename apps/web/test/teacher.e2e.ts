// e2e-variants: naked-mon
/**
 * Teachers in a real browser: a teacher creates an exercise (statement, question
 * archive, grading script loaded from a file, published; then edited), a session over it, enrols a student
 * from a CSV class list (enrolment + the student's statement); the student sees the exercise in
 * that session and is graded by the teacher's script; the teacher's results table shows the
 * grade and its CSV export carries it. naked-mon, real grader, headless Chromium at 375 px.
 *
 * The grader trial (POST /api/exercise-trial) is not covered here: test/exercise-trial.e2e.ts.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { loadCatalog, loadSamples } from '@shellgrade/grading';
// The launcher and seeding helpers of the system tests (test/support), as in test/variants.e2e.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';

jest.setTimeout(300_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

it('creates an exercise and a session, enrols a student by CSV, and the student sees it and is graded', async () => {
  const { entry } = await variantUp('naked-mon');
  const [, , student] = await seed(3);
  const paper = loadCatalog().find((e) => e.slug === 'paper-scripts')!;
  const tag = randomBytes(4).toString('hex');
  const name = `Browser-made exercise ${tag}`;
  const sessionName = `Browser session ${tag}`;

  const teacher = await newPage(browser);
  const page = teacher.page;
  try {
    await logIn(page, entry, 'teacher1@shellgrade.test', 'teacher-password');
    await page.getByRole('link', { name: 'Exercises', exact: true }).click();
    await page.getByRole('link', { name: 'New exercise' }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel(/^Slug/).fill(`browser-${tag}`);
    await page.getByLabel('Statement (HTML)').fill(`<h1>${name}</h1>${paper.statementHtml}`);
    await page.getByLabel(/^Question archive/).setInputFiles({ name: 'question.tar.gz', mimeType: 'application/gzip', buffer: paper.questionArchive });
    await page.getByLabel('Grading script: load a .py file').setInputFiles({ name: 'grader.py', mimeType: 'text/x-python', buffer: Buffer.from(paper.graderScript) });
    // The file's text lands in the editable script field.
    await page.waitForFunction(`document.getElementById('ex-grader').value.includes('Grading.from_argv')`);
    await page.getByLabel('State', { exact: true }).selectOption('published');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('status').getByText(/^Saved exercise #\d+ \(published\)\.$/).waitFor();
    // Edited once saved: the form reloads the exercise, grading script included (staff see it).
    await page.getByLabel('Statement (HTML)').fill(`<h1>${name}</h1><p>Edited ${tag}</p>${paper.statementHtml}`);
    expect(await page.getByLabel('Grading script (Python, prints one JSON line)').inputValue()).toBe(paper.graderScript);
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/exercise\/\d+$/.test(r.url()));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await patched).status()).toBe(200);

    // Its grader tried on sample answers before students get it: a wrong one, then a correct one.
    const samples = loadSamples('paper-scripts');
    const trial = page.getByRole('form', { name: 'Try the grader' });
    await trial.getByLabel('Sample answer (.tar.gz)').setInputFiles({ name: 'wrong.tgz', mimeType: 'application/gzip', buffer: samples.bad[0]!.bytes });
    await trial.getByRole('button', { name: 'Run the grader' }).click();
    await trial.getByRole('region', { name: 'Trial result' }).getByRole('cell', { name: 'NOT OK' }).first().waitFor();
    await trial.getByLabel('Sample answer (.tar.gz)').setInputFiles({ name: 'right.tgz', mimeType: 'application/gzip', buffer: samples.good });
    await trial.getByRole('button', { name: 'Run the grader' }).click();
    await trial.getByTestId('grade').getByText('100', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'Sessions', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(sessionName);
    await page.getByRole('checkbox', { name: name }).check();
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.getByRole('status').getByRole('link', { name: sessionName }).click();
    await page.getByRole('heading', { name: `Session: ${sessionName}` }).waitFor();
    await page.getByLabel('Class list file (email[,firstname,lastname] a line)').setInputFiles({
      name: 'class.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`email,firstname,lastname\n${student!.email},Stu,Dent\n`),
    });
    await page.waitForFunction(`document.getElementById('roster').value.includes(${JSON.stringify(student!.email)})`);
    await page.getByRole('button', { name: "Enrol and assign the session's exercises" }).click();
    await page.getByRole('status').getByText('Enrolled 1 student.').waitFor();
    await page.getByTestId('results').getByRole('row', { name: student!.email }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  } finally {
    await teacher.context.close();
  }

  // The student sees the new exercise in the new session, and the teacher's grader grades it.
  const { context, page: sp } = await newPage(browser);
  try {
    await logIn(sp, entry, student!.email, student!.password);
    await sp.getByRole('article', { name: sessionName }).getByRole('link', { name }).click();
    await sp.getByRole('heading', { name, exact: true }).waitFor();
    // The statement as edited, in its sandboxed frame.
    await sp.frameLocator('iframe[title="Statement"]').getByText(`Edited ${tag}`).waitFor();
    await sp.getByLabel(/Archive \(\.tar\.gz/).setInputFiles({ name: 'answer.tgz', mimeType: 'application/gzip', buffer: loadSamples('paper-scripts').good });
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.getByTestId('outcome').getByText('Grade: 100/100').waitFor();
  } finally {
    await context.close();
  }

  // Back to the teacher: the result in the table and in the CSV export.
  const again = await newPage(browser, 1280);
  try {
    await logIn(again.page, entry, 'teacher1@shellgrade.test', 'teacher-password');
    await again.page.getByRole('link', { name: sessionName }).click();
    // The server's session report (S2): the student's best grade and progress, the exercise's pass rate.
    const row = again.page.getByTestId('results').getByRole('row', { name: student!.email });
    await row.getByRole('cell', { name: '100', exact: true }).waitFor();
    await row.getByRole('cell', { name: '100%' }).waitFor();
    await again.page.getByTestId('exercise-results').getByRole('row', { name }).getByRole('cell', { name: '100%' }).waitFor();
    const download = again.page.waitForEvent('download');
    await again.page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8').split('\n');
    expect(csv[0]).toMatch(/^user_id,email,lastname,firstname,attempts,exercises_passed,progress,ex_\d+$/);
    expect(csv[1]).toBe(`${student!.userId},${student!.email},3,Student,1,1,1.000,100`);
  } finally {
    await again.context.close();
  }
});
