/**
 * The steps the console's launch tests share: picking a plan on the Launch page, launching it,
 * waiting for its end, reading the run folder's manifest, signing in to the standalone console,
 * and removing what the launches left (result folders and the console's launch records).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO } from '../../../test/support/stack';

export interface LaunchChoice {
  plan?: 'run' | 'suite' | 'matrix' | 'findings' | 'faults';
  preset?: string;
  profile?: string;
}

export interface RunManifest {
  runId: string;
  variant: { name: string };
  profile: { name: string };
  command?: string;
}

/** The run ids a test file launched: their result folders and launch records go at its end. */
export class LaunchedRuns {
  private readonly ids: string[] = [];

  add(id: string): string {
    this.ids.push(id);
    return id;
  }

  removeAll(): void {
    for (const id of this.ids.splice(0)) {
      rmSync(join(REPO, 'results', id), { recursive: true, force: true });
      for (const f of [`${id}.json`, `${id}.log`]) rmSync(join(REPO, 'run', 'console', 'launches', f), { force: true });
    }
  }
}

/** Opens the Launch page and picks the plan, preset and profile; the command the page shows. */
export async function chooseLaunch(page: Page, choice: LaunchChoice): Promise<string> {
  await page.getByRole('link', { name: 'Launch', exact: true }).click();
  if (choice.plan) await page.getByLabel('Plan').selectOption(choice.plan);
  if (choice.preset) await page.getByLabel('Preset').selectOption(choice.preset);
  if (choice.profile) await page.getByLabel('Profile').selectOption(choice.profile);
  return (await page.getByTestId('launch-command').textContent()) ?? '';
}

/** Presses Launch and waits for the live page; its run id, remembered for removal. */
export async function pressLaunch(page: Page, launched: LaunchedRuns): Promise<string> {
  await page.getByRole('button', { name: 'Launch' }).click();
  await page.waitForURL(/\/console\/launches\//);
  return launched.add(decodeURIComponent(page.url().split('/').pop()!));
}

/** Waits until the live page says the launch has ended; the state it ended in. */
export async function launchEnded(page: Page): Promise<string> {
  const state = page.getByTestId('launch-state');
  await state.filter({ hasText: /^(finished|failed)$/ }).waitFor({ timeout: 540_000 });
  return (await state.textContent()) ?? '';
}

/** The manifest the harness wrote into the run's folder. */
export function manifestOf(id: string): RunManifest {
  return JSON.parse(readFileSync(join(REPO, 'results', id, 'manifest.json'), 'utf8')) as RunManifest;
}

/** The standalone console's token (written by the console at its start, 0600). */
export function consoleToken(): string {
  return readFileSync(join(REPO, 'run', 'console', 'token'), 'utf8').trim();
}

/** Signs in to the standalone console at `url` as `console` with the token given. */
export async function signInToConsole(page: Page, url: string, token = consoleToken()): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Name').fill('console');
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
}
