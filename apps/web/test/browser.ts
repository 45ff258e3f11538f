/**
 * Headless Chromium for the web app's end-to-end tests: Debian's `chromium` (installed by
 * `servers install`, part of scripts/setup.sh) driven by playwright-core — no browser download.
 * Waits are on events (selectors, responses), never on durations.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SG_CHROMIUM ?? '/usr/bin/chromium';

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A fresh browser profile (its own cookie jar) at a phone's width, so every test also covers 375 px. */
export async function newPage(browser: Browser, width = 375): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  return { context, page };
}

/** Logs in through the login form and waits for the first page of a logged-in user. */
export async function logIn(page: Page, entry: string, email: string, password: string): Promise<void> {
  await page.goto(entry);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** The page's text of its alert (the API's problem+json detail), once one shows. */
export async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

/** The page never scrolls sideways at its viewport's width (375 px: a phone). */
export function horizontalOverflow(page: Page): Promise<number> {
  // A string: this runs in the page (the tests' TypeScript has no DOM types).
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}
