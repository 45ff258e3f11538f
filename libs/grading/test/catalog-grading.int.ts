/**
 * Every catalog grader, run for real (Python under bubblewrap), on its good answer (100) and
 * on each bad answer (exactly the expected NOT OK items).
 */
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

  it('leaves no job directory behind', () => {
    expect(sandbox.leftovers()).toEqual([]);
  });
});
