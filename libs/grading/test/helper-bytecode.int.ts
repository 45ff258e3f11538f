/**
 * Every grading imports the helper library in a fresh interpreter that cannot write
 * bytecode (read-only bind, PYTHONDONTWRITEBYTECODE). A module whose bytecode is stale is compiled
 * again by every grading, so a grader brings the library's bytecode up to date when it starts.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { helperLibDir } from '../src/assets';
import { HELPER_PACKAGE } from '../src/helper-bytecode';
import { grader, makeSandboxRoot, PYTHON } from './sandbox-helpers';

/** The helper modules a fresh, non-writing interpreter compiles from source when it imports the library as the supervisor does. */
function compiledFromSource(libDir: string): string[] {
  const r = spawnSync(PYTHON, ['-S', '-v', '-c', `import ${HELPER_PACKAGE}.supervise, ${HELPER_PACKAGE}.run`], {
    encoding: 'utf8',
    env: { PYTHONPATH: libDir, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr.slice(-2000)}`);
  // "# code object from <path>.py" when compiled from source, "# code object from '<path>.pyc'" when read from bytecode
  return [...r.stderr.matchAll(/^# code object from (\S+\.py)$/gm)].map((m) => m[1]).filter((p) => p.startsWith(libDir));
}

describe('the helper library bytecode', () => {
  const sandbox = makeSandboxRoot('bytecode');
  const lib = join(sandbox.root, 'lib');
  afterAll(() => sandbox.cleanup());

  it('is brought up to date when a grader starts, so no grading compiles a helper module', () => {
    cpSync(join(helperLibDir(), HELPER_PACKAGE), join(lib, HELPER_PACKAGE), { recursive: true });
    rmSync(join(lib, HELPER_PACKAGE, '__pycache__'), { recursive: true, force: true });
    spawnSync(PYTHON, ['-S', '-m', 'compileall', '-q', lib]); // bytecode as a catalog build leaves it...
    appendFileSync(join(lib, HELPER_PACKAGE, 'supervise.py'), '\n# edited after the build\n'); // ...and an edit since
    expect(compiledFromSource(lib)).toEqual([join(lib, HELPER_PACKAGE, 'supervise.py')]);

    grader(join(sandbox.root, 'jobs'), { isolation: 'none', helperLibDir: lib });

    expect(compiledFromSource(lib)).toEqual([]);
  });
});
