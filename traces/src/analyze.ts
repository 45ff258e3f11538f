/**
 * `traces attribute`: fetch a window's traces from Jaeger, break every SPS request
 * down along its critical path (with its k6 duration when a sample matches), aggregate
 * per variant and write breakdown.json / .md / .html.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aggregateByVariant } from './attribution/aggregate';
import { breakdownRequest, type RequestBreakdown, type RootFinder } from './attribution/request';
import { JaegerClient } from './jaeger/client';
import { readCollectorCounts } from './jaeger/collector-metrics';
import type { Trace } from '@shellgrade/trace-model';
import { buildBreakdownFile, type BreakdownFile } from './report/breakdown-file';
import { renderChartHtml } from './report/chart';
import { renderMarkdown } from './report/markdown';
import { normalizeTraceId, readClientSamples, type ClientSample } from './samples/client-samples';

/** infra/servers/jaeger.sh: SG_JAEGER_METRICS_PORT (58888). */
export const DEFAULT_COLLECTOR_METRICS = `http://127.0.0.1:${process.env.SG_JAEGER_METRICS_PORT ?? 58888}/metrics`;

export const ROOT_SERVICES = ['shellgrade-gateway', 'shellgrade-monolith'];

export interface AttributeOptions {
  runId: string | null;
  fromMs: number;
  toMs: number;
  jaegerUrl: string;
  /** Jaeger collector Prometheus endpoint (dropped-span counters). */
  collectorMetricsUrl?: string;
  services?: string[];
  /** Where client samples are read from and outputs written. */
  outDir: string;
  fallbackVariant?: string;
}

/** The SPS requests of the traces (or those `findRoot` picks), broken down, in start order. */
export function breakdownTraces(traces: Trace[], samples: Map<string, ClientSample>, fallbackVariant?: string, findRoot?: RootFinder): RequestBreakdown[] {
  const out: RequestBreakdown[] = [];
  for (const t of traces) {
    const sample = samples.get(normalizeTraceId(t.traceId));
    const r = breakdownRequest(t, sample ? sample.durationMs : null, fallbackVariant, findRoot);
    if (r) out.push(r);
  }
  return out.sort((a, b) => a.startUs - b.startUs);
}

export async function attribute(o: AttributeOptions): Promise<BreakdownFile> {
  const jaeger = new JaegerClient(o.jaegerUrl);
  const known = await jaeger.services();
  const services = (o.services ?? ROOT_SERVICES).filter((s) => known.includes(s));
  if (services.length === 0) {
    throw new Error(`Jaeger at ${o.jaegerUrl} has none of ${(o.services ?? ROOT_SERVICES).join(', ')} (it knows: ${known.join(', ') || 'nothing'})`);
  }
  const traces = new Map<string, Trace>();
  for (const service of services) {
    for (const t of await jaeger.search({ service, fromMs: o.fromMs, toMs: o.toMs })) {
      const prev = traces.get(t.traceId);
      if (!prev || prev.spans.length < t.spans.length) traces.set(t.traceId, t);
    }
  }
  const samples = await readClientSamples(o.outDir);
  const requests = breakdownTraces([...traces.values()], samples, o.fallbackVariant);
  if (requests.length === 0) throw new Error(`no SPS traces (POST /api/exercise-production) in the window among ${traces.size} traces`);
  const file = buildBreakdownFile({
    runId: o.runId,
    window: { from: new Date(o.fromMs).toISOString(), to: new Date(o.toMs).toISOString() },
    jaeger: o.jaegerUrl,
    services,
    traces: {
      found: traces.size,
      sps: requests.length,
      matchedClientSamples: requests.filter((r) => r.clientMs !== null).length,
      clientSamples: samples.size,
    },
    collector: await readCollectorCounts(o.collectorMetricsUrl ?? DEFAULT_COLLECTOR_METRICS),
    variants: aggregateByVariant(requests),
    requests,
  });
  writeOutputs(o.outDir, file);
  return file;
}

export function writeOutputs(dir: string, file: BreakdownFile): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'breakdown.json'), `${JSON.stringify(file, null, 2)}\n`);
  writeFileSync(join(dir, 'breakdown.md'), renderMarkdown(file));
  writeFileSync(join(dir, 'breakdown.html'), renderChartHtml(`SPS latency breakdown${file.runId ? ` — ${file.runId}` : ''}`, file.variants));
}
