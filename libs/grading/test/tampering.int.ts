/**
 * Student code never changes its own grade nor reads the grader (docs/design.md, Untrusted input).
 * Each catalog exercise ships answers that attack the grader at grading time — rewrite the
 * tree being checked or the question's reference files, print /job/grader.py, flood the
 * feedback — each paired with the honest wrong answer it must score exactly like.
 */
import type { GradingResult } from '@shellgrade/domain';
import { getCatalogExercise, loadCatalog, loadSamples } from '../src/catalog';
import { catalogJob, closeGraders, grader, makeSandboxRoot, notOk } from './sandbox-helpers';

const sandbox = makeSandboxRoot('tamper');
afterAll(async () => {
  await closeGraders();
  sandbox.cleanup();
});

/** Lines of the grader long enough to be recognised wherever they end up. */
const sourceLines = (slug: string) =>
  getCatalogExercise(slug)
    .graderScript.split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 25);

const cases = loadCatalog().flatMap((e) => loadSamples(e.slug).tampering.map((t) => [e.slug, t.name, t] as const));

describe.each([['async'], ['pool'], ['zygote']] as const)('tampering answers (bwrap, %s)', (exec) => {
  const g = grader(sandbox.root, { exec, poolSize: 2 });

  it('cover every catalog exercise', () => {
    expect(new Set(cases.map(([slug]) => slug))).toEqual(new Set(loadCatalog().map((e) => e.slug)));
  });

  it.each(cases)('%s / %s scores what the honest wrong answer scores, and never shows the grader', async (slug, _name, t) => {
    const [honest, tampered]: GradingResult[] = await Promise.all([g.grade(catalogJob(slug, t.honest)), g.grade(catalogJob(slug, t.bytes))]);
    expect({ grade: tampered.grade, notOk: notOk(tampered.comment) }).toEqual({ grade: honest.grade, notOk: notOk(honest.comment) });
    const shown = JSON.stringify(tampered.comment);
    expect(sourceLines(slug).filter((line) => shown.includes(line))).toEqual([]);
  });
});
