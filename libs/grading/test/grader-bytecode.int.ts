/**
 * Each exercise's grader is compiled once per service process, with the graders' own interpreter,
 * into what the supervisor runs instead of compiling grader.py per grading: marshal of
 * (source, code), which the supervisor runs only for that exact source (pytest, test_helpers.py).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraderBytecode } from '../src/grader-bytecode';
import { graderPython } from '../src/grader-python';
import { helperLibDir } from '../src/assets';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sg-bytecode-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An interpreter that records each start, then is the graders' own. */
function countingPython(): { python: string; starts: () => number } {
  const log = join(dir, 'starts');
  writeFileSync(log, '');
  const python = join(dir, 'python');
  writeFileSync(python, `#!/bin/sh\necho x >> '${log}'\nexec '${graderPython()}' "$@"\n`);
  chmodSync(python, 0o755);
  return { python, starts: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

it('compiles a grader once, and what it gives the supervisor runs as that grader', async () => {
  const { python, starts } = countingPython();
  const bytecode = new GraderBytecode(python);
  const source = "import sys\nprint('graded', sys.argv[1:])\n";
  const [first, again] = await Promise.all([bytecode.of(source), bytecode.of(source)]);
  expect(first).toBeDefined();
  expect(again).toBe(first);
  expect(await bytecode.of(source)).toBe(first);
  expect(starts()).toBe(1);
  writeFileSync(join(dir, 'grader.py'), source);
  writeFileSync(join(dir, 'grader.code'), first!);
  // The supervisor's own loader takes it as this grader's code, and runs it.
  const load = "sys.argv = ['grader.py', 'x']; print(supervise._precompiled('grader.code', open('grader.py', 'rb').read()) is not None); supervise.run_as_main('grader.py', 'grader.code')";
  const run = spawnSync(graderPython(), ['-S', '-c', `import sys; from shellgrade_grader import supervise; ${load}`], {
    cwd: dir,
    env: { PYTHONPATH: helperLibDir() },
    encoding: 'utf8',
  });
  expect(run.stdout).toBe("True\ngraded ['x']\n");
  await bytecode.of(source + '# another version\n');
  expect(starts()).toBe(2);
});

it('gives no code for a grader that does not compile: the grading reports its SyntaxError as before', async () => {
  expect(await new GraderBytecode(graderPython()).of('def broken(:\n')).toBeUndefined();
});

it('gives no code when the interpreter cannot be started', async () => {
  expect(await new GraderBytecode(join(dir, 'no-python')).of('print(1)\n')).toBeUndefined();
});
