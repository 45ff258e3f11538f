// e2e-variants: naked-mon-traced
/**
 * Researchers: the console shows the running variant and renders a waterfall, with
 * its critical path, for a trace recorded from a real request. naked-mon with tracing on (a spec
 * file of its own: presets stay untraced), real Jaeger; the browser submits an answer with a
 * W3C traceparent (as k6 does), then opens that trace through the entry point's Jaeger relay.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { loadSamples } from '@shellgrade/grading';
// The launcher and seeding helpers of the system tests (test/support), as in test/variants.e2e.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { REPO, seed, variantUp } from '../../../test/support/stack';
import { horizontalOverflow, launch, logIn, newPage } from './browser';

jest.setTimeout(600_000);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** naked-mon's own file (the base preset: it extends nothing) with tracing on, beside nothing else. */
function tracedSpecFile(): string {
  const { paper: _paper, ...spec } = parse(readFileSync(join(REPO, 'infra', 'variants', 'naked-mon.yaml'), 'utf8')) as Record<string, unknown>;
  const file = join(mkdtempSync(join(tmpdir(), 'sg-web-trace-')), 'naked-mon-traced.yaml');
  writeFileSync(file, stringify({ ...spec, description: 'naked-mon traced (web trace view test)', tracing: { enabled: true, sampleRatio: 1 } }));
  return file;
}

/** Page loads of the trace before giving up (spans reach Jaeger in export batches every 500 ms, libs/telemetry). */
const TRACE_ATTEMPTS = 40;

/** Opens the trace page until Jaeger has the request's server span; fails after TRACE_ATTEMPTS loads. */
async function openTrace(page: Page, entry: string, traceId: string): Promise<void> {
  for (let attempt = 1; attempt <= TRACE_ATTEMPTS; attempt++) {
    await page.goto(`${entry}/console/trace/${traceId}`);
    const shown = page.getByTestId('waterfall').or(page.getByRole('alert'));
    await shown.first().waitFor();
    if (await page.getByTestId('waterfall').getByText('POST /api/exercise-production').count()) return;
    // Give the next export batch a chance before reloading.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`trace ${traceId}: no POST /api/exercise-production span in Jaeger after ${TRACE_ATTEMPTS} page loads`);
}

it('renders the waterfall and critical path of a recorded submission', async () => {
  const { entry } = await variantUp(tracedSpecFile());
  const [student] = await seed(2);
  const traceId = randomBytes(16).toString('hex');
  const { context, page } = await newPage(browser);
  try {
    await logIn(page, entry, student!.email, student!.password);
    await page.getByRole('article', { name: 'Seeded session' }).getByRole('link', { name: 'Scripts, permissions and archives (ShellOnYou payload)' }).click();
    await page.getByLabel(/Archive \(\.tar\.gz/).setInputFiles({ name: 'good.tgz', mimeType: 'application/gzip', buffer: loadSamples('paper-scripts').good });
    // The submission alone carries the traceparent (as k6's SPS request does).
    await page.route('**/api/exercise-production', (route) =>
      route.request().method() === 'POST'
        ? route.continue({ headers: { ...route.request().headers(), traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('outcome').getByText('Grade: 100/100').waitFor();

    // The console: the running variant, and the traces Jaeger has for the monolith.
    await page.getByRole('link', { name: 'Console' }).click();
    await page.getByTestId('variant-status').getByText('ok', { exact: true }).first().waitFor();
    await openTrace(page, entry, traceId);

    const rows = page.getByTestId('waterfall').locator('li');
    expect(await rows.count()).toBeGreaterThan(3);
    expect(await page.getByTestId('waterfall').locator('li[data-critical="yes"]').count()).toBeGreaterThan(1);
    // The request's server span is on the critical path and the monolith's time is attributed. The
    // rows on the path are compared whole, so a failure shows which root the path was walked from.
    const onPath = await page.getByTestId('waterfall').locator('li[data-critical="yes"]').allInnerTexts();
    expect(onPath).toContainEqual(expect.stringContaining('POST /api/exercise-production'));
    expect(onPath.filter((row) => row.includes('POST /api/exercise-production'))).toHaveLength(1);
    await page.getByTestId('attribution').getByRole('row', { name: /shellgrade-monolith/ }).waitFor();
    // The grader's run is on the path (the SPS request waits for it on a sync variant).
    await page.getByTestId('attribution').getByRole('row', { name: /grading\.process/ }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The search lists traces, the slowest marked.
    await page.getByRole('link', { name: 'Console' }).click();
    await page.getByLabel('Service').selectOption('shellgrade-monolith');
    await page.getByRole('button', { name: 'Find traces' }).click();
    await page.getByTestId('traces').getByText('slowest').waitFor();
  } finally {
    await context.close();
  }
});
