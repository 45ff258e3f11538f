/**
 * The console's actions are an admin's: each of these tests also logs in as a student and as a
 * teacher (a fresh browser profile each) and checks they see none of it.
 */
import type { Browser, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { seed } from '../../../test/support/stack';
import { logIn, newPage } from './browser';

export const ADMIN = { email: 'admin@shellgrade.test', password: 'admin-password' };

/** Runs `check` in a logged-in page of a seeded student, then of a teacher. */
export async function asStudentAndTeacher(browser: Browser, entry: string, check: (page: Page) => Promise<void>): Promise<void> {
  const [student] = await seed(1);
  for (const { email, password } of [student!, { email: 'teacher1@shellgrade.test', password: 'teacher-password' }]) {
    const { context, page } = await newPage(browser);
    try {
      await logIn(page, entry, email, password);
      await check(page);
    } finally {
      await context.close();
    }
  }
}

/** In the page (its cookies): an HTTP call's status and content type. */
export const call = (page: Page, method: string, url: string, body?: unknown) =>
  page.evaluate<{ status: number; type: string | null }, { method: string; url: string; body?: unknown }>(
    ({ method, url, body }) =>
      fetch(url, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => ({ status: r.status, type: r.headers.get('content-type') })),
    { method, url, body },
  );
