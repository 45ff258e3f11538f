/**
 * Compare 2–5 recorded runs (admins): `bench compare` of each run against the first, as one
 * table per request type — each run's mean, its difference from the baseline with the 95%
 * interval and whether it is significant — and each host's speed probe, with the harness's
 * warning when two hosts differ in speed.
 */
import { useSearchParams } from 'react-router';
import { request } from '../api';
import { formatDifference, formatValue, nWayRows, sidesOf, verdictOf, type NWayComparison, type NWayRow } from '../lib/compare';
import { ErrorMessage, Loading, Page, Table, useLoad } from '../ui';

export function Compare() {
  const [params] = useSearchParams();
  const runs = params.get('runs') ?? '';
  const result = useLoad(() => request<NWayComparison>(`/ops/compare?runs=${encodeURIComponent(runs)}`), [runs]);
  const c = result.data;
  return (
    <Page title="Compare runs">
      <ErrorMessage error={result.error} />
      {result.loading && <Loading what="the comparison (bench compare)" />}
      {c && <ComparisonView c={c} />}
    </Page>
  );
}

function ComparisonView({ c }: { c: NWayComparison }) {
  const sides = sidesOf(c);
  const rows = nWayRows(c);
  const types = [...new Set(rows.map((r) => r.type))];
  const warnings = [...new Set(c.pairs.map((p) => p.hostWarning).filter((w): w is string => !!w))];
  return (
    <>
      <h2>Runs</h2>
      <Table testId="compared-runs" columns={['Run', 'Variant', 'Profile', 'Valid runs compared', 'Left out', 'Speed probe']}>
        {sides.map((s, i) => (
          <tr key={s.runId}>
            <th scope="row">
              {s.runId}
              {i === 0 && <span className="tag">baseline</span>}
            </th>
            <td>{s.variant}</td>
            <td>{s.profile}</td>
            <td>{s.runs.join(', ') || 'none'}</td>
            <td>{s.excluded.map((e) => `run ${e.run}: ${e.reasons.join('; ')}`).join(' · ') || '—'}</td>
            <td>{s.speed ? `scrypt 2^14 ${s.speed.scryptN14Ms} ms, spawn ${s.speed.spawnMs} ms` : 'not recorded'}</td>
          </tr>
        ))}
      </Table>
      {warnings.map((w) => (
        <p key={w} role="alert" className="error" data-testid="host-warning">
          {w}
        </p>
      ))}
      <p>
        {c.pairs[0]?.method}. Each difference is the run&apos;s mean minus the baseline&apos;s. The same tables from a shell:{' '}
        {c.commands.map((cmd) => (
          <code key={cmd} className="command">
            {cmd}
          </code>
        ))}
      </p>
      {types.map((type) => (
        <TypeTable key={type} type={type} rows={rows.filter((r) => r.type === type)} sides={sides.map((s) => s.runId)} />
      ))}
    </>
  );
}

function TypeTable({ type, rows, sides }: { type: string; rows: NWayRow[]; sides: string[] }) {
  const [baseline, ...others] = sides;
  return (
    <>
      <h2>{type === 'all' ? 'All requests' : type === 'run' ? 'Whole run (variant resources)' : `Request type ${type}`}</h2>
      <Table testId={`compare-${type}`} columns={['Metric', `${baseline} (baseline)`, ...others]}>
        {rows.map((r) => (
          <tr key={r.def.metric}>
            <th scope="row">{r.def.label}</th>
            <td>{formatValue(r.baseline, r.def)}</td>
            {r.others.map((o, i) => (
              <td key={others[i]} className={o?.direction === 'worse' ? 'worse' : o?.direction === 'better' ? 'better' : undefined}>
                {o ? (
                  <>
                    {formatValue(o.meanB, r.def)}
                    <br />
                    <span className="difference">{formatDifference(o)}</span> <span className="tag">{verdictOf(o)}</span>
                  </>
                ) : (
                  '—'
                )}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </>
  );
}
