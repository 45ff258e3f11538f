import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFindings } from '../../src/findings/evaluate';
import { LEVELS } from '../../src/findings/loads';
import { methodology } from '../../src/findings/methodology';
import { findingsPlan } from '../../src/findings/plan';
import { fromPublished } from '../../src/findings/compare-records';
import { checkAllPublished, checkPublished, publicationOf, publishedFrom, README_BEGIN, README_END, renderPublished, withReadmeSection, writePublished, type PublishedFindings } from '../../src/findings/publish';
import { RECORDED_ROLES, useRecordedCells } from './recorded';

const cells = useRecordedCells('sg-publish-');
const repo = join(__dirname, '..', '..', '..');

function published(): PublishedFindings {
  const quick = findingsPlan('quick', { seed: 3, capacity: { rate: 8, source: '--rate' }, roles: RECORDED_ROLES });
  const plan = { ...quick, protocol: { ...quick.protocol, levels: LEVELS } };
  const results = evaluateFindings({ plan, cells: cells() });
  const facts = { host: { cpuModel: 'Test CPU', cores: 2, memGiB: 8, kernel: '6.1', speed: { scryptN14Ms: 40, spawnMs: 1.5 } }, commit: '0123456789abcdef', dirtyRuns: 0, testbed: 'unscaled' };
  const speeds = { 'naked-mon@paper': { scryptN14Ms: 40, spawnMs: 1.5, bootId: 'boot-a' } };
  return publishedFrom({ plan, record: null, methodology: methodology({ plan, cells: cells(), results }), results, speeds }, { record: 'results/findings/test', command: 'npm run findings -- --quick', facts, scorecard: null });
}

describe('published findings (docs/findings): pages rendered from their compact JSON alone', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sg-docs-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('regenerate byte-identical from the JSON; a page edited by hand is named', () => {
    writePublished(published(), dir);
    expect(checkPublished(dir)).toEqual([]);
    const md = join(dir, 'findings.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace('reproduced', 'reproduced!'));
    expect(checkPublished(dir)).toEqual([md]);
  });

  it('the JSON holds verdicts, per-claim rows, methodology, date, commit and host probe — not the run folders', () => {
    const p = published();
    const files = renderPublished(p);
    expect(Object.keys(files).sort()).toEqual(['findings.json', 'findings.md', 'methodology.md']);
    expect(p.claims).toHaveLength(10);
    expect(p.claims[0].rows[0]).toHaveLength(11);
    expect(p.methodology.map((m) => m.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8']);
    expect(files['findings.md']).toContain('**Quick record**');
    expect(files['findings.md']).toContain('commit 0123456789ab, testbed unscaled; Test CPU, 2 cores, 8 GiB, kernel 6.1; speed probe scrypt 2^14 40 ms, spawn 1.5 ms');
    expect(files['findings.md']).toContain('The full record: `npm run findings -- --testbed scaled && npm run bench -- reproduce 000 --testbed scaled');
    expect(files['findings.md']).toContain("Reproduction scorecard (Spearman's ρ of our rankings against Tables I–III): not in this record");
    expect(files['findings.json']).not.toMatch(/"runs":|samples/);
  });

  it("the README's findings section opens with the verdict table, between markers, replaced in place", () => {
    const p = published();
    const readme = '# x\n\n## Layout\n\ntext\n\n## Benchmarks and traces\n\nmore\n';
    const once = withReadmeSection(readme, p);
    expect(once.indexOf('## Findings')).toBeLessThan(once.indexOf('## Benchmarks and traces'));
    const section = once.slice(once.indexOf(README_BEGIN) + README_BEGIN.length, once.indexOf(README_END));
    expect(section.split('\n').find((l) => l.startsWith('| finding | verdict | evidence |'))).toBeDefined();
    expect(withReadmeSection(once, p)).toBe(once);
    const file = join(dir, 'README.md');
    writeFileSync(file, readme);
    writePublished(p, dir, file);
    expect(checkPublished(dir, file)).toEqual([]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('| finding |', '| claim |'));
    expect(checkPublished(dir, file)).toEqual([file]);
  });

  it('keeps each part in numbers and the hosts\' probes, so --compare reads a published record as it reads an evaluated one', () => {
    const p = published();
    const compared = fromPublished(JSON.parse(renderPublished(p)['findings.json']) as PublishedFindings);
    expect(compared.plan).toEqual({ mode: 'quick' });
    expect(compared.speeds).toEqual({ 'naked-mon@paper': { scryptN14Ms: 40, spawnMs: 1.5, bootId: 'boot-a' } });
    expect(compared.results.map((r) => [r.claim.id, r.verdict])).toEqual(p.claims.map((c) => [c.id, c.verdict]));
    const decided = compared.results.flatMap((r) => r.parts).find((x) => x.difference !== null)!;
    expect(decided).toEqual({ test: expect.objectContaining({ level: expect.any(String), metric: expect.any(String) }), difference: { diff: expect.any(Number), lo: expect.any(Number), hi: expect.any(Number) }, verdict: { verdict: expect.any(String) }, evidence: expect.anything() });
    // A file published before the parts were kept compares by verdict alone.
    const old = { ...p, claims: p.claims.map(({ parts: _parts, ...c }) => c) };
    delete old.speeds;
    expect(fromPublished(old).results.every((r) => r.parts.length === 0)).toBe(true);
  });

  it('a quick or smoke record goes to docs/findings/<mode> and leaves the README to the full record', () => {
    expect(publicationOf('full', '/repo')).toEqual({ docsDir: '/repo/docs/findings', readmeFile: '/repo/README.md' });
    expect(publicationOf('quick', '/repo')).toEqual({ docsDir: '/repo/docs/findings/quick' });
    expect(publicationOf('smoke', '/repo', '/elsewhere')).toEqual({ docsDir: '/elsewhere' });
    // --check walks every publication: a hand edit in the quick folder is named too.
    const root = mkdtempSync(join(tmpdir(), 'sg-repo-'));
    writeFileSync(join(root, 'README.md'), '# x\n');
    const full = { ...published(), mode: 'full' as const };
    const q = publicationOf('quick', root);
    writePublished(full, publicationOf('full', root).docsDir, join(root, 'README.md'));
    mkdirSync(q.docsDir, { recursive: true });
    writePublished(published(), q.docsDir);
    expect(checkAllPublished(root)).toEqual([]);
    const md = join(q.docsDir, 'findings.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace('reproduced', 'reproduced!'));
    expect(checkAllPublished(root)).toEqual([md]);
    rmSync(root, { recursive: true, force: true });
  });

  it('the repository holds its own: docs/findings, every record published under it and the README section are what their findings.json renders, byte for byte', () => {
    expect(existsSync(join(repo, 'docs', 'findings', 'findings.json'))).toBe(true);
    expect(checkAllPublished(repo)).toEqual([]);
  });
});
