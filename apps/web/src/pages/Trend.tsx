/**
 * One preset's runs over time (admins): the last N tests (default 10) as `bench trend` reads
 * them — per run its date, profile, the host's speed probe, throughput, SPS p50/p95/p99, KO
 * share, CPU per iteration and validity, a link to its folder — and a line chart of SPS p95 and
 * throughput over the runs (Chart.js, the repository's charting library). Runs on hosts whose
 * speed probe differs from the reference host's (the median probe) by more than the tolerance are flagged.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { PresetSummary, RunSummary } from '@shellgrade/console-contract';
import { request } from '../api';
import { formatFigure, pointLabel, runHref, speedText, TREND_FIGURES, trendQuery, validityText, type Trend } from '../lib/trend';
import { ErrorMessage, formatDate, Loading, Page, ReportLink, Table, useLoad } from '../ui';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

export function TrendPage() {
  const [params, setParams] = useSearchParams();
  const preset = params.get('preset') ?? '';
  const last = Number(params.get('last') ?? '10');
  const profile = params.get('profile') ?? '';
  const presets = useLoad(() => request<{ presets: PresetSummary[] }>('/ops/presets').then((r) => r.presets.filter((p) => !p.error).map((p) => p.name)), []);
  const runs = useLoad(() => request<{ runs: RunSummary[] }>('/ops/runs').then((r) => r.runs), []);
  const trend = useLoad(() => (preset ? request<Trend>(`/ops/trend?${trendQuery(preset, last, profile)}`) : Promise.resolve(undefined)), [preset, last, profile]);
  const [form, setForm] = useState({ preset, last: String(last), profile });
  useEffect(() => setForm({ preset, last: String(last), profile }), [preset, last, profile]);
  const profiles = [...new Set((runs.data ?? []).filter((r) => r.variant === form.preset && r.profile).map((r) => r.profile!))].sort();

  function show(e: FormEvent) {
    e.preventDefault();
    setParams(new URLSearchParams(trendQuery(form.preset, Number(form.last) || 10, form.profile)));
  }

  return (
    <Page title="Trend">
      <ErrorMessage error={presets.error ?? runs.error} />
      {presets.data && (
        <form className="card row" onSubmit={show}>
          <label htmlFor="tr-preset">Preset</label>
          <select id="tr-preset" value={form.preset} onChange={(e) => setForm({ ...form, preset: e.target.value, profile: '' })}>
            <option value="">choose…</option>
            {presets.data.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <label htmlFor="tr-profile">Profile</label>
          <select id="tr-profile" value={form.profile} onChange={(e) => setForm({ ...form, profile: e.target.value })}>
            <option value="">every profile</option>
            {[...new Set([...profiles, ...(form.profile ? [form.profile] : [])])].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <label htmlFor="tr-last">Last runs</label>
          <input id="tr-last" type="number" min={1} max={50} value={form.last} onChange={(e) => setForm({ ...form, last: e.target.value })} />
          <button type="submit" disabled={!form.preset}>
            Show the trend
          </button>
        </form>
      )}
      <ErrorMessage error={trend.error} />
      {preset && trend.loading && <Loading what="the trend (bench trend)" />}
      {trend.data && <TrendView t={trend.data} />}
    </Page>
  );
}

function TrendView({ t }: { t: Trend }) {
  const flagged = t.points.filter((p) => p.hostWarning);
  if (t.points.length === 0) return <p data-testid="trend-empty">No recorded test of {t.preset}{t.profile ? ` under ${t.profile}` : ''} in the results folder.</p>;
  return (
    <>
      <p>
        The last {t.points.length} of {t.preset}&apos;s tests{t.profile ? ` under ${t.profile}` : ''}, oldest first; each figure is the mean over the test&apos;s VALID runs (over all its runs when none is VALID). The same table from a shell: <code className="command">{t.command}</code>
      </p>
      <TrendChart t={t} />
      <Table testId="trend" columns={['Run', 'Started', 'Profile', 'Speed probe', ...TREND_FIGURES.map((k) => t.metrics[k].label), 'Validity']}>
        {t.points.map((p) => (
          <tr key={p.runId} className={p.valid ? undefined : 'invalid'}>
            <th scope="row">
              <ReportLink href={runHref(p.runId)}>{p.runId}</ReportLink>
            </th>
            <td>{formatDate(p.startedAt)}</td>
            <td>{p.profile}</td>
            <td title={p.hostWarning ?? undefined}>
              {speedText(p)}
              {p.hostWarning && <span className="tag">other host speed</span>}
              {t.reference?.runId === p.runId && <span className="tag">reference host</span>}
            </td>
            {TREND_FIGURES.map((k) => (
              <td key={k}>{formatFigure(p, k, t.metrics[k])}</td>
            ))}
            <td title={p.invalidReasons.join('\n') || undefined}>{validityText(p)}</td>
          </tr>
        ))}
      </Table>
      {flagged.length > 0 && (
        <div role="alert" className="error" data-testid="trend-host-warnings">
          <p>
            {flagged.length} run{flagged.length > 1 ? 's' : ''} ran on a host whose speed probe differs from {t.reference?.runId}&apos;s by more than {t.speedTolerance}× — its milliseconds mix the host with the system:
          </p>
          <ul>
            {flagged.map((p) => (
              <li key={p.runId}>
                {p.runId}: {p.hostWarning}
              </li>
            ))}
          </ul>
        </div>
      )}
      {t.leftOut.length > 0 && (
        <p data-testid="trend-left-out">
          Left out: {t.leftOut.length} other result folder{t.leftOut.length > 1 ? 's' : ''} of {t.preset} that {t.leftOut.length > 1 ? 'are' : 'is'} not a plain test of a profile (fault, findings or calibration runs).
        </p>
      )}
    </>
  );
}

/** SPS p95 (ms, left axis) and throughput (OK/s, right axis) over the runs. */
function TrendChart({ t }: { t: Trend }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: t.points.map(pointLabel),
        datasets: [
          { label: `${t.metrics.spsP95.label} (ms)`, data: t.points.map((p) => p.spsP95), yAxisID: 'ms', borderColor: '#b91c1c', backgroundColor: '#b91c1c' },
          { label: `${t.metrics.throughput.label}`, data: t.points.map((p) => p.throughput), yAxisID: 'rate', borderColor: '#1d4ed8', backgroundColor: '#1d4ed8' },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          ms: { type: 'linear', position: 'left', beginAtZero: true, title: { display: true, text: 'ms' } },
          rate: { type: 'linear', position: 'right', beginAtZero: true, title: { display: true, text: 'OK/s' }, grid: { drawOnChartArea: false } },
        },
      },
    });
    return () => chart.destroy();
  }, [t]);
  return (
    <div className="chart" data-testid="trend-chart" data-points={t.points.length}>
      <canvas ref={canvas} role="img" aria-label={`${t.metrics.spsP95.label} and ${t.metrics.throughput.label} over ${t.points.length} runs of ${t.preset}`} />
    </div>
  );
}
