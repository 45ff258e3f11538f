// e2e-variants: naked-mon, msa-1-2
/**
 * An exercise's author tries its grader on sample archives before publishing —
 * the real sandboxed grader, nothing stored — on the monolith and, through the gateway, on the
 * exercise service of msa-1-2. Only the author (or an admin) may; a student is refused.
 */
import { getCatalogExercise, loadSamples } from '@shellgrade/grading';
import { Pool } from 'pg';
import { loadConnections } from '@shellgrade/variant';
import { FormData, type BrowserSession } from './support/http-client';
import { loggedIn } from './support/sessions';
import { seed, variantUp } from './support/stack';

jest.setTimeout(600_000);

const catalog = getCatalogExercise('paper-scripts');
const paper = loadSamples('paper-scripts');
const db = new Pool({ connectionString: loadConnections().DATABASE_URL, max: 1 });
afterAll(() => db.end());

function sample(exerciseId: number, archive: Buffer): FormData {
  const form = new FormData();
  form.set('ex_id', String(exerciseId));
  form.set('file', new Blob([archive]), 'sample.tgz');
  return form;
}

async function draftExercise(teacher: BrowserSession, graderScript: string): Promise<number> {
  const slug = `trial-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const created = await teacher.request('POST', '/api/exercise', {
    slug,
    name: slug,
    statement: catalog.statementHtml,
    question_archive: catalog.questionArchive.toString('base64'),
    grader_script: graderScript,
  });
  expect(created.status).toBe(201);
  return (created.body as { ex_id: number }).ex_id;
}

const productionCount = async () => (await db.query('SELECT count(*)::int AS n FROM exercise_productions')).rows[0].n as number;

describe.each(['naked-mon', 'msa-1-2'])('exercise trial on %s', (variant) => {
  let entry: string;
  let teacher: BrowserSession;
  beforeAll(async () => {
    entry = (await variantUp(variant)).entry;
    await seed(2);
    teacher = await loggedIn(entry, 'teacher1@shellgrade.test', 'teacher-password');
  });

  it("grades the author's sample archives with the exercise's grader, a draft still, storing nothing", async () => {
    const exerciseId = await draftExercise(teacher, catalog.graderScript);
    const before = await productionCount();
    const good = await teacher.request('POST', '/api/exercise-trial', sample(exerciseId, paper.good));
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ ex_id: exerciseId, outcome: 'graded', grade: 100 });
    const bad = await teacher.request('POST', '/api/exercise-trial', sample(exerciseId, paper.bad[0]!.bytes));
    expect(bad.body).toMatchObject({ outcome: 'graded' });
    expect((bad.body as { grade: number }).grade).toBeLessThan(100);
    expect(await productionCount()).toBe(before);
  });

  it("shows the author what its broken grader printed on stderr", async () => {
    const exerciseId = await draftExercise(teacher, 'raise RuntimeError("my grader has a bug on line one")\n');
    const reply = await teacher.request('POST', '/api/exercise-trial', sample(exerciseId, paper.good));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ outcome: 'grader-failed', reason: expect.stringMatching(/exit code/) });
    expect((reply.body as { grader_stderr: string }).grader_stderr).toContain('my grader has a bug on line one');
  });

  it('refuses an invalid sample archive with the reason, another teacher (404) and a student (403)', async () => {
    const exerciseId = await draftExercise(teacher, catalog.graderScript);
    const junk = await teacher.request('POST', '/api/exercise-trial', sample(exerciseId, Buffer.from('not a tar.gz at all')));
    expect(junk.status).toBe(422);
    const other = await loggedIn(entry, 'teacher2@shellgrade.test', 'teacher-password');
    const notTheirs = await other.request('POST', '/api/exercise-trial', sample(exerciseId, paper.good));
    expect([notTheirs.status, (notTheirs.body as { detail: string }).detail]).toEqual([404, `exercise ${exerciseId} does not exist`]);
    const [student] = await seed(1);
    const s = await loggedIn(entry, student!.email, student!.password);
    const refused = await s.request('POST', '/api/exercise-trial', sample(exerciseId, paper.good));
    expect([refused.status, (refused.body as { detail: string }).detail]).toEqual([403, 'requires role admin or teacher']);
  });
});
