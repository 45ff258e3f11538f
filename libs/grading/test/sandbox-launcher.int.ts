/**
 * The student sandbox's launcher is compiled with the host's C compiler, once per source version,
 * into the grader's sandbox root; a source that does not compile fails with the fix, never with
 * a grader that silently runs without it.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSandboxLauncher } from '../src/sandbox-launcher';

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sg-launcher-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('is compiled once per source version, an executable beside the owners\' folders', () => {
  const first = buildSandboxLauncher(root);
  const built = statSync(first).mtimeMs;
  expect(first).toMatch(new RegExp(`^${root}/sandbox-exec-[0-9a-f]{16}$`));
  expect(statSync(first).mode & 0o111).not.toBe(0);
  expect(buildSandboxLauncher(root)).toBe(first);
  expect(statSync(first).mtimeMs).toBe(built); // not compiled again
  expect(readdirSync(root)).toEqual([first.slice(root.length + 1)]);
});

it('fails with the fix when its source does not compile', () => {
  const broken = join(root, 'broken.c');
  writeFileSync(broken, 'int main(void) { return nope; }\n');
  expect(() => buildSandboxLauncher(root, [broken])).toThrow(/could not be compiled .*apt-get install gcc/);
  expect(readdirSync(root)).toEqual(['broken.c']); // no half-written binary left
});
