/** The sessions the user is enrolled in and, per session, its exercises (the user's statements). */
import { Link } from 'react-router';
import { api } from '../api';
import { ErrorMessage, formatDate, Loading, Page, useLoad } from '../ui';

export function StudentHome() {
  const { data, error, loading } = useLoad(async () => {
    const [sessions, statements, exercises] = await Promise.all([api.sessions(), api.statements(), api.exercises()]);
    const names = new Map(exercises.map((e) => [e.ex_id, e.name]));
    return sessions.map((s) => ({
      session: s,
      statements: statements.filter((st) => st.session_id === s.session_id).map((st) => ({ ...st, name: names.get(st.ex_id) ?? `Exercise ${st.ex_id}` })),
    }));
  }, []);

  return (
    <Page title="My exercises">
      <ErrorMessage error={error} />
      {loading && <Loading what="your sessions" />}
      {data && data.length === 0 && <p>You are not enrolled in any session yet.</p>}
      {data?.map(({ session, statements }) => (
        <article key={session.session_id} className="card" aria-labelledby={`session-${session.session_id}`}>
          <h2 id={`session-${session.session_id}`}>{session.name}</h2>
          <p className="muted">
            {formatDate(session.starts_at)} → {formatDate(session.ends_at)}
          </p>
          {statements.length === 0 ? (
            <p>No exercise for you in this session yet.</p>
          ) : (
            <ul>
              {statements.map((st) => (
                <li key={st.ps_id}>
                  <Link to={`/statement/${st.ps_id}`}>{st.name}</Link>
                  {st.deadline && <span className="muted"> — due {formatDate(st.deadline)}</span>}
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
    </Page>
  );
}
