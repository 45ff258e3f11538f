/** Small shared pieces: error text (the API's problem+json detail), loading, data hooks, formats. */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { errorText, type FeedbackItem } from './api';

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}

/** Runs `load` on mount and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(undefined);
    load().then(
      (d) => live && (setData(d), setLoading(false)),
      (e) => live && (setError(e), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

export function Loading({ what }: { what: string }) {
  return <p aria-busy="true">Loading {what}…</p>;
}

export function Page({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · shellgrade`;
  }, [title]);
  return (
    <section>
      <h1>{title}</h1>
      {children}
    </section>
  );
}

/**
 * A table with one head row of column headers (`false` leaves a column out) and `children` as
 * its body rows; wide tables scroll inside their own box rather than widening the page.
 */
export function Table({ columns, testId, caption, scroll = true, children }: { columns: (string | false)[]; testId?: string; caption?: string; scroll?: boolean; children: ReactNode }) {
  const table = (
    <table data-testid={testId}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns
            .filter((c) => c !== false)
            .map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return scroll ? <div className="scroll">{table}</div> : table;
}

/** A link from a report: the console's own pages stay in the app, files open in a new tab. */
export function ReportLink({ href, inApp = false, title, children }: { href: string; inApp?: boolean; title?: string; children: ReactNode }) {
  return inApp ? (
    <Link to={href}>{children}</Link>
  ) : (
    <a href={href} target="_blank" rel="noopener noreferrer" title={title}>
      {children}
    </a>
  );
}

export function Feedback({ grade, comment }: { grade: number | null; comment: FeedbackItem[] | null }) {
  return (
    <div className="feedback">
      <p className="grade" data-testid="grade">
        Grade: <strong>{grade ?? '—'}</strong>/100
      </p>
      {comment && comment.length > 0 && (
        <Table columns={['#', 'Check', 'Status', 'Explanation']} caption="Feedback" scroll={false}>
          {comment.map((c, i) => (
            <tr key={i} className={c.status === 'OK' ? 'ok' : c.status === 'NOT OK' ? 'ko' : ''}>
              <td>{c.numQ}</td>
              <td>{c.verif}</td>
              <td>{c.status}</td>
              <td>{c.expl ?? ''}</td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

export const formatBytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(2)} MiB`;

export const formatDate = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

/** The Base64 of a file's bytes (exercise archives travel as base64 in JSON). */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Offers `text` as a file download. */
export function download(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}
