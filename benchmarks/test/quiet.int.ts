/**
 * The wait for an idle system against the real /proc/stat: a process spinning on CPU 0 keeps
 * CPU 0 busy, so the wait ends not quiet, with about one core measured. (Only the busy half:
 * whether CPU 0 is idle depends on what else the test run has on it.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { waitForQuiet } from '../src/quiet';

let spinner: ChildProcess;

afterAll(async () => {
  if (spinner.exitCode === null) {
    const exited = once(spinner, 'exit');
    spinner.kill('SIGKILL');
    await exited;
  }
});

it('a process spinning on CPU 0 keeps CPU 0 busy: the wait ends not quiet, near one core', async () => {
  spinner = spawn('taskset', ['-c', '0', 'node', '-e', 'for (;;) {}'], { stdio: 'ignore' });
  await once(spinner, 'spawn');
  const q = await waitForQuiet([0], { thresholdCores: 0.5, quietS: 2, timeoutS: 3 });
  expect(q.quiet).toBe(false);
  expect(q.waitedS).toBe(3);
  expect(q.lastCores).toBeGreaterThan(0.8);
  expect(q.cpus).toEqual([0]);
});
