/**
 * The sandbox under hostile graders and students (docs/design.md, The sandbox, Untrusted input):
 * timeouts, fork bombs, huge files, garbage output, escapes and network attempts — each ends in a
 * typed result, with no job directory, process or file left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@shellgrade/domain';
import { SandboxGrader } from '../src/sandbox-grader';
import { asyncJobRunner } from '../src/process-runner';
import type { GradingFailure } from '../src/grading-output';
import { getCatalogExercise, loadSamples } from '../src/catalog';
import { tgz } from './hostile-archives';
import { catalogJob, closeGraders, notOk, grader, makeSandboxRoot, pollUntil, PYTHON, scriptJob } from './sandbox-helpers';
import { specGraderSettings } from './spec-settings';

const sandbox = makeSandboxRoot('safety');
afterAll(() => sandbox.cleanup());
afterEach(async () => {
  await closeGraders();
  expect(sandbox.leftovers()).toEqual([]);
});

/**
 * Processes of the sandbox uid whose name or command line holds `marker` (passed as the locale:
 * an argument of the grader, or in pool and zygote modes the `grade-<locale>` name the job takes).
 */
const sandboxProcesses = (marker?: string, uid: string | null = '65534') =>
  execFileSync('ps', ['-e', '-o', 'uid=,comm=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => (uid === null || l.trim().startsWith(`${uid} `)) && (marker === undefined || l.includes(marker)));

/** What the server log keeps of a failure (never shown to the student). */
const diagnostics = (err: DomainError) => (err as GradingFailure).diagnostics;

async function failure(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(() => new Error('resolved but should have failed'), (e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe.each([['async'], ['blocking'], ['pool'], ['zygote']] as const)('a hostile grader (bwrap, %s)', (exec) => {
  it('that loops forever is killed at the wall-clock timeout', async () => {
    const g = grader(sandbox.root, { exec, timeoutMs: 1500 });
    const marker = `en_LP${exec.slice(0, 2)}`;
    const grading = failure(g.grade(scriptJob('while True:\n    pass\n', undefined, marker)));
    // (blocking mode holds the event loop: nothing can be observed until it returns)
    if (exec !== 'blocking') await pollUntil('the looping grader is running', () => sandboxProcesses(marker).length > 0);
    const err = await grading;
    // The timeout (not a limit or a crash) ended it, and took its whole process tree along.
    expect(err.kind).toBe('grading-failed');
    expect(err.details.timedOut).toBe(true);
    expect(err.details.signal).not.toBe('SIGXCPU');
    expect(sandboxProcesses(marker)).toEqual([]);
  });

  it('that forks many processes hits the process limit, and no child survives', async () => {
    // RLIMIT_NPROC counts every process of uid 65534 on the machine (other sandboxes too).
    const g = grader(sandbox.root, { exec, limits: { processes: 24 } });
    const script = [
      'import json, os, time',
      'forked = 0',
      'try:',
      '    for _ in range(200):',
      '        if os.fork() == 0:',
      '            time.sleep(60)',
      '            os._exit(0)',
      '        forked += 1',
      'except OSError as e:',
      '    err = str(e)',
      'print(json.dumps({"grade": 0, "comment": [{"numQ": 1, "verif": "forks", "status": "NOT OK", "expl": str(forked)}]}))',
    ].join('\n');
    const marker = `en_FK${exec.slice(0, 2)}`;
    const r = await g.grade(scriptJob(script, undefined, marker));
    const forked = Number(r.comment[0].expl);
    expect(forked).toBeLessThan(24);
    // The children slept 60 s: the pid namespace dies with the grader.
    expect(forked).toBeGreaterThan(0);
    expect(sandboxProcesses(marker)).toEqual([]);
  });

  it('that writes a huge file is stopped by the file-size limit', async () => {
    const g = grader(sandbox.root, { exec, limits: { fileSizeBytes: 1024 * 1024 } });
    const script = 'with open("big.bin", "wb") as f:\n    for _ in range(100):\n        f.write(b"x" * 1024 * 1024)\n';
    const err = await failure(g.grade(scriptJob(script)));
    expect(err.kind).toBe('grading-failed');
    expect(String(diagnostics(err).stderrTail)).toMatch(/File too large/);
  });

  it('that allocates too much memory is stopped by the memory limit', async () => {
    const g = grader(sandbox.root, { exec, limits: { memoryBytes: 256 * 1024 * 1024 } });
    const err = await failure(g.grade(scriptJob('blob = bytearray(1024 * 1024 * 1024)\nprint(len(blob))')));
    expect(err.kind).toBe('grading-failed');
    expect(String(diagnostics(err).stderrTail)).toMatch(/MemoryError/);
  });

  it('that burns CPU is stopped by the CPU-seconds limit before the wall-clock timeout', async () => {
    const g = grader(sandbox.root, { exec, timeoutMs: 20_000, limits: { cpuSeconds: 1 } });
    const err = await failure(g.grade(scriptJob('while True:\n    pass\n')));
    // SIGXCPU and no timeout: the CPU-seconds limit ended it, before the wall clock did.
    expect(err.kind).toBe('grading-failed');
    expect(err.details.timedOut).toBe(false);
    expect(err.details.signal).toBe('SIGXCPU');
    expect(err.message).toMatch(/CPU time limit \(1 s\)/);
  });

  it('that leaves locked folders behind still gets its job directory removed', async () => {
    const script = [
      'import json, os',
      'os.makedirs("locked/deeper")',
      'open("locked/deeper/f.txt", "w").write("x")',
      'os.chmod("locked/deeper", 0)',
      'os.chmod("locked", 0)',
      'print(json.dumps({"grade": 0, "comment": []}))',
    ].join('\n');
    const r = await grader(sandbox.root, { exec }).grade(scriptJob(script));
    expect(r.grade).toBe(0); // afterEach checks the directory is gone
  });

  it('that prints invalid JSON yields a typed failure, the output kept for the log only', async () => {
    const err = await failure(grader(sandbox.root, { exec }).grade(scriptJob('print("this is not json")')));
    expect(err.kind).toBe('grading-failed');
    expect(err.message).toBe('the grader printed a result that is not valid JSON');
    expect(diagnostics(err).stdoutTail).toBe('this is not json');
  });

  it('that prints JSON breaking the contract (grade 150, bad status) fails', async () => {
    const script = 'print(\'{"grade": 150, "comment": [{"numQ": 1, "verif": "v", "status": "maybe", "expl": ""}]}\')';
    const err = await failure(grader(sandbox.root, { exec }).grade(scriptJob(script)));
    expect(err.message).toMatch(/grade/);
    expect(err.message).toMatch(/status/);
  });

  it('that exits non-zero reports the exit code to the student and its stderr to the server log only', async () => {
    const logged: string[] = [];
    const g = grader(sandbox.root, { exec, log: (l) => logged.push(l) });
    const err = await failure(g.grade({ ...scriptJob('import sys\nsys.stderr.write("boom at " + __file__ + "\\n")\nsys.exit(3)'), productionId: 4242 }));
    expect(err.details).toMatchObject({ exitCode: 3, timedOut: false });
    expect(err.message).toBe('the grader stopped with an error (exit code 3)');
    expect(JSON.stringify(err.details)).not.toMatch(/boom|grader\.py/);
    expect(diagnostics(err).stderrTail).toContain('boom');
    expect(logged).toEqual([expect.stringMatching(/production 4242 .*boom/)]);
  });
});

describe('event loop', () => {
  /**
   * Whether the event loop ever ran while the grader process was alive: a 20 ms interval looks
   * for the grader (which sleeps 1 s) each time it fires. A held loop fires only after it is gone.
   */
  async function loopRanBesideGrader(exec: 'async' | 'blocking' | 'pool'): Promise<boolean> {
    const g = grader(sandbox.root, { exec, poolSize: 1 });
    await g.grade(scriptJob('print(\'{"grade": 0, "comment": []}\')')); // warm up (pool)
    const marker = `en_EL${exec.slice(0, 2)}`;
    let sawGrader = false;
    const timer = setInterval(() => {
      if (sandboxProcesses(marker).length > 0) sawGrader = true;
    }, 20);
    try {
      await g.grade(scriptJob('import time\ntime.sleep(1)\nprint(\'{"grade": 0, "comment": []}\')', undefined, marker));
    } finally {
      clearInterval(timer);
    }
    return sawGrader;
  }

  it('is held for the whole grading in blocking mode (the paper monolith) and stays free otherwise', async () => {
    expect(await loopRanBesideGrader('blocking')).toBe(false);
    expect(await loopRanBesideGrader('async')).toBe(true);
    expect(await loopRanBesideGrader('pool')).toBe(true);
  });
});

describe.each([['async'], ['zygote']] as const)('isolation (bwrap, %s)', (exec) => {
  it('runs a student script as another uid in its own PID namespace, on a throw-away copy, blind to the grader and the question', async () => {
    const probe = [
      '#!/bin/sh',
      'echo "uid=$(id -u)"',
      // every process it can see, one command line per line; the [.] keeps grep from finding itself
      'echo "seen=$(for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done | grep -c -e "grader[.]py" -e "super[v]ise")"',
      'for f in /job/grader.py /job/question /job/statement.html /job/submitted.tar.gz; do [ -e "$f" ] && echo "sees=$f"; done',
      'echo tampered > answers.txt && echo "wrote=copy"',
      'kill -9 -1 2>/dev/null; echo "alive=yes"',
      // no capability can come back, no privilege through exec; only the system, its copy, /tmp, /proc and /dev in sight
      'grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):" /proc/self/status | tr -d " \t"',
      'echo "foreign=$(ls / | grep -vxE "bin|dev|etc|job|lib|lib32|lib64|libx32|proc|sbin|tmp|usr" | tr "\n" ,)"',
    ].join('\n');
    const script = [
      'import json, os',
      'from shellgrade_grader import Grading, run_script',
      'g = Grading.from_argv()',
      'g.question_root("SCRIPTS")',
      'root = g.submission_root("SCRIPTS")',
      'before = (root / "answers.txt").read_text()',
      `(root / "probe.sh").write_text(${JSON.stringify(probe)})`,
      'r = run_script(root / "probe.sh")',
      'facts = {"out": r.stdout.split(), "unchanged": (root / "answers.txt").read_text() == before, "grader_uid": os.getuid()}',
      'print(json.dumps({"grade": 100, "comment": [{"numQ": 1, "verif": "probe", "status": "OK", "expl": json.dumps(facts)}]}))',
    ].join('\n');
    const r = await grader(sandbox.root, { exec }).grade(scriptJob(script));
    expect(JSON.parse(r.comment[0].expl)).toEqual({
      out: [
        'uid=65533',
        'seen=0',
        'wrote=copy',
        'alive=yes',
        ...['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'].map((set) => `${set}:0000000000000000`),
        'NoNewPrivs:1',
        'foreign=',
      ],
      unchanged: true,
      grader_uid: 65534,
    });
  });

  it("runs student scripts only from the extracted folders, feeds their stdin and bounds their output and time (the student supervisor's rules)", async () => {
    const script = [
      'import json',
      'from shellgrade_grader import Grading, run_script',
      'g = Grading.from_argv()',
      'question = g.question_root("SCRIPTS")',
      'root = g.submission_root("SCRIPTS")',
      'def write(name, body):',
      '    (root / name).write_text("#!/bin/sh\\n" + body + "\\n")',
      '    return root / name',
      'echo = write("echo.sh", \'printf "%s|" "$@"; cat\')',
      'chatty = write("chatty.sh", "yes x | head -c 100000")',
      'flood = write("flood.sh", "yes flood")',
      'sleepy = write("sleepy.sh", "sleep 30")',
      'import os, shutil',
      'os.makedirs("/tmp/elsewhere")',
      'shutil.copy(echo, "/tmp/elsewhere/echo.sh")',
      'runs = {',
      '    "etc": run_script("/etc/passwd"),',
      '    "grader": run_script("/job/grader.py"),',
      '    "tmp": run_script("/tmp/elsewhere/echo.sh"),',
      '    "escape": run_script(root / ".." / ".." / "grader.py"),',
      '    "cwd": run_script(echo, cwd=question),',
      '    "echo": run_script(echo, args=["a b", ""], stdin="in\\nput"),',
      '    "chatty": run_script(chatty),',
      '    "flood": run_script(flood, timeout=20),',
      '    "sleepy": run_script(sleepy, timeout=0.5),',
      '}',
      '# one feedback item a run: the text of an item is bounded (500 characters)',
      'items = [{"numQ": i, "verif": k, "status": "OK", "expl": json.dumps([r.returncode, r.timed_out, len(r.stdout), r.stdout[:20], r.stderr])}',
      '         for i, (k, r) in enumerate(runs.items(), 1)]',
      'print(json.dumps({"grade": 100, "comment": items}))',
    ].join('\n');
    const r = await grader(sandbox.root, { exec, timeoutMs: 30_000 }).grade(scriptJob(script));
    const outside = 'the script could not be run: scripts run only from a folder the grader extracted under /job';
    expect(Object.fromEntries(r.comment.map((c) => [c.verif, JSON.parse(c.expl)]))).toEqual({
      etc: [null, false, 0, '', outside],
      grader: [null, false, 0, '', outside],
      tmp: [null, false, 0, '', outside],
      escape: [null, false, 0, '', outside],
      cwd: [null, false, 0, '', "the script could not be run: the working folder must be in the script's folder tree"],
      echo: [0, false, 11, 'a b||in\nput', ''],
      chatty: [0, false, 64 * 1024, 'x\n'.repeat(10), ''], // the first 64 KiB of its 100,000 bytes
      flood: [137, false, 64 * 1024, 'flood\n'.repeat(4).slice(0, 20), ''], // killed past 4 MiB in all, before its time was up
      sleepy: [null, true, 0, '', ''],
    });
  });

  it('runs the grader as uid 65534 with no network, a read-only system and only its job dir writable', async () => {
    const script = [
      'import json, os, socket',
      'probe = {"uid": os.getuid(), "cwd": os.getcwd()}',
      'def attempt(name, fn):',
      '    try:',
      '        fn(); probe[name] = "allowed"',
      '    except Exception as e:',
      '        probe[name] = "denied" if isinstance(e, OSError) else type(e).__name__',
      'attempt("write_usr", lambda: open("/usr/sg-owned", "w"))',
      'attempt("write_etc", lambda: open("/etc/sg-owned", "w"))',
      'attempt("read_repo", lambda: os.listdir("/work"))',
      'attempt("read_root_home", lambda: os.listdir("/root/.ssh"))',
      'attempt("write_python", lambda: open(os.path.dirname(os.__file__) + "/sg-owned.py", "w"))',
      'attempt("network", lambda: socket.create_connection(("1.1.1.1", 53), timeout=2))',
      'attempt("write_job", lambda: open("mine.txt", "w").write("ok"))',
      'print(json.dumps({"grade": 100, "comment": [{"numQ": 1, "verif": "probe", "status": "OK", "expl": json.dumps(probe)}]}))',
    ].join('\n');
    const r = await grader(sandbox.root, { exec }).grade(scriptJob(script));
    const probe = JSON.parse(r.comment[0].expl);
    expect(probe).toEqual({
      uid: 65534,
      cwd: '/job',
      write_usr: 'denied',
      write_etc: 'denied',
      read_repo: 'denied',
      read_root_home: 'denied',
      write_python: 'denied',
      network: 'denied',
      write_job: 'allowed',
    });
  });

  describe('a student script that attacks the host', () => {
    let server: Server;
    let connections = 0;
    let port = 0;
    const hostDir = mkdtempSync(join(tmpdir(), 'sg-host-'));
    const canary = join(hostDir, 'PWNED');

    beforeAll(async () => {
      server = createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(hostDir, { recursive: true, force: true });
    });

    it.each([['bwrap'], ['none']] as const)('%s: is graded safely; under bwrap it can neither write outside the sandbox nor connect out', async (isolation) => {
      const attack = [
        '#!/bin/bash',
        `{ echo pwned > ${canary}; } 2>/dev/null`,
        `{ echo pwned > /tmp/../${canary.slice(1)}; } 2>/dev/null`,
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null`,
        'if [ $# -lt 1 ]; then echo "usage: greet.sh NAME" >&2; exit 1; fi',
        'printf "Hello, %s!\\n" "$1"',
        '',
      ].join('\n');
      const submission = await tgz([
        { name: 'SCRIPT/', type: 'directory', mode: 0o755 },
        { name: 'SCRIPT/README.txt', body: 'Write greet.sh in this folder.\n' },
        { name: 'SCRIPT/greet.sh', body: attack, mode: 0o755 },
      ]);
      const r = await grader(sandbox.root, { isolation, exec: isolation === 'bwrap' ? exec : 'async' }).grade(catalogJob('greet-script', submission));
      expect(r.comment.filter((c) => c.status !== 'OK')).toEqual([]); // still does its job: graded normally
      expect(r.grade).toBe(100);
      if (isolation === 'bwrap') {
        expect(existsSync(canary)).toBe(false);
        expect(connections).toBe(0);
      } else {
        // isolation none is the measured baseline without protection: the same attack succeeds.
        expect(existsSync(canary)).toBe(true);
        rmSync(canary, { force: true });
      }
    });
  });
});

describe('hostile archives through the grader', () => {
  it('are rejected before anything is written (no job directory, nothing outside)', async () => {
    const { hostileCases } = await import('./hostile-archives');
    for (const c of await hostileCases()) {
      const err = await failure(new SandboxGrader({ python: PYTHON, sandboxRoot: sandbox.root, timeoutMs: 5000, isolation: 'bwrap', archiveLimits: c.limits, ...specGraderSettings() }, asyncJobRunner).grade(scriptJob('print(1)', c.bytes)));
      expect({ name: c.name, kind: err.kind }).toEqual({ name: c.name, kind: c.kind });
      expect(sandbox.leftovers()).toEqual([]);
    }
    expect(existsSync('/tmp/sg-owned.txt')).toBe(false);
  });
});

describe('configuration', () => {
  it('refuses the zygote mode without bwrap isolation', () => {
    expect(() => grader(sandbox.root, { exec: 'zygote', isolation: 'none' })).toThrow(/exec zygote needs isolation bwrap/);
  });

  it('fails clearly when bubblewrap is missing', () => {
    expect(() => grader(sandbox.root, { bwrapPath: '/nonexistent/bwrap' })).toThrow(/bubblewrap.*apt-get install bubblewrap/);
  });

  it.each([
    ['async', 'none'],
    ['blocking', 'bwrap'],
    ['blocking', 'none'],
    ['pool', 'bwrap'],
    ['pool', 'none'],
    ['zygote', 'bwrap'],
  ] as const)('grades the paper samples the same in %s mode with isolation %s', async (exec, isolation) => {
    const g = grader(sandbox.root, { exec, isolation, poolSize: 2 });
    const samples = loadSamples('paper-scripts');
    expect((await g.grade(catalogJob('paper-scripts', samples.good))).grade).toBe(100);
    const results = await Promise.all(samples.bad.map((b) => g.grade(catalogJob('paper-scripts', b.bytes))));
    expect(results.map((r) => notOk(r.comment))).toEqual(samples.bad.map((b) => b.expectedNotOk));
    expect(getCatalogExercise('paper-scripts').topFolder).toBe('SCRIPTS');
  });

  it('pool mode keeps warm sandboxes ready and stops them on close', async () => {
    const g = grader(sandbox.root, { exec: 'pool', poolSize: 2, isolation: 'bwrap' });
    // (a warm supervisor waits as root inside its sandbox: it drops to 65534 once it has a job)
    await pollUntil('two warm interpreters', () => sandboxProcesses('shellgrade_grader.warm', null).length >= 2);
    expect(sandbox.leftovers()).toHaveLength(2); // two ready job dirs, interpreters waiting
    await g.close();
    expect(sandbox.leftovers()).toEqual([]);
    await pollUntil('the warm interpreters gone', () => sandboxProcesses('shellgrade_grader.warm', null).length === 0);
  });
});
