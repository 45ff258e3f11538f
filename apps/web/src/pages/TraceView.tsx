/** One trace as a waterfall, the critical path highlighted, critical time per service. */
import { useParams } from 'react-router';
import { request } from '../api';
import { waterfallOf, onCriticalPath, type JaegerTrace } from '../lib/trace';
import { ErrorMessage, Loading, Page, Table, useLoad } from '../ui';

const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;

export function TraceView() {
  const traceId = useParams().traceId ?? '';
  const { data, error, loading } = useLoad(async () => {
    const r = await request<{ data: JaegerTrace[] | null }>(`/ops/jaeger/api/traces/${encodeURIComponent(traceId)}`);
    const trace = r.data?.[0];
    if (!trace) throw new Error(`Jaeger has no trace ${traceId}`);
    return waterfallOf(trace);
  }, [traceId]);

  const total = data ? Math.max(1, data.endUs - data.startUs) : 1;
  const pct = (us: number) => `${(100 * (us - (data?.startUs ?? 0))) / total}%`;
  const share = (us: number) => `${((100 * us) / Math.max(1, data?.criticalUs ?? 1)).toFixed(1)}%`;
  const width = (a: number, b: number) => `${Math.max(0.2, (100 * (b - a)) / total)}%`;
  return (
    <Page title={`Trace ${traceId.slice(0, 16)}`}>
      <ErrorMessage error={error} />
      {loading && <Loading what="the trace" />}
      {data && (
        <>
          <p>
            {data.spans.length} spans over {ms(data.endUs - data.startUs)}. <span className="legend critical">critical path</span>
          </p>
          <h2>Critical path ({ms(data.criticalUs)}): where the time goes</h2>
          <Table testId="attribution" columns={['Service / operation', 'On the path', 'Share']}>
            {data.byService.map((b) => (
              <tr key={b.service}>
                <th scope="row">{b.service}</th>
                <td>{ms(b.us)}</td>
                <td>{share(b.us)}</td>
              </tr>
            ))}
            {data.byOperation.slice(0, 8).map((o) => (
              <tr key={`${o.service} ${o.name}`} className="sub">
                <td>
                  {o.service.replace(/^shellgrade-/, '')} · {o.name}
                </td>
                <td>{ms(o.us)}</td>
                <td>{share(o.us)}</td>
              </tr>
            ))}
          </Table>
          <h2>Waterfall</h2>
          <ol className="waterfall" data-testid="waterfall">
            {data.spans.map((s) => (
              <li key={s.id} className={`${onCriticalPath(s) ? 'on-path' : ''}${s.error ? ' failed' : ''}`} data-critical={onCriticalPath(s) ? 'yes' : 'no'}>
                <span className="label" style={{ paddingLeft: `${s.depth * 0.75}rem` }} title={`${s.service} ${s.name} (${s.kind})`}>
                  <span className="svc">{s.service.replace(/^shellgrade-/, '')}</span> {s.name}
                </span>
                <span className="track">
                  <span className="bar" style={{ left: pct(s.startUs), width: width(s.startUs, s.endUs) }} />
                  {s.critical.map(([a, b], i) => (
                    <span key={i} className="crit" style={{ left: pct(a), width: width(a, b) }} />
                  ))}
                </span>
                <span className="dur">{ms(s.endUs - s.startUs)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </Page>
  );
}
