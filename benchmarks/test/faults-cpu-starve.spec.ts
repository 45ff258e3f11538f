// CPU starvation: real stress-ng hogs started beside a real process, on exactly the CPUs
// it may use, found again by their tag and killed by the fault's undo (also what a later start
// replays after a crash of the harness: the tag lives in the hogs' environment, not in the harness).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { allowedCpus, cgroupPaths, startCpuHogs } from '../src/faults/cpu-starve';
import { performUndo, taggedPids } from '../src/faults/undo';

const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

// A bound that names a hang, not a speed check: the hogs take every CPU this test shares.
jest.setTimeout(60_000);

/** Resolves once `probe` holds, re-checked every 50 ms (no deadline but the hang bound). */
async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 50));
}

it('hogs one stress-ng worker per allowed CPU beside the target, and the tagged undo kills every one of them', async () => {
  const target = spawn('sleep', ['600'], { stdio: 'ignore' });
  try {
    const cpus = allowedCpus(target.pid!).length;
    startCpuHogs(target.pid!, 120, 'faults-spec-tag');
    // The parent and one worker per CPU, all tagged (the workers inherit the environment).
    await until(() => taggedPids('faults-spec-tag').filter((p) => comm(p).startsWith('stress-ng')).length >= cpus + 1);
    const hogs = taggedPids('faults-spec-tag');
    performUndo({ kind: 'kill-tagged', tag: 'faults-spec-tag' });
    // Gone, or a zombie waiting for its reaper: none of them runs any more.
    await until(() => hogs.every((p) => !existsSync(`/proc/${p}`) || /\) Z /.test(readFileSync(`/proc/${p}/stat`, 'utf8'))));
  } finally {
    target.kill('SIGKILL');
    // A failed run leaves no hog behind (the parent carries the tag, whatever the walk found).
    for (const p of taggedPids('faults-spec-tag')) process.kill(p, 'SIGKILL');
  }
});

it('reads the cpu and cpuset groups of a process from /proc/<pid>/cgroup (v1 and v2 lines)', () => {
  const paths = cgroupPaths('4:memory:/a\n3:cpuset:/sut\n1:cpu,cpuacct:/sut/x\n0::/unified\n');
  expect(paths.get('cpu')).toBe('/sut/x');
  expect(paths.get('cpuacct')).toBe('/sut/x');
  expect(paths.get('cpuset')).toBe('/sut');
  expect(paths.get('')).toBe('/unified');
});
