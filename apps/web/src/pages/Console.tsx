/**
 * Researchers' console: the running variant (the entry point's /health, with identity and
 * checks for internal callers) and recent traces from Jaeger through the entry point's
 * read-only relay (/ops/jaeger, internal callers only), with the slowest and median marked;
 * the presets and the benchmark runs of the results folder (/ops/presets, /ops/runs, gated the
 * same way), each run's report and k6 dashboards opened through /ops/runs/<id>/<file>.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { request } from '../api';
import { isAdmin, useAuth } from '../auth';
import type { PresetSummary as Preset, RunSummary as Run } from '@shellgrade/console-contract';
import type { JaegerTrace } from '../lib/trace';
import { ErrorMessage, Loading, Page, ReportLink, Table, useLoad } from '../ui';

interface TraceRow {
  id: string;
  root: string;
  service: string;
  spans: number;
  durationUs: number;
  start: number;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A run's files as link labels: the report first, then dashboards, then the rest. */
function runLinks(run: Run): { href: string; label: string }[] {
  const rank = (f: string) => (f.startsWith('report/') ? 0 : f.startsWith('k6-dashboard') ? 1 : f.endsWith('.json') ? 3 : 2);
  return [...run.files]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((f) => ({ href: `/ops/runs/${encodeURIComponent(run.id)}/${f.split('/').map(encodeURIComponent).join('/')}`, label: f.replace(/^k6-dashboard-/, 'dashboard ') }));
}

function rowsOf(traces: JaegerTrace[]): TraceRow[] {
  return traces.map((t) => {
    const first = [...t.spans].sort((a, b) => a.startTime - b.startTime)[0];
    const start = Math.min(...t.spans.map((s) => s.startTime));
    const end = Math.max(...t.spans.map((s) => s.startTime + s.duration));
    return { id: t.traceID, root: first?.operationName ?? '?', service: first ? (t.processes[first.processID]?.serviceName ?? '?') : '?', spans: t.spans.length, durationUs: end - start, start };
  });
}

export function Console() {
  const health = useLoad(() => request<Record<string, unknown>>('/health'), []);
  const services = useLoad(() => request<{ data: string[] | null }>('/ops/jaeger/api/services').then((r) => (r.data ?? []).filter((s) => s.startsWith('shellgrade'))), []);
  const presets = useLoad(() => request<{ presets: Preset[] }>('/ops/presets').then((r) => r.presets), []);
  const runs = useLoad(() => request<{ runs: Run[] }>('/ops/runs').then((r) => r.runs), []);
  const [service, setService] = useState('');
  const [lookback, setLookback] = useState('1h');
  const [traceId, setTraceId] = useState('');
  const [rows, setRows] = useState<TraceRow[]>();
  const [error, setError] = useState<unknown>();
  const admin = isAdmin(useAuth().user);
  const [chosen, setChosen] = useState<string[]>([]);
  const navigate = useNavigate();
  const toggle = (id: string) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));

  async function search(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const chosen = service || services.data?.[0];
      if (!chosen) throw new Error('Jaeger knows no shellgrade service yet: run a variant with tracing on');
      const r = await request<{ data: JaegerTrace[] | null }>(`/ops/jaeger/api/traces?service=${encodeURIComponent(chosen)}&limit=50&lookback=${lookback}`);
      setRows(rowsOf(r.data ?? []).sort((a, b) => b.durationUs - a.durationUs));
    } catch (err) {
      setError(err);
    }
  }

  const median = rows && rows.length ? rows[Math.floor(rows.length / 2)]!.id : undefined;
  const checks = Array.isArray(health.data?.checks) ? (health.data.checks as { name: string; ok: boolean; error?: string }[]) : [];
  return (
    <Page title="Console">
      <h2>Running variant</h2>
      <ErrorMessage error={health.error} />
      {health.loading && <Loading what="the status" />}
      {health.data && (
        <dl className="facts" data-testid="variant-status">
          <dt>Status</dt>
          <dd>{String(health.data.status)}</dd>
          {'variant' in health.data && (
            <>
              <dt>Variant</dt>
              <dd>{String(health.data.variant)}</dd>
            </>
          )}
          {'role' in health.data && (
            <>
              <dt>Entry</dt>
              <dd>
                {String(health.data.role)} #{String(health.data.replica)}
              </dd>
            </>
          )}
          {checks.map((c) => (
            <div key={c.name} className="pair">
              <dt>{c.name}</dt>
              <dd>{c.ok ? 'ok' : `failing: ${c.error ?? ''}`}</dd>
            </div>
          ))}
        </dl>
      )}

      <h2>Presets</h2>
      <ErrorMessage error={presets.error} />
      {presets.loading && <Loading what="the presets" />}
      {presets.data && (
        <Table testId="presets" columns={['Preset', 'Topology', 'Dispatch', 'Transport', 'Gateway', 'Description']}>
          {presets.data.map((p) => (
            <tr key={p.name}>
              <th scope="row">{p.name}</th>
              {p.error ? (
                <td colSpan={5} className="error">
                  does not load: {p.error}
                </td>
              ) : (
                <>
                  <td>{p.topology}</td>
                  <td>{p.dispatch}</td>
                  <td>{p.transport}</td>
                  <td>{p.gateway}</td>
                  <td>{p.description}</td>
                </>
              )}
            </tr>
          ))}
        </Table>
      )}

      <h2>Benchmark runs</h2>
      <ErrorMessage error={runs.error} />
      {runs.loading && <Loading what="the benchmark runs" />}
      {runs.data && runs.data.length === 0 && <p>No benchmark run in the results folder yet (npm run bench).</p>}
      {admin && runs.data && runs.data.length > 1 && (
        <p className="row">
          <button type="button" disabled={chosen.length < 2 || chosen.length > 5} onClick={() => void navigate(`/console/compare?runs=${chosen.map(encodeURIComponent).join(',')}`)}>
            Compare selected ({chosen.length})
          </button>
          <span>2 to 5 runs, the first chosen is the baseline.</span>
        </p>
      )}
      {runs.data && runs.data.length > 0 && (
        <Table testId="runs" columns={['Run', 'Variant', 'Profile', 'Started', 'Ended', 'Valid / asked', 'Files', admin && 'Compare']}>
          {runs.data.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.id}</th>
              <td>{r.variant ?? '—'}</td>
              <td>{r.profile ?? '—'}</td>
              <td>{when(r.startedAt)}</td>
              <td>{when(r.endedAt)}</td>
              <td>
                {r.validRuns === null ? '—' : `${r.validRuns} / ${r.runsAsked ?? '?'}`}
                {r.valid === false && <span className="tag">invalid</span>}
              </td>
              <td>
                <ul className="links">
                  {runLinks(r).map((l) => (
                    <li key={l.href}>
                      <ReportLink href={l.href}>{l.label}</ReportLink>
                    </li>
                  ))}
                </ul>
              </td>
              {admin && (
                <td>
                  <input type="checkbox" aria-label={`Compare ${r.id}`} checked={chosen.includes(r.id)} onChange={() => toggle(r.id)} />
                  {chosen.includes(r.id) && <span className="tag">{chosen.indexOf(r.id) === 0 ? 'baseline' : `#${chosen.indexOf(r.id) + 1}`}</span>}
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}

      <h2>Traces</h2>
      <ErrorMessage error={services.error} />
      <form onSubmit={(e) => void search(e)} className="card row">
        <label htmlFor="t-service">Service</label>
        <select id="t-service" value={service} onChange={(e) => setService(e.target.value)}>
          {(services.data ?? []).map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <label htmlFor="t-lookback">Within the last</label>
        <select id="t-lookback" value={lookback} onChange={(e) => setLookback(e.target.value)}>
          <option value="15m">15 minutes</option>
          <option value="1h">hour</option>
          <option value="6h">6 hours</option>
          <option value="24h">day</option>
        </select>
        <button type="submit">Find traces</button>
      </form>
      <form className="card row" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="t-id">Trace id</label>
        <input id="t-id" value={traceId} onChange={(e) => setTraceId(e.target.value.trim())} pattern="[0-9a-fA-F]{1,32}" />
        <Link to={`/console/trace/${traceId}`} className="button" aria-disabled={!traceId}>
          Open
        </Link>
      </form>
      <ErrorMessage error={error} />
      {rows && rows.length === 0 && <p>No trace in that window.</p>}
      {rows && rows.length > 0 && (
        <Table testId="traces" columns={['Trace', 'Root', 'Spans', 'Duration', 'Started']}>
          {rows.map((r, i) => (
            <tr key={r.id}>
              <td>
                <Link to={`/console/trace/${r.id}`}>{r.id.slice(0, 12)}</Link>
                {i === 0 && <span className="tag">slowest</span>}
                {r.id === median && <span className="tag">median</span>}
              </td>
              <td>
                {r.service}: {r.root}
              </td>
              <td>{r.spans}</td>
              <td>{(r.durationUs / 1000).toFixed(1)} ms</td>
              <td>{new Date(r.start / 1000).toLocaleTimeString()}</td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
