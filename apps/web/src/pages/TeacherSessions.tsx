/**
 * Staff: sessions (create one over a new sequence of exercises), enrolments (CSV class list:
 * known students are enrolled and given a statement for each exercise of the session; an admin
 * may also create the missing accounts) and the results of a session (table, distribution, CSV).
 */
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, type BusinessSession, type Exercise } from '../api';
import { useAuth } from '../auth';
import { parseRoster } from '../lib/csv';
import { download, ErrorMessage, formatDate, Loading, Page, Table, useLoad } from '../ui';

export function TeacherSessions() {
  const sessions = useLoad(() => api.sessions(), []);
  const exercises = useLoad(() => api.exercises(), []);
  return (
    <Page title="Sessions">
      <ErrorMessage error={sessions.error} />
      {sessions.loading && <Loading what="sessions" />}
      {sessions.data && (
        <ul>
          {sessions.data.map((s) => (
            <li key={s.session_id}>
              <Link to={`/teacher/sessions/${s.session_id}`}>{s.name}</Link>{' '}
              <span className="muted">
                {formatDate(s.starts_at)} → {formatDate(s.ends_at)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={exercises.error} />
      {exercises.data && <NewSession exercises={exercises.data} onCreated={sessions.reload} />}
    </Page>
  );
}

function NewSession({ exercises, onCreated }: { exercises: Exercise[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [starts, setStarts] = useState(() => new Date().toISOString().slice(0, 10));
  const [ends, setEnds] = useState(() => new Date(Date.now() + 90 * 86400_000).toISOString().slice(0, 10));
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<BusinessSession>();

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      if (chosen.length === 0) throw new Error('choose at least one exercise');
      const sequence = await api.createSequence({ name: `${name} (sequence)`, exercises: chosen });
      const s = await api.createSession({ name, sequence_id: sequence.sequence_id, starts_at: new Date(starts).toISOString(), ends_at: new Date(ends).toISOString() });
      setCreated(s);
      onCreated();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={(e) => void create(e)} className="card">
      <h2>New session</h2>
      <label htmlFor="s-name">Name</label>
      <input id="s-name" required value={name} onChange={(e) => setName(e.target.value)} />
      <fieldset>
        <legend>Exercises, in order</legend>
        {exercises.map((ex) => (
          <label key={ex.ex_id} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(ex.ex_id)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, ex.ex_id] : c.filter((id) => id !== ex.ex_id)))}
            />
            {ex.name} <span className="muted">({ex.state})</span>
          </label>
        ))}
      </fieldset>
      <label htmlFor="s-starts">Starts</label>
      <input id="s-starts" type="date" required value={starts} onChange={(e) => setStarts(e.target.value)} />
      <label htmlFor="s-ends">Ends</label>
      <input id="s-ends" type="date" required value={ends} onChange={(e) => setEnds(e.target.value)} />
      <button type="submit">Create session</button>
      {created && (
        <p role="status">
          Created <Link to={`/teacher/sessions/${created.session_id}`}>{created.name}</Link>; enrolment key (shown once): <code>{created.enrolment_key}</code>
        </p>
      )}
      <ErrorMessage error={error} />
    </form>
  );
}

async function sessionData(id: number) {
  // All three at once, but one refusal shown, always the same: the report's (what the page is about) first.
  const pending = api.report(id);
  const others = Promise.all([api.exercises(), api.users('student')]);
  others.catch(() => undefined); // awaited below, once the report answered
  const report = await pending;
  const [exercises, students] = await others;
  return { report, exIds: report.exercises.map((e) => e.ex_id), names: new Map(exercises.map((e) => [e.ex_id, e.name])), students };
}

const percent = (x: number) => `${Math.round(100 * x)}%`;

/** The session's results from the server's report (S2): per student, per exercise, distribution; its CSV. */
export function SessionResults() {
  const id = Number(useParams().sessionId);
  const { data, error, loading, reload } = useLoad(() => sessionData(id), [id]);
  const [exportError, setExportError] = useState<unknown>();

  async function exportCsv() {
    setExportError(undefined);
    try {
      download(`session-${id}-report.csv`, await api.reportCsv(id));
    } catch (err) {
      setExportError(err);
    }
  }

  const buckets = Object.entries(data?.report.grade_distribution ?? {});
  const peak = Math.max(1, ...buckets.map(([, n]) => n));
  const name = (ex: number) => data?.names.get(ex) ?? `exercise ${ex}`;
  return (
    <Page title={data ? `Session: ${data.report.name}` : `Session ${id}`}>
      <ErrorMessage error={error} />
      {loading && <Loading what="the session's report" />}
      {data && (
        <>
          <h2>Results</h2>
          <p>
            {data.report.totals.students} enrolled, {data.report.totals.productions} productions ({data.report.totals.graded} graded
            {data.report.mean_grade !== null ? `, mean ${data.report.mean_grade.toFixed(1)}` : ''}); passing is {data.report.pass_mark} or more.{' '}
            <button type="button" onClick={() => void exportCsv()}>
              Export CSV
            </button>
          </p>
          <ErrorMessage error={exportError} />
          <Table testId="results" columns={['Student', ...data.exIds.map(name), 'Progress']} caption="Best grade per student and exercise">
            {data.report.students.map((s) => (
              <tr key={s.user_id}>
                <th scope="row">{s.email}</th>
                {data.exIds.map((ex) => (
                  <td key={ex}>{s.best_grades[String(ex)] ?? '—'}</td>
                ))}
                <td>{percent(s.progress)}</td>
              </tr>
            ))}
          </Table>
          <Table testId="exercise-results" columns={['Exercise', 'Attempts', 'Students who tried', 'Passed', 'Mean best grade']} caption="Per exercise">
            {data.report.exercises.map((e) => (
              <tr key={e.ex_id}>
                <th scope="row">{name(e.ex_id)}</th>
                <td>{e.attempts}</td>
                <td>{e.students_attempted}</td>
                <td>{percent(e.pass_rate)}</td>
                <td>{e.mean_best_grade === null ? '—' : e.mean_best_grade.toFixed(1)}</td>
              </tr>
            ))}
          </Table>
          <h3>Grades of every graded production</h3>
          <div className="histogram" role="img" aria-label={`Grade distribution: ${buckets.map(([b, n]) => `${b}: ${n}`).join(', ')}`}>
            {buckets.map(([b, n]) => (
              <div key={b} className="bar" style={{ height: `${(100 * n) / peak}%` }} title={`${b}: ${n}`} />
            ))}
          </div>
          <div className="axis" aria-hidden="true">
            <span>0</span>
            <span>100</span>
          </div>
          <Enrol session={data.report.session_id} exIds={data.exIds} students={data.students} onDone={reload} />
        </>
      )}
    </Page>
  );
}

function Enrol({ session, exIds, students, onDone }: { session: number; exIds: number[]; students: { user_id: number; email: string }[]; onDone: () => void }) {
  const { user } = useAuth();
  const [text, setText] = useState('');
  const [report, setReport] = useState<string>();
  const [error, setError] = useState<unknown>();

  async function importCsv(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setReport(undefined);
    try {
      const { students: lines, invalid } = parseRoster(text);
      const known = new Map(students.map((s) => [s.email.toLowerCase(), s.user_id]));
      const ids: number[] = [];
      const missing: string[] = [];
      for (const l of lines) {
        let uid = known.get(l.email);
        if (uid === undefined && user?.role === 'admin') {
          uid = (await api.createUser({ email: l.email, firstname: l.firstname, lastname: l.lastname, password: crypto.randomUUID(), role: 'student' })).user_id;
        }
        if (uid === undefined) missing.push(l.email);
        else ids.push(uid);
      }
      if (ids.length > 0) {
        await api.enrol(session, ids);
        const existing = new Set((await api.statements({ session_id: session })).map((s) => `${s.user_id}:${s.ex_id}`));
        for (const uid of ids) for (const ex of exIds) if (!existing.has(`${uid}:${ex}`)) await api.createStatement({ user_id: uid, session_id: session, ex_id: ex });
      }
      setReport(
        `Enrolled ${ids.length} student${ids.length === 1 ? '' : 's'}.` +
          (missing.length ? ` No account for: ${missing.join(', ')} (only an admin can create accounts).` : '') +
          (invalid.length ? ` Skipped lines without an email: ${invalid.join(' | ')}.` : ''),
      );
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={(e) => void importCsv(e)} className="card">
      <h2>Enrol students (CSV)</h2>
      <label htmlFor="roster-file">Class list file (email[,firstname,lastname] a line)</label>
      <input id="roster-file" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void e.target.files?.[0]?.text().then(setText)} />
      <label htmlFor="roster">Class list</label>
      <textarea id="roster" rows={5} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Enrol and assign the session's exercises</button>
      {report && <p role="status">{report}</p>}
      <ErrorMessage error={error} />
    </form>
  );
}
