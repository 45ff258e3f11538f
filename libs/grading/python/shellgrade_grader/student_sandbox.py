"""Runs one student script in a sandbox of its own, on behalf of the supervisor (DESIGN §8).

The script gets a fresh sandbox (student_spawn.py): its own PID/IPC/UTS/mount namespaces, the
student uid (not the grader's), read-only system folders, a private /tmp and a private, writable
copy of the folder it comes from (e.g. /job/submission), mounted at the same path so relative
and absolute paths behave as the grader expects. The grader, the question material and the
grader's own tree are not in that sandbox at all, and the copy is thrown away afterwards:
whatever the script writes can change neither the grade nor the files checked after it. Its
output comes back bounded. It shares the grader sandbox's network namespace, which has no
interface but loopback and in which nothing listens (a namespace of its own would cost a
millisecond per run for nothing). The sandbox is built by sandbox-exec, a small C program the
supervisor starts with posix_spawn (student_spawn.py) — not by bwrap, prlimit and setpriv per run.
"""
import itertools
import os
import select
import selectors
import shutil
import time
from pathlib import Path

from .run import interpreter_of
from .student_spawn import Launcher, Spawned, Spec

#: Bytes of stdout and of stderr handed back to the grader (the rest is dropped).
MAX_OUTPUT = 64 * 1024
#: A script printing more than this in total is killed (it would only burn the time budget).
MAX_TOTAL_OUTPUT = 4 * 1024 * 1024
MAX_TIMEOUT = 60.0
JOB_ROOT = Path("/job")


class StudentSandbox:
    def __init__(self, launcher: Launcher, uid: int, limits: str, work_root: Path, tmp_bytes: int, seccomp_filter: "str | None" = None) -> None:
        self.launcher, self.uid, self.limits, self.work_root, self.tmp_bytes = launcher, uid, limits, work_root, tmp_bytes
        self.seccomp_filter = seccomp_filter
        self._runs = itertools.count(1)

    @classmethod
    def from_env(cls) -> "StudentSandbox":
        launcher = os.environ.get("SG_SANDBOX_EXEC")
        if not launcher:
            raise RuntimeError("SG_SANDBOX_EXEC is not set: no student sandbox can be built")
        return cls(Launcher(launcher), int(os.environ["SG_STUDENT_UID"]), os.environ.get("SG_LIMITS", ""),
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
            root = run_dir / "root"
            root.mkdir(mode=0o700)
            env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tree), "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
            spec = Spec([*interp, str(script), *args], env, cwd, copy, tree, root, self.uid, self.limits, self.tmp_bytes, self.seccomp_filter)
            return _run_bounded(self.launcher.spawn(spec), str(request.get("stdin", "")), timeout)
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)


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


def _run_bounded(child: Spawned, stdin: str, timeout: float) -> dict:
    out = {child.stdout: bytearray(), child.stderr: bytearray()}
    pending = memoryview(stdin.encode())
    sel = selectors.DefaultSelector()
    for fd in out:
        sel.register(fd, selectors.EVENT_READ)
    if pending:
        os.set_blocking(child.stdin, False)
        sel.register(child.stdin, selectors.EVENT_WRITE)
    else:
        os.close(child.stdin)
    stdin_open = bool(pending)
    deadline, total, timed_out = time.monotonic() + timeout, 0, False
    while sel.get_map():
        left = deadline - time.monotonic()
        if left <= 0 or total > MAX_TOTAL_OUTPUT:
            timed_out = left <= 0
            break
        for key, _ in sel.select(left):
            if key.fd == child.stdin:
                try:
                    pending = pending[os.write(child.stdin, pending[:65536]):]
                except BrokenPipeError:
                    pending = pending[:0]
                if not pending:
                    sel.unregister(child.stdin)
                    os.close(child.stdin)
                    stdin_open = False
                continue
            chunk = os.read(key.fd, 65536)
            if not chunk:
                sel.unregister(key.fd)
                continue
            total += len(chunk)
            buf = out[key.fd]
            buf += chunk[: max(0, MAX_OUTPUT - len(buf))]
    sel.close()
    if not timed_out and total <= MAX_TOTAL_OUTPUT:
        # the pipes are closed; the script may still run (it closed them itself)
        if not select.select([child.pidfd], [], [], max(0.0, deadline - time.monotonic()))[0]:
            timed_out = True
    child.kill()  # PID 1: the sandbox's namespace goes with it
    returncode = child.wait()
    for fd in (child.stdout, child.stderr) + ((child.stdin,) if stdin_open else ()):
        os.close(fd)
    return {
        "returncode": None if timed_out else returncode,
        "stdout": bytes(out[child.stdout]).decode("utf-8", "replace"),
        "stderr": bytes(out[child.stderr]).decode("utf-8", "replace"),
        "timed_out": timed_out,
    }
