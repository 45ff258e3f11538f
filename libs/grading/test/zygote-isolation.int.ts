/**
 * The zygote mode reuses one sandbox for many jobs: a job forked after another
 * must see nothing of it — no file in /job, /tmp or /dev/shm, no process, no SysV IPC object —
 * nor the inbox the service writes the next jobs' inputs to, whether the earlier job ended or was
 * killed at the timeout. One worker (maxConcurrent 1) runs both jobs.
 */
import { execFileSync } from 'node:child_process';
import { closeGraders, grader, makeSandboxRoot, scriptJob } from './sandbox-helpers';

const sandbox = makeSandboxRoot('zygote');
afterAll(() => sandbox.cleanup());
afterEach(async () => {
  await closeGraders();
  expect(sandbox.leftovers()).toEqual([]);
});

const MARKER = 'sgleak4711';

/** Job 1: leaves a trace everywhere a grader can write, and a process that would outlive it. */
const leaver = (then: 'exit' | 'loop') =>
  [
    'import json, os, subprocess',
    `for path in ("/job/${MARKER}", "/tmp/${MARKER}", "/dev/shm/${MARKER}"):`,
    '    open(path, "w").write("secret of job 1")',
    'subprocess.run(["/usr/bin/ipcmk", "-M", "4096"], check=True, stdout=subprocess.DEVNULL)',
    // a detached process in a session of its own, named by the marker, sleeping past both jobs
    `subprocess.Popen(["/bin/bash", "-c", "exec -a ${MARKER} sleep 300"], start_new_session=True)`,
    then === 'loop' ? 'while True:\n    pass' : 'print(json.dumps({"grade": 0, "comment": []}))',
  ].join('\n');

/** Job 2: reports every trace of job 1 it can find, and what it can see of the service's folders. */
const finder = [
  'import json, os, subprocess',
  'found = {}',
  `found["files"] = [p for p in ("/job/${MARKER}", "/tmp/${MARKER}", "/dev/shm/${MARKER}") if os.path.exists(p)]`,
  'procs = []',
  'for pid in filter(str.isdigit, os.listdir("/proc")):',
  '    try:',
  '        procs.append(open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\\0", b" ").decode())',
  '    except OSError:',
  '        pass',
  `found["processes"] = [p for p in procs if "${MARKER}" in p]`,
  'found["shm"] = subprocess.run(["/usr/bin/ipcs", "-m"], capture_output=True, text=True).stdout.count("0x")',
  'def listing(path):',
  '    try:',
  '        return os.listdir(path)',
  '    except OSError as e:',
  '        return type(e).__name__',
  'found["inbox"] = listing("/run/sg-inbox")',
  'found["cgroups"] = listing("/run/sg-cgroup")',
  'print(json.dumps({"grade": 100, "comment": [{"numQ": 1, "verif": "traces", "status": "OK", "expl": json.dumps(found)}]}))',
].join('\n');

const hostProcesses = () =>
  execFileSync('ps', ['-e', '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(MARKER) && !l.includes('ps -e'));

describe('zygote mode: a job sees nothing of the job before it', () => {
  it.each([['exits'], ['is killed at the timeout']])('when the earlier job %s', async (how) => {
    const g = grader(sandbox.root, { exec: 'zygote', maxConcurrent: 1, poolSize: 1, timeoutMs: how === 'exits' ? 10_000 : 2_000 });
    const first = g.grade(scriptJob(leaver(how === 'exits' ? 'exit' : 'loop')));
    if (how === 'exits') expect((await first).grade).toBe(0);
    else await expect(first).rejects.toMatchObject({ details: { timedOut: true } });
    // Its detached sleeper died with the job's PID namespace, before the zygote reported the end.
    expect(hostProcesses()).toEqual([]);

    const second = await g.grade(scriptJob(finder));
    // inbox: the folder the inbox was mounted on, now empty (mounted, it would show this job's own inputs)
    expect(JSON.parse(second.comment[0].expl)).toEqual({ files: [], processes: [], shm: 0, inbox: [], cgroups: 'PermissionError' });
  });
});
