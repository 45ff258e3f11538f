// `bench main` (npm run main, README's first command): the default variant, the short profile
// once, traced — then the paper-shaped tables, where the SPS latency lives along its traces
// (traces/: the critical path per component) and where the CPU goes per process group. The
// newcomer's first report answers the project's headline question, not only "it ran".
import { attribute } from '@shellgrade/traces';
import { loadConnections } from '@shellgrade/variant';
import { cpuSplitMarkdown, cpuSplitOfRuns, readRunRecords, type CpuSplit } from './cpu-split';
import { phase } from './log';
import { runDir } from './paths';
import { buildReport } from './report/report';
import { runTest } from './run-test';
import type { Aggregated } from './types';

export interface MainJobResult {
  aggregated: Aggregated;
  markdown: string;
  /** Why the trace breakdown is missing, when it is. */
  traceProblem: string | null;
}

/** The measured window of a test (meta.json's startedAt .. endedAt): the traces to attribute. */
export function measuredWindow(a: Aggregated): { fromMs: number; toMs: number } {
  const fromMs = Date.parse(a.meta.startedAt);
  const toMs = Date.parse(a.meta.endedAt ?? '') || Date.now();
  if (!Number.isFinite(fromMs)) throw new Error(`${a.meta.runId}: no measured window (meta.startedAt)`);
  return { fromMs, toMs };
}

/** The report's Markdown, ending with the trace breakdown (the report's own last section) and the CPU split. */
export function mainJobMarkdown(reportMarkdown: string, split: CpuSplit | null, traceProblem: string | null): string {
  return [
    reportMarkdown.trimEnd(),
    ...(traceProblem ? ['', `The trace breakdown is missing: ${traceProblem}.`] : []),
    '',
    cpuSplitMarkdown(split),
  ].join('\n');
}

export async function mainJob(o: { variant: string; profile: string }): Promise<MainJobResult> {
  // Traced: the spec's switch turned on (the launcher starts Jaeger with a traced variant).
  const aggregated = await runTest({ variant: o.variant, profile: o.profile, runs: 1, tracing: 'on' });
  const runId = aggregated.meta.runId;
  let traceProblem: string | null = null;
  try {
    phase(`traces: attributing the SPS latency of ${runId} (Jaeger)`);
    const file = await attribute({ runId, ...measuredWindow(aggregated), jaegerUrl: loadConnections().JAEGER_QUERY_URL, outDir: runDir(runId), fallbackVariant: aggregated.meta.variant });
    phase(`traces: ${file.traces.sps} SPS traces, ${file.traces.matchedClientSamples} matched to k6's samples`);
  } catch (err) {
    traceProblem = (err as Error).message;
    phase(`traces: no breakdown (${traceProblem})`);
  }
  const report = buildReport([runId], `${runDir(runId)}/report`);
  const split = cpuSplitOfRuns(readRunRecords(runDir(runId)), aggregated.meta);
  return { aggregated, markdown: mainJobMarkdown(report.markdown, split, traceProblem), traceProblem };
}
