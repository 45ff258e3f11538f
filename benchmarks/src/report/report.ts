// `bench report [run-ids...]`: Tables I–III as Markdown and as an HTML page with charts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { speedText } from '../machine-speed';
import { placementText } from '../placement/plan';
import { resultStamp, resultsDir } from '../paths';
import { cpuSeries, reportHtml, suiteSeries } from './html';
import { latestRunIds, loadResult, type LoadedResult } from './load-results';
import { tableMarkdown } from './markdown';
import { suiteTables } from './suite-tables';
import { allTables, type Table } from './tables';
import { transportTables } from './transport-table';

/** k6's HTML report of each run, as a path relative to the report (a link in the HTML). */
function linkDashboards(tables: Table[], dir: string): void {
  const runs = tables.find((t) => t.id === 'table-runs');
  if (!runs) return;
  for (const row of runs.rows) row.cells = row.cells.map((c) => (c.endsWith('.html') ? relative(dir, join(resultsDir(), c)) : c));
}

export interface ReportOutput {
  dir: string;
  markdown: string;
  htmlFile: string;
  markdownFile: string;
}

function intro(results: LoadedResult[]): string[] {
  const m = results[0].aggregated.meta;
  const profiles = [...new Set(results.map((r) => `${r.aggregated.meta.profileName} (peak ${r.aggregated.meta.profile.peak}/s, ${r.aggregated.meta.profile.rampS}s ramp + ${r.aggregated.meta.profile.holdS}s hold, ${r.aggregated.meta.profile.runs} runs)`))];
  return [
    `Scenario R of paper 000 (§IV) driven by k6 ${m.machine.k6.split(' ')[1] ?? m.machine.k6}; profile ${profiles.join(', ')}.`,
    `Machine: ${m.machine.cpuModel}, ${m.machine.cores} cores, ${(m.machine.memBytes / 2 ** 30).toFixed(0)} GiB, kernel ${m.machine.kernel} (scheduler autogroup ${m.machine.schedAutogroup ?? 'not recorded'}), node ${m.machine.node}; ${speedText(m.machine.speed)}.`,
    ...placementLines(results),
    `Runs: ${results.map((r) => r.runId).join(', ')}.`,
    ...loginCostNote(results),
  ];
}

/** Where the load generator ran: on CPUs of its own (placement), or sharing the system's, per test. */
function placementLines(results: LoadedResult[]): string[] {
  const shared = 'load generator on the same CPUs as the system (its CPU is recorded; runs where it saturated are INVALID)';
  const lines = results.map((r) => {
    const p = r.aggregated.meta.placement;
    if (!p || p.state === 'off') return `${r.runId}: ${shared}${p ? ` — placement off (${p.why})` : ''}`;
    if (p.state === 'unavailable') return `${r.runId}: placement UNAVAILABLE (${p.why}) — ${shared}`;
    return `${r.runId}: ${placementText(p)}; ${p.sutProcesses ?? '?'} processes of the system (services, native servers, pm2, their children: sandboxed graders are born inside) placed; a run is INVALID when k6 + harness exceed 70 % of the client's cpuset or a system process could run on a client CPU`;
  });
  return [`Placement (client vs system under test, cpusets): ${lines.join('; ')}.`];
}

/** Which runs logged in at a paper-faithful (cheap) cost rather than the secure default: their login figures are not comparable with the others'. */
function loginCostNote(results: LoadedResult[]): string[] {
  const cheap = results.filter((r) => (r.aggregated.meta.kdfCost ?? 14) < 14);
  if (cheap.length === 0) return [];
  return [`Paper-faithful login cost: ${cheap.map((r) => `${r.runId} hashed passwords with scrypt N = 2^${r.aggregated.meta.kdfCost}`).join('; ')} — about the original's one salted SHA-512, instead of the secure default 2^14 (~40 ms per login here). Loopback only.`];
}

export function buildReport(runIds: string[], outDir?: string): ReportOutput {
  const ids = runIds.length ? runIds : latestRunIds();
  if (ids.length === 0) throw new Error(`no finished bench runs under ${resultsDir()}`);
  const results = ids.map((id) => loadResult(id));
  const aggregated = results.map((r) => r.aggregated);
  const labels = (r: LoadedResult): string => `${r.aggregated.meta.variant}${r.aggregated.meta.tracing ? ' (tracing)' : ''}`;
  const suiteRuns = results.flatMap((r) => r.suiteRuns.map((suiteRun) => ({ label: `${labels(r)} [${r.aggregated.meta.profileName}]`, suiteRun })));
  const tables = [...allTables(aggregated), ...transportTables(results), ...suiteTables(suiteRuns)];
  const dir = outDir ?? join(resultsDir(), 'reports', resultStamp());
  linkDashboards(tables, dir);
  const title = 'shellgrade — paper 000 load test (Tables I–III)';
  const breakdowns = results.filter((r) => r.breakdown !== null || r.breakdownMd !== null).map((r) => ({ label: r.runId, markdown: r.breakdownMd, json: r.breakdown }));
  const markdown = [
    `# ${title}`,
    '',
    ...intro(results).map((p) => p + '\n'),
    ...tables.map(tableMarkdown),
    '## Where latency lives (trace breakdown)',
    '',
    ...(breakdowns.length ? breakdowns.map((b) => `### ${b.label}\n\n${b.markdown ?? '```json\n' + JSON.stringify(b.json, null, 2) + '\n```'}\n`) : ['No trace breakdown yet (results/<run-id>/breakdown.json).', '']),
  ].join('\n');
  const html = reportHtml({
    title,
    intro: intro(results),
    tables,
    buckets: results.map((r) => ({
      label: labels(r),
      lt800: r.aggregated.paper['stages.hold.buckets.lt800']?.mean ?? 0,
      b800_1200: r.aggregated.paper['stages.hold.buckets.b800_1200']?.mean ?? 0,
      ge1200: r.aggregated.paper['stages.hold.buckets.ge1200']?.mean ?? 0,
    })),
    cpu: results.map((r) => cpuSeries(labels(r), r.samples)),
    suites: suiteRuns.map((x) => suiteSeries(`${x.label} run ${x.suiteRun.run}`, x.suiteRun)),
    breakdowns,
  });
  mkdirSync(dir, { recursive: true });
  const markdownFile = join(dir, 'report.md');
  const htmlFile = join(dir, 'report.html');
  writeFileSync(markdownFile, markdown);
  writeFileSync(htmlFile, html);
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(ids, null, 2));
  return { dir, markdown, htmlFile, markdownFile };
}
