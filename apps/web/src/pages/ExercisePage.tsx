/**
 * One exercise for the student: the statement (teacher-written HTML, shown in a sandboxed
 * frame: no script runs), the question archive, the upload (file picker or drag and drop,
 * size checked against the server's limit before sending) and the feedback — at once on
 * synchronous variants (201), by polling with back-off on asynchronous ones (202).
 */
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, type FeedbackItem, type Production } from '../api';
import { useAuth } from '../auth';
import { ErrorMessage, Feedback, formatBytes, formatDate, Loading, Page, Table, useLoad } from '../ui';

type Outcome =
  | { kind: 'graded'; epId: number; grade: number | null; comment: FeedbackItem[] | null }
  | { kind: 'waiting'; epId: number; status: string; polls: number; queue?: string }
  | { kind: 'failed'; epId: number; reason: string };

const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 4000;

export function ExercisePage() {
  const psId = Number(useParams().psId);
  const { config } = useAuth();
  const { data, error, loading } = useLoad(async () => {
    const statement = await api.statement(psId);
    const exercise = await api.exercise(statement.ex_id).catch(() => undefined);
    return { statement, exercise };
  }, [psId]);
  const history = useLoad(() => api.productions({ ps_id: psId }), [psId]);

  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [submitError, setSubmitError] = useState<unknown>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const poll = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(poll.current), []);

  const tooBig = file !== null && file.size > config.maxArchiveBytes;

  function pick(f: File | undefined | null) {
    setFile(f ?? null);
    setSubmitError(undefined);
    setOutcome(undefined);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    pick(e.dataTransfer.files[0]);
  }

  function follow(epId: number, delay: number, polls: number) {
    poll.current = setTimeout(async () => {
      try {
        const p: Production = await api.production(epId);
        if (p.status === 'graded') {
          setOutcome({ kind: 'graded', epId, grade: p.grade, comment: p.comment });
          history.reload();
        } else if (p.status === 'failed') {
          setOutcome({ kind: 'failed', epId, reason: p.failure_reason ?? 'grading failed' });
          history.reload();
        } else {
          setOutcome((o) => ({ kind: 'waiting', epId, status: p.status, polls: polls + 1, queue: o?.kind === 'waiting' ? o.queue : undefined }));
          follow(epId, Math.min(MAX_POLL_MS, delay * 1.5), polls + 1);
        }
      } catch (err) {
        setSubmitError(err);
      }
    }, delay);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file || !data || tooBig) return;
    clearTimeout(poll.current);
    setBusy(true);
    setSubmitError(undefined);
    setOutcome(undefined);
    try {
      const reply = await api.submit(data.statement.ex_id, psId, file);
      if ('grade' in reply) {
        setOutcome({ kind: 'graded', epId: reply.ep_id, grade: reply.grade, comment: reply.comment });
        history.reload();
      } else {
        setOutcome({ kind: 'waiting', epId: reply.ep_id, status: reply.status, polls: 0, queue: queueText(reply.queued_ahead, reply.estimated_wait_s) });
        follow(reply.ep_id, FIRST_POLL_MS, 0);
      }
    } catch (err) {
      // A grading failure still names its production (problem+json ep_id).
      if (err instanceof ApiError && typeof err.problem?.ep_id === 'number') history.reload();
      setSubmitError(err);
    } finally {
      setBusy(false);
    }
  }

  const title = data?.exercise?.name ?? (data ? `Exercise ${data.statement.ex_id}` : 'Exercise');
  return (
    <Page title={title}>
      <ErrorMessage error={error} />
      {loading && <Loading what="the statement" />}
      {data && (
        <>
          {data.statement.deadline && <p className="muted">Due {formatDate(data.statement.deadline)}</p>}
          <iframe
            title="Statement"
            className="statement"
            sandbox=""
            srcDoc={`<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><style>body{font-family:system-ui,sans-serif;margin:.5rem;line-height:1.4}</style>${data.statement.statement}`}
          />
          {data.statement.question_archive && (
            <p>
              <a href={`data:application/gzip;base64,${data.statement.question_archive}`} download={`question-${psId}.tar.gz`}>
                Download the question archive
              </a>
            </p>
          )}
          <form onSubmit={(e) => void submit(e)} className="card">
            <h2>Submit your answer</h2>
            <div
              className={`drop${dragging ? ' over' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid="dropzone"
            >
              <label htmlFor="archive">Archive (.tar.gz, at most {formatBytes(config.maxArchiveBytes)}) — choose a file or drop it here</label>
              <input id="archive" type="file" accept=".tar.gz,.tgz,application/gzip" onChange={(e) => pick(e.target.files?.[0])} />
            </div>
            {file && (
              <p data-testid="file-info">
                {file.name} — {formatBytes(file.size)}
              </p>
            )}
            {tooBig && (
              <p role="alert" className="error">
                This file is {formatBytes(file!.size)}: larger than the server accepts ({formatBytes(config.maxArchiveBytes)}).
              </p>
            )}
            <button type="submit" disabled={!file || tooBig || busy}>
              {busy ? 'Sending…' : 'Submit'}
            </button>
            <ErrorMessage error={submitError} />
          </form>
          <div aria-live="polite" data-testid="outcome">
            {outcome?.kind === 'waiting' && (
              <p aria-busy="true" data-testid="progress">
                Production #{outcome.epId}: {outcome.status}… (checked {outcome.polls} time{outcome.polls === 1 ? '' : 's'}){outcome.queue ? ` — ${outcome.queue}` : ''}
              </p>
            )}
            {outcome?.kind === 'failed' && (
              <p role="alert" className="error">
                Production #{outcome.epId} could not be graded: {outcome.reason}
              </p>
            )}
            {outcome?.kind === 'graded' && (
              <>
                <p>
                  Production <Link to={`/production/${outcome.epId}`}>#{outcome.epId}</Link> graded.
                </p>
                <Feedback grade={outcome.grade} comment={outcome.comment} />
              </>
            )}
          </div>
          <h2>Your earlier productions</h2>
          <ErrorMessage error={history.error} />
          <ProductionTable rows={history.data ?? []} />
        </>
      )}
    </Page>
  );
}

export function ProductionTable({ rows, names }: { rows: Production[]; names?: Map<number, string> }) {
  if (rows.length === 0) return <p>No production yet.</p>;
  return (
    <Table testId="productions" columns={['#', names !== undefined && 'Exercise', 'Sent', 'Status', 'Grade', 'Size']}>
      {rows.map((p) => (
        <tr key={p.ep_id}>
          <td>
            <Link to={`/production/${p.ep_id}`}>#{p.ep_id}</Link>
          </td>
          {names && <td>{names.get(p.ex_id) ?? p.ex_id}</td>}
          <td>{formatDate(p.created_at)}</td>
          <td>{p.status}</td>
          <td>{p.grade ?? '—'}</td>
          <td>{formatBytes(p.archive_size)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** What the server told of the queue when it accepted the submission, in the student's words. */
function queueText(ahead: number | undefined, waitS: number | null | undefined): string | undefined {
  if (ahead === undefined) return undefined;
  const who = ahead === 0 ? 'no submission ahead of yours' : `${ahead} submission${ahead === 1 ? '' : 's'} ahead of yours`;
  return waitS == null ? who : `${who}, about ${Math.max(1, Math.ceil(waitS))} s`;
}
