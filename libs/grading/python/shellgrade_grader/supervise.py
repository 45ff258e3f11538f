"""The grading job: grader.py, with a supervisor for the student's scripts (docs/design.md, Untrusted input).

The job's process starts as root inside the grader's sandbox. It

* starts the student supervisor — sandbox-exec --supervise, a small C program (native/
  student-supervisor.c) — with posix_spawn, one end of a private socket pair as its fd 3: it
  answers the grader's ``run_script`` requests by running the student's script in a sandbox of
  its own (another uid, another PID namespace, a private copy of the tree the script comes from,
  nothing of the grader or the question visible) and stays root, out of the grader's reach;
* then drops to the grader uid and its resource limits itself and runs ``grader.py`` exactly as
  ``python3 -u grader.py statement.html question.tar.gz submitted.tar.gz <locale>`` would, in
  this same process: one Python process per grading (a Python supervisor forking the
  grader was a second copy of the interpreter per job);
* exits with the grader's status.

Outside a privileged bwrap sandbox (isolation ``none``, or a service that is not root) there is
nobody to drop privileges to: the grader runs in this process and run_script runs the script
itself, as before.
"""
import marshal
import os
import signal
import types
import shutil
import sys

from . import protocol, seccomp
from .extract import MANIFEST_NAME
from .limits import apply_limits, parse_limits

GRADER_ARGV = ["grader.py", "statement.html", "question.tar.gz", "submitted.tar.gz"]
#: grader.py as the service compiled it (libs/grading/src/grader-bytecode.ts): marshal of (source, code).
GRADER_CODE = "grader.code"


def grade(locale: str) -> None:
    """Runs grader.py for `locale`, under a supervisor when the sandbox allows one; never returns."""
    sys.argv = [*GRADER_ARGV, locale]
    if not _privileged_sandbox():
        apply_limits(parse_limits(os.environ.get("SG_LIMITS", "")))
        _run_grader()
    os.umask(0o022)  # the student supervisor makes the work folders with it: 077 would close them to the student
    take_inputs(os.environ.get("SG_INPUT_DIR"))
    channel = _start_student_supervisor()
    _become_grader(channel)
    _run_grader()


#: Every signal a fresh process would hold at its default (this process ignores SIGPIPE, as Python does).
_ALL_SIGNALS = tuple(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})  # (not the C library's own, 32 and 33: a warning each)


def _start_student_supervisor() -> "protocol.Channel":
    """Starts sandbox-exec --supervise as root with its end of the channel as fd 3; returns the grader's end."""
    env = os.environ
    launcher = env.get("SG_SANDBOX_EXEC")
    if not launcher:
        raise RuntimeError("SG_SANDBOX_EXEC is not set: no student sandbox can be built")
    args = [launcher, "--supervise", "--uid", env["SG_STUDENT_UID"], "--tmp-bytes", env.get("SG_TMP_BYTES", str(16 << 20)),
            "--work-root", env.get("SG_WORK_ROOT", "/run/sg-work"), "--limits", env.get("SG_LIMITS", "")]
    if env.get("SG_SECCOMP"):
        args += ["--filter", env["SG_SECCOMP"]]
    ours, theirs = protocol.socket_pair()
    os.posix_spawn(launcher, args, {}, file_actions=[(os.POSIX_SPAWN_DUP2, theirs.fileno(), 3),
                                                     (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)],
                   setsigdef=_ALL_SIGNALS, setsigmask=())
    theirs.close()
    return ours


def _privileged_sandbox() -> bool:
    return os.environ.get("SG_ISOLATION") == "bwrap" and os.getuid() == 0 and "SG_GRADER_UID" in os.environ


def take_inputs(source: "str | None") -> None:
    """Copies the inputs from the read-only host folder into the working folder (/job, a tmpfs of bounded size), the grader's."""
    if not source:
        return
    for name in GRADER_ARGV + [MANIFEST_NAME]:
        shutil.copyfile(os.path.join(source, name), name)
        os.chmod(name, 0o644)
    if os.path.exists(os.path.join(source, GRADER_CODE)):  # (the service's compiled grader, when it has one)
        shutil.copyfile(os.path.join(source, GRADER_CODE), GRADER_CODE)
        os.chmod(GRADER_CODE, 0o644)
    uid = int(os.environ["SG_GRADER_UID"])
    os.chown(".", uid, uid)


def _become_grader(channel: "protocol.Channel") -> None:
    uid = int(os.environ["SG_GRADER_UID"])
    limits = parse_limits(os.environ.get("SG_LIMITS", ""))
    apply_limits(limits)  # as root, before the uid change: the hard limits can no longer be raised
    if os.getpid() == 1:
        _die_of_the_cpu_limit_as_pid_1()
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # drops every capability (bwrap already set no_new_privs)
    if os.environ.get("SG_SECCOMP"):
        seccomp.install(os.environ["SG_SECCOMP"])  # last: the uid change above needs no denied call
    os.environ[protocol.FD_ENV] = str(channel.fileno())
    for key in ("SG_GRADER_UID", "SG_STUDENT_UID", "SG_LIMITS", "SG_WORK_ROOT", "SG_INPUT_DIR", "SG_TMP_BYTES", "SG_JOB_BYTES", "SG_WORK_BYTES", "SG_SECCOMP", "SG_SANDBOX_EXEC"):
        os.environ.pop(key, None)


def _die_of_the_cpu_limit_as_pid_1() -> None:
    """A zygote's job is PID 1 of its namespace, which the kernel spares the default action of a signal
    like SIGXCPU: the soft CPU limit would pass unnoticed until the hard limit's SIGKILL. Ended as the
    signal would have ended it, the job's status (128 + SIGXCPU) names the cause."""
    signal.signal(signal.SIGXCPU, lambda *_: os._exit(128 + signal.SIGXCPU))


def run_as_main(path: str, compiled: "str | None" = None) -> None:
    """Runs the script at `path` as `python3 path` would, as module __main__ (what runpy.run_path does,
    without its import of pkgutil and typing: ~4.7 ms of CPU in every grading process).
    `compiled`: a file of marshal((source, code)) to run instead of compiling, if its source is the script's."""
    with open(path, "rb") as f:
        source = f.read()
    code = _precompiled(compiled, source) or compile(source, path, "exec")
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    previous = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        if previous is not None:
            sys.modules["__main__"] = previous


def _precompiled(compiled: "str | None", source: bytes) -> "types.CodeType | None":
    """The code in `compiled` when it was compiled from exactly `source`; None otherwise (missing,
    stale or unreadable: the caller compiles, as without it)."""
    if compiled is None:
        return None
    try:
        with open(compiled, "rb") as f:
            known_source, code = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if known_source == source and isinstance(code, types.CodeType) else None


def _run_grader() -> None:
    code = 0
    try:
        run_as_main("grader.py", GRADER_CODE)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            sys.stderr.write(f"{exc.code}\n")
    except BaseException:  # the grader crashed: its traceback goes to stderr, never to stdout
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _status_of(status: int) -> int:
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main() -> None:
    grade(sys.argv[1] if len(sys.argv) > 1 else "en")


if __name__ == "__main__":
    main()
