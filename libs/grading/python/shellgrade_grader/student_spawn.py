"""Starts one student script in a sandbox of its own, straight from the supervisor (issue 31).

What bwrap + prlimit + setpriv did in four programs, done here by one clone() and one exec:

* clone() makes the sandbox's first process (PID 1 of new PID, mount, IPC, UTS and cgroup
  namespaces), which builds a fresh root — a tmpfs holding read-only /usr (and the /bin, /lib...
  links), a few /etc files, fresh /proc, a minimal /dev, a private /tmp, and the script's
  throw-away copy at its own path — then pivots into it and drops the old root;
* that PID 1 stays as the namespace's reaper (as bwrap's did: the script is never PID 1, so its
  signals behave as anywhere) and forks the script's process, which takes a session of its own,
  the resource limits (as root: hard limits it cannot raise), drops every capability (bounding,
  inheritable, permitted), becomes the student uid, sets no_new_privs, loads the system-call
  filter last, and executes the interpreter;
* PID 1 exits with the script's status (128 + n for a signal, as bwrap reported it); killing it
  from outside ends the whole namespace.
"""
import os
import signal
from pathlib import Path

from . import namespaces as ns
from . import seccomp
from .limits import apply_limits
from .supervise import _status_of

SYSTEM_LINKS = ("/bin", "/lib", "/lib64", "/sbin")
ETC_FILES = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime")
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
DEV_LINKS = {"core": "/proc/kcore", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"}
NAMESPACES = ns.CLONE_NEWNS | ns.CLONE_NEWPID | ns.CLONE_NEWIPC | ns.CLONE_NEWUTS | ns.CLONE_NEWCGROUP
#: The status of a sandbox that could not be set up or whose interpreter could not be executed (bwrap's).
SETUP_FAILED = 1


class Spec:
    """Everything the sandbox needs, gathered before the clone (nothing is read after the root changes)."""

    def __init__(self, argv: "list[str]", env: "dict[str, str]", cwd: Path, copy: Path, tree: Path, root: Path,
                 uid: int, limits: "dict[str, int]", tmp_bytes: int, filter_program: "bytes | None") -> None:
        self.argv, self.env, self.cwd, self.copy, self.tree, self.root = argv, env, cwd, copy, tree, root
        self.uid, self.limits, self.tmp_bytes, self.filter_program = uid, limits, tmp_bytes, filter_program


class Spawned:
    """The sandbox's PID 1 as the supervisor sees it: its pipes, a pidfd, kill and wait."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.pidfd = os.pidfd_open(pid)  # our child: it cannot be reaped, nor its pid reused, before we wait
        self._status: "int | None" = None

    def kill(self) -> None:
        """SIGKILL to PID 1 ends every process of the namespace."""
        if self._status is None:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def wait(self) -> int:
        if self._status is None:
            self._status = _status_of(os.waitpid(self.pid, 0)[1])
            os.close(self.pidfd)
        return self._status


def spawn(spec: Spec) -> Spawned:
    stdin_r, stdin_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = ns.clone(NAMESPACES)
    if pid == 0:
        status = SETUP_FAILED
        try:
            os.dup2(stdin_r, 0)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            os.closerange(3, 1 << 20)  # nothing of the supervisor's (its socket to the grader, the pipes' other ends)
            status = _init(spec)
        except BaseException as exc:
            # (no traceback module: importing it costs every grading ~1 ms, and after the pivot the
            # interpreter's library is out of reach anyway)
            os.write(2, f"sandbox: setup failed: {type(exc).__name__}: {exc}\n".encode())
        finally:
            os._exit(status)
    for fd in (stdin_r, out_w, err_w):
        os.close(fd)
    return Spawned(pid, stdin_w, out_r, err_r)


def _init(spec: Spec) -> int:
    """PID 1: the new root, then the script's process; returns the script's status once it is gone."""
    ns.die_with_parent()
    ns.make_mounts_private()
    _build_root(spec)
    os.chdir(spec.root)
    ns.pivot_root_here()
    script = os.fork()
    if script == 0:
        try:
            _become_student(spec)
            os.execvpe(spec.argv[0], spec.argv, spec.env)
        except BaseException as exc:
            os.write(2, f"sandbox: execvp {spec.argv[0]}: {exc}\n".encode())
        os._exit(SETUP_FAILED)
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)  # the pipes end when the script's processes are gone, not when PID 1 is
    os.close(devnull)
    while True:  # orphans are ours to reap; the script's own status ends the sandbox
        pid, status = os.waitpid(-1, 0)
        if pid == script:
            return _status_of(status)


def _build_root(spec: Spec) -> None:
    r = str(spec.root)
    ns.tmpfs(r, 1 << 20, 0o755)
    _mkdir(r + "/usr")
    ns.bind("/usr", r + "/usr", read_only=True)
    for d in SYSTEM_LINKS:
        if os.path.islink(d):
            os.symlink(os.readlink(d), r + d)
        elif os.path.isdir(d):
            _mkdir(r + d)
            ns.bind(d, r + d, read_only=True)
    _mkdir(r + "/etc")
    for f in ETC_FILES:
        if os.path.isdir(f):
            _mkdir(r + f)
        elif os.path.exists(f):
            open(r + f, "w").close()
        else:
            continue
        ns.bind(f, r + f, read_only=True)
    _mkdir(r + "/tmp")
    ns.tmpfs(r + "/tmp", spec.tmp_bytes, 0o1777)
    _build_dev(r + "/dev")
    _mkdir(r + "/proc")
    # hidepid: the script sees its own processes only, not this root PID 1 (a copy of the supervisor)
    ns.mount("proc", r + "/proc", "proc", ns.MS_NOSUID | ns.MS_NODEV | ns.MS_NOEXEC, "hidepid=2")
    top = r + str(spec.tree)
    os.makedirs(top, mode=0o755)
    os.chmod(os.path.dirname(top), 0o755)
    ns.bind(str(spec.copy), top, read_only=False)


def _build_dev(dev: str) -> None:
    """bwrap --dev: a tmpfs with the harmless devices bound from the grader sandbox's /dev, and a private pts."""
    _mkdir(dev)
    ns.mount("tmpfs", dev, "tmpfs", ns.MS_NOSUID, "mode=0755")
    for name in DEVICES:
        if os.path.exists("/dev/" + name):
            open(f"{dev}/{name}", "w").close()
            ns.bind("/dev/" + name, f"{dev}/{name}", read_only=False, devices=True)
    for name, target in DEV_LINKS.items():
        os.symlink(target, f"{dev}/{name}")
    _mkdir(dev + "/shm")
    _mkdir(dev + "/pts")
    try:
        ns.mount("devpts", dev + "/pts", "devpts", ns.MS_NOSUID | ns.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
    except OSError:
        pass  # no terminal for scripts, as under a bwrap without devpts


def _become_student(spec: Spec) -> None:
    """The script's process: its session, limits, no capability, the student uid, the filter; then exec."""
    os.setsid()
    os.chdir(spec.cwd)
    apply_limits(spec.limits)  # as root: the hard limits can no longer be raised
    ns.drop_bounding_set()
    os.setgroups([])
    os.setresgid(spec.uid, spec.uid, spec.uid)
    os.setresuid(spec.uid, spec.uid, spec.uid)
    ns.clear_capabilities()
    ns.die_with_parent()  # the uid change cleared it: PID 1's death takes the script along
    ns.no_new_privs()
    for sig in range(1, signal.NSIG):  # a fresh process's dispositions, not the supervisor's
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if spec.filter_program is not None:
        seccomp.install_program(spec.filter_program)  # last: nothing above needs a denied call


def _mkdir(path: str) -> None:
    os.mkdir(path, 0o755)
    os.chmod(path, 0o755)  # whatever the umask

