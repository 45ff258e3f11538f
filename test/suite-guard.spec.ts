/**
 * The suite's own shape: every test file belongs to exactly one stage (Jest
 * project), no stage is empty, and every e2e file declares the variant(s) it needs, which the
 * e2e sequencer orders by. A file named outside the stages' patterns would silently never run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { declaredVariants } from './support/variant-sequencer';

const REPO = join(__dirname, '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'run', 'results', 'tools', '.nx', '.git', 'coverage']);
// eslint-disable-next-line @typescript-eslint/no-require-imports, @nx/enforce-module-boundaries -- the stages are defined there
const config = require('../jest.config.js') as { projects: { displayName: string; testMatch: string[]; testPathIgnorePatterns: string[] }[] };

/** Files that look like tests by name: *.spec|int|e2e|test.ts(x). */
function testLikeFiles(dir = REPO): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : testLikeFiles(join(dir, e.name));
    return /\.(spec|int|e2e|test)\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [];
  });
}

/** `<rootDir>/**\/*.e2e.ts` → whether `file` matches it (the stages' patterns are all of that form). */
function matches(pattern: string, file: string): boolean {
  const m = /^<rootDir>\/\*\*\/\*(\.[\w.]+)$/.exec(pattern);
  if (!m) throw new Error(`the guard cannot read the testMatch pattern ${pattern}: teach it, or keep the stages' patterns as <rootDir>/**/*.<suffix>`);
  return file.endsWith(m[1]);
}

const files = testLikeFiles();
const inStage = (p: (typeof config.projects)[number], file: string) =>
  p.testMatch.some((pattern) => matches(pattern, file)) && !p.testPathIgnorePatterns.some((ignored) => new RegExp(ignored).test(file));
const stagesOf = (file: string) => config.projects.filter((p) => inStage(p, file)).map((p) => p.displayName);

describe('the test suite', () => {
  it('has every test file in exactly one stage', () => {
    const misplaced = files.map((f) => ({ file: relative(REPO, f), stages: stagesOf(f) })).filter((f) => f.stages.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it('has no empty stage', () => {
    const sizes = Object.fromEntries(config.projects.map((p) => [p.displayName, files.filter((f) => stagesOf(f).includes(p.displayName)).length]));
    expect(Object.entries(sizes).filter(([, n]) => n === 0)).toEqual([]);
  });

  it('has every e2e file declare its variants ("// e2e-variants: …" or "none")', () => {
    const undeclared = files.filter((f) => f.endsWith('.e2e.ts') && declaredVariants(readFileSync(f, 'utf8')) === undefined).map((f) => relative(REPO, f));
    expect(undeclared).toEqual([]);
  });
});
