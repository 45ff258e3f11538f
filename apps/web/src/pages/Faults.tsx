/**
 * The fault runs of `npm run bench -- faults` (admins, GET /ops/faults[/<id>]): the resilience
 * table of `bench faults-table` — rows faults, columns variants, each cell every run's requests
 * lost, EFR during the fault and recovery after the undo, linking to the run — and one faults
 * folder in full (each window's figures, first error, audit, crashes, the slowed hop named or not).
 */
import { Link, useSearchParams } from 'react-router';
import { request } from '../api';
import { MIN_RUNS, PAIR_VERDICT_COLUMNS, pairVerdictCells, type FaultsList, type FaultsReport, type PairVerdict, type RunLink } from '@shellgrade/console-contract';
import { cellRunText, percent, recoveryText, runFileHref, runLinkItems, seconds } from '../lib/reports';
import { ErrorMessage, Loading, Page, ReportLink, Table, useLoad } from '../ui';

export function Faults() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const list = useLoad(() => request<FaultsList>('/ops/faults'), []);
  const folder = useLoad(() => (id ? request<FaultsReport>(`/ops/faults/${encodeURIComponent(id)}`) : Promise.resolve(undefined)), [id]);
  const m = list.data?.matrix;
  return (
    <Page title="Faults">
      <ErrorMessage error={list.error} />
      {list.loading && <Loading what="the fault runs" />}
      {list.data && list.data.folders.length === 0 && <p>No fault run in the results folder yet (npm run bench -- faults).</p>}
      {m && m.faults.length > 0 && (
        <>
          <h2>Resilience</h2>
          <p>Each cell: requests lost or duplicated (must be 0; n/a: no audit), EFR during the fault, recovery (p95 back within +10 % of the steady window) after the undo. Runs of the same cell are listed oldest first.</p>
          <Table testId="resilience" columns={['Fault', ...m.variants]}>
            {m.faults.map((fault, i) => (
              <tr key={fault}>
                <th scope="row">{fault}</th>
                {m.cells[i]!.map((cell) => (
                  <td key={cell.variant} data-variant={cell.variant}>
                    {cell.runs.length === 0
                      ? '–'
                      : cell.runs.map((r) => (
                          <div key={r.runId} data-run={r.runId} className={r.lost !== 0 || !r.recovered ? 'worse' : undefined}>
                            <RunAnchor id={r.runId} link={list.data!.runs[r.runId]}>
                              {cellRunText(r)}
                            </RunAnchor>
                            {!r.valid && (
                              <span className="tag" title={r.reasons.join('; ')}>
                                INVALID
                              </span>
                            )}
                            <TraceLinks link={list.data!.runs[r.runId]} />
                          </div>
                        ))}
                  </td>
                ))}
              </tr>
            ))}
          </Table>
          <Verdicts verdicts={list.data!.verdicts} />
        </>
      )}
      {list.data && list.data.folders.length > 0 && (
        <>
          <h2>Fault runs</h2>
          <Table testId="faults-folders" columns={['Folder', 'Variants', 'Faults', 'Runs', 'Not zero-loss']}>
            {list.data.folders.map((f) => (
              <tr key={f.id}>
                <th scope="row">{f.id === id ? <strong aria-current="true">{f.id}</strong> : <Link to={`/console/faults?id=${encodeURIComponent(f.id)}`}>{f.id}</Link>}</th>
                <td>{f.variants.join(', ')}</td>
                <td>{f.error ? <span className="error">{f.error}</span> : f.faults.join(', ')}</td>
                <td>{f.runs}</td>
                <td>{f.lossy}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
      <ErrorMessage error={folder.error} />
      {folder.loading && id && <Loading what="the faults folder" />}
      {folder.data && <FolderView f={folder.data} />}
    </Page>
  );
}

/** The architecture verdicts under the matrix, as bench faults-table writes them (resilience.md). */
function Verdicts({ verdicts }: { verdicts: PairVerdict[] }) {
  return (
    <>
      <h2>Architecture verdicts</h2>
      <p>
        B − A per fault, for each pair of variants whose cells hold {MIN_RUNS} runs or more: Welch&apos;s 95 % interval over runs and the Mann–Whitney rank test with Cliff&apos;s δ (a run not recovered
        ranks above every recovered one).
      </p>
      {verdicts.length === 0 ? (
        <p data-testid="no-verdicts">No fault has {MIN_RUNS} runs or more on two variants yet: run one {MIN_RUNS} times on each (npm run bench -- faults --variant &lt;v&gt; --faults &lt;fault&gt;, once a run).</p>
      ) : (
        <Table testId="verdicts" columns={['Fault', 'A vs B', ...PAIR_VERDICT_COLUMNS]}>
          {verdicts.map((v) => (
            <tr key={`${v.fault} ${v.a} ${v.b}`}>
              <th scope="row">{v.fault}</th>
              <td>
                {v.a} vs {v.b}
              </td>
              {pairVerdictCells(v).map((c, i) => (
                <td key={PAIR_VERDICT_COLUMNS[i]}>{c}</td>
              ))}
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

function RunAnchor({ id, link, children }: { id: string; link: RunLink | undefined; children: string }) {
  const report = link?.present ? link.report : null;
  if (!report) return <span title={`${id}: not in the results folder`}>{children}</span>;
  return (
    <ReportLink href={runFileHref(id, report)} title={id}>{children}</ReportLink>
  );
}

function TraceLinks({ link }: { link: RunLink | undefined }) {
  const traces = runLinkItems(link, link?.id ?? '').filter((l) => l.inApp);
  return (
    <>
      {traces.map((t) => (
        <span key={t.href}>
          {' · '}
          <Link to={t.href}>{t.label}</Link>
        </span>
      ))}
    </>
  );
}

const windowText = (w: { EFR: number | null; N: number; KO: number; p95Ms: number | null }) => `EFR ${percent(w.EFR)} (N ${w.N}, KO ${w.KO}), p95 ${w.p95Ms ?? 'n/a'} ms`;

function FolderView({ f }: { f: FaultsReport }) {
  return (
    <>
      <h2 style={{ overflowWrap: 'anywhere' }}>{f.id}</h2>
      <p>
        {f.attribution && f.attribution.of > 0 && `${f.attribution.named} of ${f.attribution.of} latency faults had their slowed hop named by the trace breakdown. `}
        <ReportLink href={runFileHref(f.id, 'faults.md')}>faults.md</ReportLink>
      </p>
      <Table testId="fault-runs" columns={['Fault', 'Target', 'Before', 'During', 'After', 'First error', 'Recovery', 'Audit', 'Crashes', 'Hop named', 'Run']}>
        {f.results.map((r) => (
          <tr key={r.runId}>
            <th scope="row">{r.fault}</th>
            <td>{r.applied.target}</td>
            <td>{windowText(r.before)}</td>
            <td>{windowText(r.during)}</td>
            <td>{windowText(r.after)}</td>
            <td>{seconds(r.timeToFirstErrorMs)}</td>
            <td>{recoveryText(r.recovery)}</td>
            <td>{r.audit?.summary ?? 'n/a'}</td>
            <td>{r.crashes.map((c) => `${c.process}${c.injected ? ' (injected)' : ' (UNEXPECTED)'}`).join(', ') || 'none'}</td>
            <td>{r.attribution === undefined ? '–' : r.attribution === null ? `no verdict: ${r.attributionError ?? 'unknown'}` : `${r.attribution.named ? 'yes' : 'NO'} (expected ${r.attribution.expected.join(' or ')})`}</td>
            <td>
              <ul className="links">
                <li>{r.runId}</li>
                {!r.valid && <li style={{ whiteSpace: 'normal' }}>INVALID: {r.reasons.join('; ')}</li>}
                {runLinkItems(f.runs[r.runId], r.runId).map((l) => (
                  <li key={l.href}>
                    <ReportLink href={l.href} inApp={l.inApp}>{l.label}</ReportLink>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
