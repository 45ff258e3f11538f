/**
 * Runs the Python helper library's own pytest suite with the grader interpreter. That interpreter
 * has no pip (and graders run without site-packages), so pytest itself is borrowed from the research
 * tools' Python (scripts/tools-python.sh): pure Python, same 3.11 line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { helperLibDir } from '../src/assets';
import { PYTHON } from './sandbox-helpers';

const toolsPython = process.env.SG_TOOLS_PYTHON ?? execFileSync('bash', ['scripts/tools-python.sh'], { encoding: 'utf8' }).trim();
const pytestHome = execFileSync(toolsPython, ['-c', 'import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))'], { encoding: 'utf8' }).trim();

it('shellgrade_grader passes its pytest suite', () => {
  const r = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(helperLibDir(), 'tests')], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: [helperLibDir(), pytestHome].join(':'), PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`pytest failed (status ${r.status}, ${r.error?.message ?? ''}):\n${r.stdout}\n${r.stderr}`);
  expect(r.stdout).toMatch(/\d+ passed/);
});
