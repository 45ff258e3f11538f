/** Runs the Python helper library's own pytest suite with the grader interpreter. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { helperLibDir } from '../src/assets';
import { PYTHON } from './sandbox-helpers';

it('shellgrade_grader passes its pytest suite', () => {
  const r = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(helperLibDir(), 'tests')], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: helperLibDir(), PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`pytest failed (status ${r.status}, ${r.error?.message ?? ''}):\n${r.stdout}\n${r.stderr}`);
  expect(r.stdout).toMatch(/\d+ passed/);
});
