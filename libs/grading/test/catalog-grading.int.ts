/**
 * Every catalog grader, run for real (Python under bubblewrap), on its good answer (100) and
 * on each bad answer (exactly the expected NOT OK items).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog, loadSamples } from '../src/catalog';
import { catalogJob, grader, makeSandboxRoot, notOk } from './sandbox-helpers';

const sandbox = makeSandboxRoot('catalog');
afterAll(() => sandbox.cleanup());

const exercises = loadCatalog();

describe('catalog', () => {
  it('ships at least 7 exercises, among them the paper payload (~1 KB)', () => {
    expect(exercises.length).toBeGreaterThanOrEqual(7);
    const paper = loadSamples('paper-scripts').good;
    expect(paper.length).toBeGreaterThan(700);
    expect(paper.length).toBeLessThan(1400);
  });

  describe.each(exercises.map((e) => [e.slug]))('%s (bwrap, async)', (slug) => {
    const g = grader(sandbox.root);
    const samples = loadSamples(slug);

    it('grades the good answer 100 with every item OK', async () => {
      const r = await g.grade(catalogJob(slug, samples.good));
      expect(notOk(r.comment)).toEqual([]);
      expect(r.grade).toBe(100);
    });

    it.each(samples.bad.map((b) => [b.name, b]))('bad answer %s: exactly the expected NOT OK items', async (_n, bad) => {
      const r = await g.grade(catalogJob(slug, bad.bytes));
      expect(notOk(r.comment)).toEqual(bad.expectedNotOk);
      const total = r.comment.length;
      expect(r.grade).toBe(Math.floor((100 * (total - bad.expectedNotOk.length)) / total));
    });
  });

  it('grades an answer re-packed by GNU tar the way students do it (`tar czf answer.tgz .`)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-gnutar-'));
    try {
      writeFileSync(join(dir, 'good.tgz'), loadSamples('paper-scripts').good);
      execFileSync('tar', ['xzf', 'good.tgz'], { cwd: dir });
      rmSync(join(dir, 'good.tgz'));
      const repacked = execFileSync('tar', ['czf', '-', '.'], { cwd: dir });
      const r = await grader(sandbox.root).grade(catalogJob('paper-scripts', repacked));
      expect(notOk(r.comment)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no job directory behind', () => {
    expect(sandbox.leftovers()).toEqual([]);
  });
});
