import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepDeadOwners } from '../src/job-dirs';
import { grader, makeSandboxRoot } from './sandbox-helpers';

describe('job directories of a crashed process', () => {
  const sandbox = makeSandboxRoot('sweep');
  afterAll(() => sandbox.cleanup());

  it('are removed by the next grader, while a live process keeps its own', () => {
    // a pid that surely existed and is gone: a short-lived child we waited for
    const deadPid = spawnSync('true').pid as number;
    const dead = join(sandbox.root, `p${deadPid}`, 'job-7-abc');
    const live = join(sandbox.root, `p${process.ppid}`, 'job-8-def');
    for (const dir of [dead, live]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'submitted.tar.gz'), 'x');
    }
    grader(sandbox.root); // construction sweeps
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(sweepDeadOwners(sandbox.root)).toEqual([]);
  });
});
