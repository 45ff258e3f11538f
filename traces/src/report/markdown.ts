/** breakdown.md: one table per variant (median/p95/median-band per component) and a summary line. */
import type { VariantBreakdown } from '../attribution/aggregate';
import { COMPONENTS } from '../attribution/components';
import type { LatencyShares } from '../attribution/shares';
import type { BreakdownFile } from './breakdown-file';

const ms = (v: number) => v.toFixed(1);
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** The components that hold most of the median-band latency, largest first. */
export function dominantComponents(v: VariantBreakdown, count = 3): string[] {
  const total = COMPONENTS.reduce((s, c) => s + v.medianBand[c], 0);
  return COMPONENTS.filter((c) => v.medianBand[c] > 0)
    .sort((a, b) => v.medianBand[b] - v.medianBand[a])
    .slice(0, count)
    .map((c) => `${c} ${total > 0 ? pct(v.medianBand[c] / total) : '0%'}`);
}

function shareList(s: LatencyShares): string {
  return s.shares
    .slice(0, 4)
    .map(([c, x]) => `${c} ${pct(x)}`)
    .join(', ');
}

function variantSection(v: VariantBreakdown): string {
  const rows = COMPONENTS.filter((c) => v.components[c].p95 > 0 || v.medianBand[c] > 0).map(
    (c) => `| ${c} | ${ms(v.medianBand[c])} | ${ms(v.components[c].median)} | ${ms(v.components[c].p95)} | ${ms(v.tailBand[c])} |`,
  );
  return [
    `## ${v.variant}`,
    '',
    `${v.requests} SPS requests (${v.matchedClientSamples} matched to a k6 sample); latency median ${ms(v.totalMs.median)} ms, p95 ${ms(v.totalMs.p95)} ms.`,
    `Coverage by named spans: ${pct(v.coverageMedian ?? 0)} of median latency, ${pct(v.coverage ?? 0)} overall (the rest: client-side queueing inferred from k6 minus the root span, and unexplained self time).`,
    `Where latency lives (median band): ${dominantComponents(v).join(', ')}.`,
    ...(v.databaseRoundTrips
      ? [`PostgreSQL round trips per submission (every statement of its trace): median ${v.databaseRoundTrips.median}, mean ${v.databaseRoundTrips.mean.toFixed(1)}, p95 ${v.databaseRoundTrips.p95}.`]
      : []),
    ...(v.shares ? [`Shares of the run's p50 (${ms(v.shares.p50.latencyMs)} ms) and p99 (${ms(v.shares.p99.latencyMs)} ms): ${shareList(v.shares.p50)} · ${shareList(v.shares.p99)}.`] : []),
    '',
    '| component | median band (ms) | median (ms) | p95 (ms) | p90–p99 band (ms) |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

export function renderMarkdown(f: BreakdownFile): string {
  return [
    `# SPS latency breakdown${f.runId ? ` — run ${f.runId}` : ''}`,
    '',
    `Window ${f.window.from} → ${f.window.to}; Jaeger ${f.jaeger}; services ${f.services.join(', ')}.`,
    `${f.traces.sps} SPS traces of ${f.traces.found} fetched; ${f.traces.matchedClientSamples} of ${f.traces.clientSamples} k6 samples matched.`,
    f.collector
      ? `Jaeger collector since start: ${f.collector.acceptedSpans} spans accepted, ${f.collector.refusedSpans + f.collector.failedSpans} refused/failed, ${f.collector.storeFailedSpans} failed to store.`
      : 'Jaeger collector metrics unavailable.',
    '',
    'Critical-path attribution: each span contributes its self time not overlapped by the child chain that finishes last;',
    '`client/queueing` is the k6 duration minus the root server span (accept queueing, event-loop stall, transfer): inferred, not covered by a span.',
    '`<service>.queueing` is a caller\'s client span waiting for that downstream service to start (or finish answering): queueing before the service, not the caller\'s work.',
    'The median band is the mean breakdown of requests between the 40th and 60th percentile of latency, so its stack adds up to the median.',
    '',
    ...f.variants.map(variantSection),
  ].join('\n');
}
