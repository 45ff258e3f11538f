import { buildSandboxCommand, pythonPrefix } from '../src/sandbox-command';
import { graderPython } from '../src/grader-python';
import { SPEC_LIMITS } from './spec-settings';

const python = graderPython();
const base = { bwrapPath: '/usr/bin/bwrap', python, helperLibDir: '/repo/libs/grading/python', jobDir: '/sb/job-1', locale: 'fr', limits: SPEC_LIMITS };

describe('buildSandboxCommand', () => {
  it('runs the grading contract command line under prlimit', () => {
    const cmd = buildSandboxCommand({ ...base, isolation: 'none' });
    expect(cmd.file).toBe('/usr/bin/prlimit');
    expect(cmd.args.slice(-6)).toEqual(['-u', 'grader.py', 'statement.html', 'question.tar.gz', 'submitted.tar.gz', 'fr']);
    expect(cmd.args).toEqual(expect.arrayContaining([`--cpu=${SPEC_LIMITS.cpuSeconds}:${SPEC_LIMITS.cpuSeconds + 1}`, `--nproc=${SPEC_LIMITS.processes}`]));
    expect(cmd.cwd).toBe('/sb/job-1');
    expect(cmd.env.PYTHONPATH).toBe('/repo/libs/grading/python');
  });

  it('under bwrap unshares everything but the user namespace and starts the supervisor, told to grade as 65534 and run students as 65533', () => {
    const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap' });
    expect(cmd.file).toBe('/usr/bin/bwrap');
    const a = cmd.args;
    for (const flag of ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--new-session', '--clearenv']) expect(a).toContain(flag);
    expect(a).not.toContain('--unshare-user');
    const sep = a.indexOf('--');
    expect(a.slice(sep + 1)).toEqual([python, '-S', '-u', '-m', 'shellgrade_grader.supervise', 'fr']);
    const env = (k: string) => a[a.findIndex((x, i) => x === '--setenv' && a[i + 1] === k) + 2];
    expect([env('SG_GRADER_UID'), env('SG_STUDENT_UID')]).toEqual(['65534', '65533']);
    expect(env('SG_LIMITS')).toBe(`${SPEC_LIMITS.cpuSeconds}:${SPEC_LIMITS.fileSizeBytes}:${SPEC_LIMITS.processes}:${SPEC_LIMITS.memoryBytes}:${SPEC_LIMITS.openFiles}`);
    // nothing of the host is writable: the job dir comes in read-only, the grader works in size-bounded tmpfs
    expect(a).not.toContain('--bind');
    expect(a.join(' ')).toContain('--ro-bind /sb/job-1 /run/sg-input');
    const tmpfs = a.flatMap((x, i) => (x === '--tmpfs' ? [`${a[i + 1]} ${a[i - 3]}`] : []));
    expect(tmpfs).toEqual([`/tmp ${SPEC_LIMITS.tmpBytes}`, `/run/sg-work ${SPEC_LIMITS.workBytes}`, `/job ${SPEC_LIMITS.jobBytes}`]);
    expect(a.join(' ')).toContain(`--ro-bind ${pythonPrefix(python)} ${pythonPrefix(python)}`);
  });

  it('binds the filter and the student sandbox\'s launcher read-only and names them to the supervisor (root bwrap only)', () => {
    const given = { seccompFilter: '/sb/seccomp.bpf', sandboxLauncher: '/sb/sandbox-exec-0123' };
    const a = buildSandboxCommand({ ...base, isolation: 'bwrap', ...given }).args;
    const env = (k: string) => a[a.findIndex((x, i) => x === '--setenv' && a[i + 1] === k) + 2];
    expect(a.join(' ')).toContain('--ro-bind /sb/sandbox-exec-0123 /opt/shellgrade/sandbox-exec');
    expect([env('SG_SANDBOX_EXEC'), env('SG_SECCOMP')]).toEqual(['/opt/shellgrade/sandbox-exec', '/opt/shellgrade/seccomp.bpf']);
    const unprivileged = buildSandboxCommand({ ...base, isolation: 'bwrap', privileged: false, ...given }).args;
    expect(unprivileged.join(' ')).not.toContain('sandbox-exec');
  });

  it('for a non-root service maps its uid to 65534 in a user namespace, under prlimit and without a supervisor', () => {
    const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap', privileged: false });
    expect(cmd.args.slice(0, 5)).toEqual(['--unshare-user', '--uid', '65534', '--gid', '65534']);
    expect(cmd.args).not.toContain('shellgrade_grader.supervise');
    expect(cmd.args[cmd.args.indexOf('--') + 1]).toBe('/usr/bin/prlimit');
  });

  it('joins the grading\'s control groups first, and lifts the per-uid process limit the cgroup replaces', () => {
    const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap', cgroupProcs: ['/cg/pids/j/cgroup.procs', '/cg/memory/j/cgroup.procs'] });
    expect([cmd.file, ...cmd.args.slice(2, 6)]).toEqual(['/bin/sh', 'sg-cgroup', '/cg/pids/j/cgroup.procs', '/cg/memory/j/cgroup.procs', '--']);
    expect(cmd.args[6]).toBe('/usr/bin/bwrap');
    expect(cmd.args[cmd.args.indexOf('SG_LIMITS') + 1].split(':')[2]).toBe('unlimited');
  });

  it('wraps blocking runs in coreutils timeout', () => {
    const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap', wallClockSeconds: 2.5 });
    expect([cmd.file, ...cmd.args.slice(0, 2)]).toEqual(['/usr/bin/timeout', '--signal=KILL', '2.5']);
  });

  describe('niceness', () => {
    const autogroupStep = (args: string[]) => args.indexOf('/bin/sh');

    it('is absent at 0: the grader runs at the service priority', () => {
      const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap', niceness: 0 });
      expect(cmd.file).toBe('/usr/bin/bwrap');
      expect(autogroupStep(cmd.args)).toBe(-1);
    });

    it('renices the process and, while still root in the sandbox, the session autogroup', () => {
      const cmd = buildSandboxCommand({ ...base, isolation: 'bwrap', niceness: 10 });
      expect([cmd.file, ...cmd.args.slice(0, 3)]).toEqual(['/usr/bin/nice', '-n', '10', '/usr/bin/bwrap']);
      const sh = autogroupStep(cmd.args);
      expect(cmd.args[sh - 1]).toBe('--');
      expect(cmd.args.slice(sh + 1, sh + 5)).toEqual(['-c', '{ echo "$0" > /proc/self/autogroup; } 2>/dev/null; exec "$@"', '10', python]);
    });

    it('leaves the autogroup alone where the grader shares the service session (blocking, unsandboxed)', () => {
      const blocking = buildSandboxCommand({ ...base, isolation: 'none', niceness: 5, wallClockSeconds: 2 });
      expect(blocking.args.slice(2, 6)).toEqual(['/usr/bin/nice', '-n', '5', '/usr/bin/prlimit']);
      expect(autogroupStep(blocking.args)).toBe(-1);
      const detached = buildSandboxCommand({ ...base, isolation: 'none', niceness: 5 });
      expect(detached.args.slice(0, 3)).toEqual(['-n', '5', '/bin/sh']);
    });

    it('refuses values outside 0..19', () => {
      expect(() => buildSandboxCommand({ ...base, isolation: 'none', niceness: 20 })).toThrow(/0\.\.19/);
      expect(() => buildSandboxCommand({ ...base, isolation: 'none', niceness: -1 })).toThrow(/0\.\.19/);
    });
  });
});
