/**
 * One launched run, live (admins): the server's events (/ops/launches/<id>/events, one a second
 * from the harness's progress lines and k6's live log) — stage, elapsed time, per run and step
 * the SPS throughput, OK, KO with their causes and p95, and each run's validity once judged —
 * and Cancel, which stops k6 and the harness and leaves the run marked INVALID.
 */
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { request } from '../api';
import { causesText, elapsedText, type LaunchEvent } from '../lib/launch';
import { ErrorMessage, Loading, Page, Table } from '../ui';

function useLaunchEvents(id: string): { event: LaunchEvent | undefined; error: string | undefined } {
  const [event, setEvent] = useState<LaunchEvent>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const source = new EventSource(`/ops/launches/${encodeURIComponent(id)}/events`);
    const take = (e: MessageEvent<string>) => setEvent(JSON.parse(e.data) as LaunchEvent);
    source.addEventListener('progress', take);
    source.addEventListener('end', (e) => {
      take(e);
      source.close();
    });
    // EventSource reconnects by itself after a cut; a refused stream (not an admin, no such launch) is closed for good.
    source.onerror = () => setError(source.readyState === EventSource.CLOSED ? 'the progress stream was refused (no such launch, or not an admin)' : 'the progress stream was interrupted; reconnecting…');
    source.onopen = () => setError(undefined);
    return () => source.close();
  }, [id]);
  return { event, error };
}

export function LaunchWatch() {
  const { id = '' } = useParams();
  const { event, error } = useLaunchEvents(id);
  const [cancelError, setCancelError] = useState<unknown>();
  const [cancelling, setCancelling] = useState(false);
  const launch = event?.launch;
  const progress = event?.progress;

  async function cancel() {
    setCancelling(true);
    setCancelError(undefined);
    try {
      await request(`/ops/launches/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
    } catch (err) {
      setCancelError(err);
    } finally {
      setCancelling(false);
    }
  }

  return (
    <Page title={`Run ${id}`}>
      {!event && !error && <Loading what="the run's progress" />}
      {!event && error && <ErrorMessage error={error} />}
      {launch && progress && (
        <>
          <dl className="facts" data-testid="launch-facts">
            <dt>Command</dt>
            <dd>
              <code>{launch.command}</code>
            </dd>
            <dt>State</dt>
            <dd data-testid="launch-state">{launch.state}</dd>
            {launch.results && (
              <>
                <dt>Results</dt>
                <dd data-testid="launch-results">
                  <code>results/{launch.results}</code>
                </dd>
              </>
            )}
            <dt>Stage</dt>
            <dd data-testid="launch-stage">{progress.stage}</dd>
            <dt>Elapsed</dt>
            <dd>{elapsedText(event.elapsedS)}</dd>
            {launch.cancelled && (
              <>
                <dt>Cancelled</dt>
                <dd data-testid="launch-cancelled">
                  by an {launch.cancelled.by} from {launch.cancelled.from} at {new Date(launch.cancelled.at).toLocaleTimeString()}: the run is INVALID
                </dd>
              </>
            )}
            {progress.verdict && (
              <>
                <dt>Verdict</dt>
                <dd data-testid="launch-verdict">
                  {progress.verdict.valid ? 'VALID' : 'INVALID'}: {progress.verdict.validRuns} / {progress.verdict.runsAsked} runs valid
                </dd>
              </>
            )}
          </dl>
          {launch.state === 'running' && (
            <button type="button" onClick={() => void cancel()} disabled={cancelling}>
              Cancel the run
            </button>
          )}
          <ErrorMessage error={cancelError} />
          <h2>Per run and step (SPS requests){launch.plan === 'run' || launch.plan === 'suite' ? '' : ': the run it is making now'}</h2>
          {progress.runs.length === 0 && <p>No load yet (bring-up, seeding, warm-up).</p>}
          {progress.runs.length > 0 && (
            <Table testId="launch-steps" columns={['Run', 'Step', 'Throughput', 'OK', 'KO (causes)', 'p95 of OK', 'Validity']}>
              {progress.runs.flatMap((r) =>
                (r.steps.length ? r.steps : [null]).map((s, i) => (
                  <tr key={`${r.run}-${s?.step ?? 'none'}`}>
                    <th scope="row">run {r.run}</th>
                    <td>{s ? s.step : '—'}</td>
                    <td>{s?.throughput != null ? `${s.throughput.toFixed(2)} /s` : '—'}</td>
                    <td>{s?.ok ?? 0}</td>
                    <td>
                      {s?.ko ?? 0} ({causesText(s?.koCauses ?? {})})
                    </td>
                    <td>{s?.p95Ms != null ? `${s.p95Ms.toFixed(0)} ms` : '—'}</td>
                    <td>{i > 0 ? '' : r.valid === null ? 'judged at the run’s end' : r.valid ? 'VALID' : `INVALID: ${r.reasons.join('; ')}`}</td>
                  </tr>
                )),
              )}
            </Table>
          )}
          <h2>Harness</h2>
          <ul className="log" data-testid="launch-log">
            {progress.lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}
