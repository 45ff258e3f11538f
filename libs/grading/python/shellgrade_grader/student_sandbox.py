"""Runs one student script in a sandbox of its own, on behalf of the supervisor (DESIGN §8).

The script gets a fresh bwrap: its own PID/IPC/UTS namespaces, the student uid (not the
grader's), read-only system folders, a private /tmp and a private, writable copy of the folder it
comes from (e.g. /job/submission), mounted at the same path so relative and absolute paths
behave as the grader expects. The grader, the question material and the grader's own tree are
not in that sandbox at all, and the copy is thrown away afterwards: whatever the script writes
can change neither the grade nor the files checked after it. Its output comes back bounded.
It shares the grader sandbox's network namespace, which has no interface but loopback and in
which nothing listens (a namespace of its own would cost a millisecond per run for nothing).
Limits are applied by prlimit in the command, not in a preexec hook: Python then spawns with
vfork, several milliseconds cheaper per run.
"""
import itertools
import os
import selectors
import shutil
import signal
import subprocess
import time
from pathlib import Path

from .limits import parse_limits, prlimit_args
from .run import interpreter_of

#: Bytes of stdout and of stderr handed back to the grader (the rest is dropped).
MAX_OUTPUT = 64 * 1024
#: A script printing more than this in total is killed (it would only burn the time budget).
MAX_TOTAL_OUTPUT = 4 * 1024 * 1024
MAX_TIMEOUT = 60.0
SYSTEM_LINKS = ("/bin", "/lib", "/lib64", "/sbin")
ETC_FILES = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime")
JOB_ROOT = Path("/job")


class StudentSandbox:
    def __init__(self, uid: int, limits: "dict[str, int]", work_root: Path, tmp_bytes: int, seccomp_filter: "str | None" = None) -> None:
        self.uid, self.limits, self.work_root, self.tmp_bytes = uid, limits, work_root, tmp_bytes
        self.seccomp_filter = seccomp_filter
        self._runs = itertools.count(1)

    @classmethod
    def from_env(cls) -> "StudentSandbox":
        return cls(int(os.environ["SG_STUDENT_UID"]), parse_limits(os.environ.get("SG_LIMITS", "")),
                   Path(os.environ.get("SG_WORK_ROOT", "/run/sg-work")), int(os.environ.get("SG_TMP_BYTES", 16 << 20)),
                   os.environ.get("SG_SECCOMP") or None)

    def run(self, request: dict) -> dict:
        script, tree = _inside_job(str(request["script"]))
        cwd, cwd_tree = _inside_job(str(request.get("cwd") or script.parent))
        if cwd_tree != tree:
            raise ValueError("the working folder must be in the script's folder tree")
        timeout = min(max(float(request.get("timeout", 5.0)), 0.1), MAX_TIMEOUT)
        run_dir = self.work_root / f"run-{next(self._runs)}"
        copy = run_dir / tree.name
        run_dir.mkdir(mode=0o711)
        try:
            shutil.copytree(tree, copy, symlinks=True)
            _chown_tree(copy, self.uid)
            interp = interpreter_of(copy / script.relative_to(tree)) if request.get("use_shebang", True) else ["/bin/sh"]
            args = [str(a) for a in request.get("args", [])]
            # One descriptor per run: bwrap reads the program from its current offset, shared with the last run's.
            filter_fd = os.open(self.seccomp_filter, os.O_RDONLY) if self.seccomp_filter else None
            try:
                cmd = self._command(copy, tree, cwd, filter_fd) + [*interp, str(script), *args]
                return _run_bounded(cmd, str(request.get("stdin", "")), timeout, () if filter_fd is None else (filter_fd,))
            finally:
                if filter_fd is not None:
                    os.close(filter_fd)
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)

    def _command(self, copy: Path, tree: Path, cwd: Path, filter_fd: "int | None") -> "list[str]":
        a = ["/usr/bin/bwrap", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
             "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
        for d in SYSTEM_LINKS:
            if os.path.islink(d):
                a += ["--symlink", os.readlink(d), d]
            elif os.path.isdir(d):
                a += ["--ro-bind", d, d]
        a += ["--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", str(JOB_ROOT)]  # bwrap makes parents 0700
        for f in ETC_FILES:
            a += ["--ro-bind-try", f, f]
        a += ["--proc", "/proc", "--dev", "/dev", "--size", str(self.tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp",
              "--bind", str(copy), str(tree), "--chdir", str(cwd), "--clearenv"]
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tree), "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
        for k, v in env.items():
            a += ["--setenv", k, v]
        if filter_fd is not None:
            a += ["--seccomp", str(filter_fd)]  # loaded by bwrap last, just before the script's command runs
        uid = str(self.uid)
        return a + ["--", *prlimit_args(self.limits), "/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--no-new-privs",
                    "--inh-caps=-all", "--bounding-set=-all", "--"]


def _inside_job(path: str) -> "tuple[Path, Path]":
    """The resolved path and the top folder under /job holding it; refuses anything else."""
    real = Path(os.path.realpath(JOB_ROOT / path))
    rel = real.relative_to(JOB_ROOT)  # ValueError outside /job
    if len(rel.parts) < 1 or not (JOB_ROOT / rel.parts[0]).is_dir():
        raise ValueError("scripts run only from a folder the grader extracted under /job")
    return real, JOB_ROOT / rel.parts[0]


def _chown_tree(root: Path, uid: int) -> None:
    os.lchown(root, uid, uid)
    for here, dirs, files in os.walk(root):
        for name in dirs + files:
            os.lchown(os.path.join(here, name), uid, uid)


def _run_bounded(cmd: "list[str]", stdin: str, timeout: float, pass_fds: "tuple[int, ...]" = ()) -> dict:
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, pass_fds=pass_fds)
    out = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    pending = memoryview(stdin.encode())
    sel = selectors.DefaultSelector()
    for stream in out:
        sel.register(stream, selectors.EVENT_READ)
    if pending:
        os.set_blocking(proc.stdin.fileno(), False)
        sel.register(proc.stdin, selectors.EVENT_WRITE)
    else:
        proc.stdin.close()
    deadline, total, timed_out = time.monotonic() + timeout, 0, False
    while sel.get_map():
        left = deadline - time.monotonic()
        if left <= 0 or total > MAX_TOTAL_OUTPUT:
            timed_out = left <= 0
            break
        for key, _ in sel.select(left):
            if key.fileobj is proc.stdin:
                try:
                    pending = pending[os.write(proc.stdin.fileno(), pending[:65536]):]
                except BrokenPipeError:
                    pending = pending[:0]
                if not pending:
                    sel.unregister(proc.stdin)
                    proc.stdin.close()
                continue
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                sel.unregister(key.fileobj)
                continue
            total += len(chunk)
            buf = out[key.fileobj]
            buf += chunk[: max(0, MAX_OUTPUT - len(buf))]
    sel.close()
    if not timed_out and total <= MAX_TOTAL_OUTPUT:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the sandbox's PID namespace goes with it
    except ProcessLookupError:
        pass
    returncode = proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if not stream.closed:
            stream.close()
    return {
        "returncode": None if timed_out else returncode,
        "stdout": bytes(out[proc.stdout]).decode("utf-8", "replace"),
        "stderr": bytes(out[proc.stderr]).decode("utf-8", "replace"),
        "timed_out": timed_out,
    }
