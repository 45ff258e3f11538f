/** Staff: the exercises (list, create, edit: statement, question archive, grading script, state). */
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api, type Exercise, type TrialReply } from '../api';
import { base64Of, ErrorMessage, Feedback, Loading, Page, Table, useLoad } from '../ui';

export function TeacherExercises() {
  const { data, error, loading } = useLoad(() => api.exercises(), []);
  return (
    <Page title="Exercises">
      <p>
        <Link to="/teacher/exercises/new" className="button">
          New exercise
        </Link>
      </p>
      <ErrorMessage error={error} />
      {loading && <Loading what="exercises" />}
      {data && (
        <Table columns={['#', 'Name', 'Slug', 'State', 'Skills']}>
          {data.map((e) => (
            <tr key={e.ex_id}>
              <td>{e.ex_id}</td>
              <td>
                <Link to={`/teacher/exercises/${e.ex_id}`}>{e.name}</Link>
              </td>
              <td>{e.slug}</td>
              <td>{e.state}</td>
              <td>{e.skills.join(', ')}</td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}

export function ExerciseEditor() {
  const exId = useParams().exId;
  const editing = exId !== undefined;
  const navigate = useNavigate();
  const saved = (useLocation().state as { saved?: string } | null)?.saved;
  const existing = useLoad(() => (editing ? api.exercise(Number(exId)) : Promise.resolve(undefined)), [exId]);
  return (
    <Page title={editing ? `Edit exercise ${exId}` : 'New exercise'}>
      {saved && <p role="status">{saved}</p>}
      <ErrorMessage error={existing.error} />
      {/* Until the exercise of this very URL has loaded (a new one just created included). */}
      {existing.error ? null : existing.loading || (editing && existing.data?.ex_id !== Number(exId)) ? (
        <Loading what="the exercise" />
      ) : (
        <>
          <ExerciseForm key={exId ?? 'new'} initial={existing.data} onSaved={(e) => navigate(`/teacher/exercises/${e.ex_id}`, { state: { saved: `Saved exercise #${e.ex_id} (${e.state}).` } })} />
          {existing.data && <GraderTrial key={existing.data.ex_id} exId={existing.data.ex_id} />}
        </>
      )}
    </Page>
  );
}

function ExerciseForm({ initial, onSaved }: { initial?: Exercise; onSaved: (e: Exercise) => void }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [slug, setSlug] = useState(initial?.slug ?? '');
  const [statement, setStatement] = useState(initial?.statement ?? '');
  const [grader, setGrader] = useState(initial?.grader_script ?? '');
  const [state, setState] = useState<Exercise['state']>(initial?.state ?? 'draft');
  const [locale, setLocale] = useState(initial?.locale ?? 'en');
  const [skills, setSkills] = useState(initial?.skills.join(', ') ?? '');
  const [archive, setArchive] = useState<File | null>(null);
  const [error, setError] = useState<unknown>();

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const fields = {
        name,
        slug,
        statement,
        grader_script: grader,
        state,
        locale,
        skills: skills.split(',').map((s) => s.trim()).filter(Boolean),
      };
      const question_archive = archive ? await base64Of(archive) : undefined;
      if (initial) onSaved(await api.updateExercise(initial.ex_id, question_archive === undefined ? fields : { ...fields, question_archive }));
      else if (question_archive !== undefined) onSaved(await api.createExercise({ ...fields, question_archive }));
      else throw new Error('choose the question archive (.tar.gz) students download');
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={(e) => void save(e)} className="card">
      <label htmlFor="ex-name">Name</label>
      <input id="ex-name" required value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="ex-slug">Slug (lower-case letters, digits, dashes)</label>
      <input id="ex-slug" required pattern="[a-z0-9][a-z0-9-]*" value={slug} onChange={(e) => setSlug(e.target.value)} />
      <label htmlFor="ex-statement">Statement (HTML)</label>
      <textarea id="ex-statement" rows={6} value={statement} onChange={(e) => setStatement(e.target.value)} />
      <label htmlFor="ex-archive">Question archive (.tar.gz){initial ? ' — leave empty to keep the current one' : ''}</label>
      <input id="ex-archive" type="file" accept=".tar.gz,.tgz,application/gzip" onChange={(e) => setArchive(e.target.files?.[0] ?? null)} />
      <label htmlFor="ex-grader-file">Grading script: load a .py file</label>
      <input id="ex-grader-file" type="file" accept=".py,text/x-python,text/plain" onChange={(e) => void e.target.files?.[0]?.text().then(setGrader)} />
      <label htmlFor="ex-grader">Grading script (Python, prints one JSON line)</label>
      <textarea id="ex-grader" rows={10} required className="code" value={grader} onChange={(e) => setGrader(e.target.value)} />
      <label htmlFor="ex-state">State</label>
      <select id="ex-state" value={state} onChange={(e) => setState(e.target.value as Exercise['state'])}>
        <option value="draft">draft</option>
        <option value="published">published (students see it)</option>
        <option value="archived">archived</option>
      </select>
      <label htmlFor="ex-locale">Locale</label>
      <input id="ex-locale" value={locale} onChange={(e) => setLocale(e.target.value)} />
      <label htmlFor="ex-skills">Skills (comma-separated)</label>
      <input id="ex-skills" value={skills} onChange={(e) => setSkills(e.target.value)} />
      <button type="submit">{initial ? 'Save' : 'Create'}</button>
      <ErrorMessage error={error} />
    </form>
  );
}

/** Try the saved grader on a sample archive before publishing: what a student would get, or what the grader printed when it failed. */
function GraderTrial({ exId }: { exId: number }) {
  const [file, setFile] = useState<File | null>(null);
  const [reply, setReply] = useState<TrialReply>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();

  async function run(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setError(undefined);
    setReply(undefined);
    setRunning(true);
    try {
      setReply(await api.trialGrader(exId, file));
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  }

  return (
    <form onSubmit={(e) => void run(e)} className="card" aria-labelledby="trial-title">
      <h2 id="trial-title">Try the grader</h2>
      <p>Runs the saved grading script on a sample answer, in the same sandbox as students' submissions. Nothing is stored.</p>
      <label htmlFor="trial-archive">Sample answer (.tar.gz)</label>
      <input id="trial-archive" type="file" accept=".tar.gz,.tgz,application/gzip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      <button type="submit" disabled={!file || running}>
        {running ? 'Grading…' : 'Run the grader'}
      </button>
      <ErrorMessage error={error} />
      {reply?.outcome === 'graded' && (
        <section aria-label="Trial result">
          <Feedback grade={reply.grade} comment={reply.comment} />
        </section>
      )}
      {reply?.outcome === 'grader-failed' && (
        <section aria-label="Trial result">
          <p role="alert">The grader failed: {reply.reason}</p>
          {reply.grader_stderr && <pre className="code">{reply.grader_stderr}</pre>}
        </section>
      )}
    </form>
  );
}
