/**
 * The findings of `npm run findings` (admins, GET /ops/findings[/<id>]): each of paper 000's
 * claims with its verdict, the decisive figure and every comparison behind it (B − A with its
 * 95% interval, Mann–Whitney and Cliff's δ, TOST, the part's verdict and why), and links to the
 * runs it rests on — their reports, their trace breakdowns and exemplar traces in the trace view.
 */
import { Link, useSearchParams } from 'react-router';
import { request } from '../api';
import { findingRunIds, type FindingCellRef, type FindingResult, type FindingsReport, type FindingsSummary, type RunLink } from '@shellgrade/console-contract';
import { findingsFileHref, formatDifference, formatMetric, formatRank, formatTost, runLinkItems } from '../lib/reports';
import { ErrorMessage, Loading, Page, ReportLink, Table, useLoad } from '../ui';

export function Findings() {
  const [params] = useSearchParams();
  const list = useLoad(() => request<{ findings: FindingsSummary[] }>('/ops/findings').then((r) => r.findings), []);
  const id = params.get('id') ?? list.data?.[0]?.id;
  const report = useLoad(() => (id ? request<FindingsReport>(`/ops/findings/${encodeURIComponent(id)}`) : Promise.resolve(undefined)), [id]);
  return (
    <Page title="Findings">
      <ErrorMessage error={list.error} />
      {list.loading && <Loading what="the findings folders" />}
      {list.data && list.data.length === 0 && <p>No findings folder in the results folder yet (npm run findings).</p>}
      {list.data && list.data.length > 0 && (
        <Table testId="findings-folders" columns={['Folder', 'Mode', 'Started', 'Verdicts']}>
          {list.data.map((f) => (
            <tr key={f.id}>
              <th scope="row">
                {f.id === id ? (
                  <strong aria-current="true">{f.id}</strong>
                ) : (
                  <Link to={`/console/findings?id=${encodeURIComponent(f.id)}`}>{f.id}</Link>
                )}
              </th>
              <td>{f.mode ?? '—'}</td>
              <td>{f.startedAt ? new Date(f.startedAt).toLocaleString() : '—'}</td>
              <td>{f.error ? <span className="error">{f.error}</span> : f.counts ? `${f.counts.reproduced} reproduced, ${f.counts.refuted} refuted, ${f.counts.inconclusive} inconclusive` : 'not evaluated yet'}</td>
            </tr>
          ))}
        </Table>
      )}
      <ErrorMessage error={report.error} />
      {report.loading && id && <Loading what="the findings" />}
      {report.data && <FindingsView r={report.data} />}
    </Page>
  );
}

function FindingsView({ r }: { r: FindingsReport }) {
  const rec = r.record;
  return (
    <>
      <h2 style={{ overflowWrap: 'anywhere' }}>
        {r.id} ({r.mode ?? 'unknown mode'})
      </h2>
      <dl className="facts" data-testid="findings-record">
        {rec && (
          <>
            <dt>Seed</dt>
            <dd>{rec.seed}</dd>
            <dt>Capacity</dt>
            <dd>{rec.capacity ? `naked-mon ${rec.capacity.rate} it/s` : 'not known'}</dd>
            <dt>Loads</dt>
            <dd>{Object.entries(rec.peaks).map(([l, p]) => `${l} = ${p} it/s`).join(', ') || 'none run'}</dd>
            <dt>Paper-equivalent</dt>
            <dd>{rec.paper.multiple === null ? `not found${rec.paper.notFound ? `: ${rec.paper.notFound}` : ''}` : `${rec.paper.multiple}× (naked-mon EFR ${formatMetric(rec.paper.efr, 'efr')})`}</dd>
            {rec.failed.length > 0 && (
              <>
                <dt>Failed runs</dt>
                <dd>{rec.failed.map((f) => `${f.cell} round ${f.round}: ${f.error}`).join('; ')}</dd>
              </>
            )}
          </>
        )}
        <dt>Reports</dt>
        <dd>
          <ul className="links">
            {r.files.map((f) => (
              <li key={f} style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
                <ReportLink href={findingsFileHref(r.id, f)}>{f}</ReportLink>
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      {r.results === null ? (
        <p>Not evaluated yet: findings.json is missing (the run stopped before its evaluation; npm run findings -- --evaluate evaluates it).</p>
      ) : (
        r.results.map((f) => <FindingCard key={f.claim.id} f={f} report={r} />)
      )}
    </>
  );
}

function FindingCard({ f, report }: { f: FindingResult; report: FindingsReport }) {
  const runs = findingRunIds(f, report.cells);
  return (
    <article className="card" data-testid={`finding-${f.claim.id}`} aria-labelledby={`finding-${f.claim.id}-title`}>
      <h3 id={`finding-${f.claim.id}-title`} style={{ margin: 0 }}>
        ({f.claim.id}) {f.claim.title}{' '}
        <span className="tag" data-testid="verdict">
          {f.verdict}
        </span>
      </h3>
      <blockquote style={{ margin: 0 }} className="muted">
        “{f.claim.quote}”
      </blockquote>
      <p style={{ margin: 0 }} data-testid="key-figure">
        {f.keyFigure}
      </p>
      <Table testId="parts" columns={['Comparison', 'Load', 'A', 'B', 'B − A [95% CI]', 'Mann–Whitney, Cliff\'s δ', 'TOST', 'Verdict']}>
        {f.parts.map((p, i) => (
          <tr key={i}>
            <th scope="row">
              {p.test.reads}
              <br />
              <span className="muted">
                {p.test.metric}, B − A {p.test.expect}
              </span>
            </th>
            <td>{p.test.level}</td>
            <td>{side(p.a, p.test.a, p.difference?.meanA, p.test.metric, p.difference?.nA)}</td>
            <td>{side(p.b, p.test.b, p.difference?.meanB, p.test.metric, p.difference?.nB)}</td>
            <td>
              {formatDifference(p.difference, p.test.metric)}
              {p.difference?.note && <span className="muted"> ({p.difference.note})</span>}
            </td>
            <td>{formatRank(p)}</td>
            <td>{formatTost(p)}</td>
            <td>
              <strong>{p.verdict.verdict}</strong>: {p.verdict.why}
              {p.verdict.settle && <span className="muted">; would settle it: {p.verdict.settle}</span>}
            </td>
          </tr>
        ))}
      </Table>
      {f.explanation.length > 0 && (
        <ul style={{ margin: 0 }}>
          {f.explanation.map((e) => (
            <li key={e} style={{ overflowWrap: 'anywhere' }}>
              {e}
            </li>
          ))}
        </ul>
      )}
      {f.caveats.length > 0 && (
        <p style={{ margin: 0, overflowWrap: 'anywhere' }}>
          <strong>Caveats:</strong> {f.caveats.join(' · ')}
        </p>
      )}
      <h4 style={{ margin: 0 }}>Runs behind it</h4>
      {runs.length === 0 ? (
        <p style={{ margin: 0 }}>none: its cells were not run</p>
      ) : (
        <ul className="links" data-testid="finding-runs">
          {runs.map((id) => (
            <RunItem key={id} id={id} link={report.runs[id]} cellOf={cellName(report, id)} />
          ))}
        </ul>
      )}
    </article>
  );
}

function side(ref: FindingCellRef | null, role: string, mean: number | null | undefined, metric: string, n: number | undefined) {
  if (!ref) return <span className="muted">— ({role}: not run)</span>;
  return (
    <>
      {ref.variant} <span className="muted">({ref.role})</span>
      <br />
      {formatMetric(mean, metric)}
      {n !== undefined && <span className="muted">, n = {n}</span>}
    </>
  );
}

const cellName = (r: FindingsReport, id: string): string | undefined => Object.entries(r.cells).find(([, ids]) => ids.includes(id))?.[0];

function RunItem({ id, link, cellOf }: { id: string; link: RunLink | undefined; cellOf?: string }) {
  const items = runLinkItems(link, id);
  return (
    <li style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }} data-run={id}>
      <span>{id}</span>
      {cellOf && <span className="tag">{cellOf}</span>}
      {!link?.present && <span className="tag">not in the results folder</span>}
      {items.map((l) => (
        <span key={l.href}>
          {' · '}
          <ReportLink href={l.href} inApp={l.inApp}>{l.label}</ReportLink>
        </span>
      ))}
    </li>
  );
}
