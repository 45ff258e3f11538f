/**
 * Staff: sessions (create one over a new sequence of exercises), enrolments (CSV class list:
 * known students are enrolled and given a statement for each exercise of the session; an admin
 * may also create the missing accounts) and the results of a session (table, distribution, CSV).
 */
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, type BusinessSession, type Exercise } from '../api';
import { useAuth } from '../auth';
import { parseRoster, toCsv } from '../lib/csv';
import { download, ErrorMessage, formatDate, Loading, Page, useLoad } from '../ui';

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
  const session = await api.session(id);
  const [sequences, exercises, statements, enrolled, students] = await Promise.all([
    api.sequences(),
    api.exercises(),
    api.statements(`&session_id=${id}`),
    api.enrolled(id),
    api.users('student'),
  ]);
  const exIds = sequences.find((q) => q.sequence_id === session.sequence_id)?.exercises ?? [];
  const psIds = new Set(statements.map((s) => s.ps_id));
  const productions = (await Promise.all(exIds.map((ex) => api.productions(`&ex_id=${ex}`)))).flat().filter((p) => psIds.has(p.ps_id));
  const names = new Map(exercises.map((e) => [e.ex_id, e.name]));
  const byId = new Map(students.map((u) => [u.user_id, u]));
  const best = new Map<string, number>();
  for (const p of productions) {
    if (p.grade === null) continue;
    const key = `${p.user_id}:${p.ex_id}`;
    best.set(key, Math.max(best.get(key) ?? 0, p.grade));
  }
  return { session, exIds, names, statements, enrolled: enrolled.user_ids, students, byId, best, productions };
}

export function SessionResults() {
  const id = Number(useParams().sessionId);
  const { data, error, loading, reload } = useLoad(() => sessionData(id), [id]);

  function exportCsv() {
    if (!data) return;
    const header = ['email', 'firstname', 'lastname', ...data.exIds.map((ex) => data.names.get(ex) ?? `exercise ${ex}`)];
    const rows = data.enrolled.map((uid) => {
      const u = data.byId.get(uid);
      return [u?.email ?? String(uid), u?.firstname ?? '', u?.lastname ?? '', ...data.exIds.map((ex) => data.best.get(`${uid}:${ex}`) ?? '')];
    });
    download(`session-${id}-results.csv`, toCsv([header, ...rows]));
  }

  const buckets = Array.from({ length: 11 }, () => 0);
  for (const g of data?.best.values() ?? []) buckets[Math.min(10, Math.floor(g / 10))]!++;
  const peak = Math.max(1, ...buckets);

  return (
    <Page title={data ? `Session: ${data.session.name}` : `Session ${id}`}>
      <ErrorMessage error={error} />
      {loading && <Loading what="the session" />}
      {data && (
        <>
          <h2>Results</h2>
          <p>
            {data.enrolled.length} enrolled, {data.productions.length} productions.{' '}
            <button type="button" onClick={exportCsv}>
              Export CSV
            </button>
          </p>
          <div className="scroll">
            <table data-testid="results">
              <thead>
                <tr>
                  <th scope="col">Student</th>
                  {data.exIds.map((ex) => (
                    <th scope="col" key={ex}>
                      {data.names.get(ex) ?? ex}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.enrolled.map((uid) => (
                  <tr key={uid}>
                    <th scope="row">{data.byId.get(uid)?.email ?? uid}</th>
                    {data.exIds.map((ex) => (
                      <td key={ex}>{data.best.get(`${uid}:${ex}`) ?? '—'}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Best grades, distribution</h3>
          <div className="histogram" role="img" aria-label={`Best grades: ${buckets.map((n, i) => `${i * 10}${i < 10 ? `–${i * 10 + 9}` : ''}: ${n}`).join(', ')}`}>
            {buckets.map((n, i) => (
              <div key={i} className="bar" style={{ height: `${(100 * n) / peak}%` }} title={`${i * 10}${i < 10 ? `–${i * 10 + 9}` : ''}: ${n}`} />
            ))}
          </div>
          <Enrol session={data.session} exIds={data.exIds} students={data.students} onDone={reload} />
        </>
      )}
    </Page>
  );
}

function Enrol({ session, exIds, students, onDone }: { session: BusinessSession; exIds: number[]; students: { user_id: number; email: string }[]; onDone: () => void }) {
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
        await api.enrol(session.session_id, ids);
        const existing = new Set((await api.statements(`&session_id=${session.session_id}`)).map((s) => `${s.user_id}:${s.ex_id}`));
        for (const uid of ids) for (const ex of exIds) if (!existing.has(`${uid}:${ex}`)) await api.createStatement({ user_id: uid, session_id: session.session_id, ex_id: ex });
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
