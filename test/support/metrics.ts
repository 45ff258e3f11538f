/**
 * Prometheus /metrics of one process as the e2e tests read it: straight from the process, as
 * Prometheus would, with the installation's scrape token (run/secrets.json, written by the
 * launcher; benchmarks' scrapeHeaders reads it the same way) — loopback alone would do too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './stack';

function scrapeHeaders(): Record<string, string> {
  try {
    const { scrapeToken } = JSON.parse(readFileSync(join(REPO, 'run', 'secrets.json'), 'utf8')) as { scrapeToken?: unknown };
    return typeof scrapeToken === 'string' && scrapeToken ? { Authorization: `Bearer ${scrapeToken}` } : {};
  } catch {
    return {};
  }
}

/** The whole /metrics text of one process. */
export async function metricsText(baseUrl: string): Promise<string> {
  return (await fetch(`${baseUrl}/metrics`, { headers: scrapeHeaders() })).text();
}

/** The value of one series (name with its labels, e.g. `x_total{result="hit"}`); null when the process does not expose it. */
export async function metricValue(baseUrl: string, series: string): Promise<number | null> {
  const text = await metricsText(baseUrl);
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}
