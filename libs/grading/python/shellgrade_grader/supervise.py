"""The grading supervisor: the first process inside the grader's bwrap sandbox (DESIGN §8).

It starts as root inside the sandbox and stays there as a small trusted process:

* it forks the grader, which drops to the grader uid and its resource limits, then runs
  ``grader.py`` exactly as ``python3 -u grader.py statement.html question.tar.gz submitted.tar.gz
  <locale>`` would;
* it answers the grader's ``run_script`` requests on a private socket by running the student's
  script in a sandbox of its own (student_sandbox.py): another uid, another PID namespace, a
  private copy of the tree the script comes from, nothing of the grader or the question visible;
* it exits with the grader's status (128 + n when a signal killed it, as bwrap reports it).

Outside a privileged bwrap sandbox (isolation ``none``, or a service that is not root) there is
nobody to drop privileges to: the grader runs in this process and run_script runs the script
itself, as before.
"""
import marshal
import os
import select
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
    os.umask(0o022)  # bwrap makes the student sandbox's folders with it: 077 would close them to the student
    take_inputs(os.environ.get("SG_INPUT_DIR"))
    parent, child = protocol.socket_pair()
    pid = os.fork()
    if pid == 0:
        parent.close()
        _become_grader(child)
        _run_grader()
    child.close()
    _serve(parent, pid)
    os._exit(_status_of(os.waitpid(pid, 0)[1]))


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
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # drops every capability (bwrap already set no_new_privs)
    if os.environ.get("SG_SECCOMP"):
        seccomp.install(os.environ["SG_SECCOMP"])  # last: the uid change above needs no denied call
    os.environ[protocol.FD_ENV] = str(channel.fileno())
    for key in ("SG_GRADER_UID", "SG_STUDENT_UID", "SG_LIMITS", "SG_WORK_ROOT", "SG_INPUT_DIR", "SG_TMP_BYTES", "SG_JOB_BYTES", "SG_WORK_BYTES", "SG_SECCOMP", "SG_SANDBOX_EXEC"):
        os.environ.pop(key, None)


def run_as_main(path: str, compiled: "str | None" = None) -> None:
    """Runs the script at `path` as `python3 path` would, as module __main__ (what runpy.run_path does,
    without its import of pkgutil and typing: ~4.7 ms of CPU in every grading process, issue 31).
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


def _serve(channel: "protocol.Channel", grader_pid: int) -> None:
    """Runs the grader's requests one at a time until it exits (its children may keep the socket open)."""
    from .student_sandbox import StudentSandbox
    sandbox = StudentSandbox.from_env()
    exited = os.pidfd_open(grader_pid)
    while True:
        ready, _, _ = select.select([channel, exited], [], [])
        if exited in ready:
            return
        request = protocol.receive(channel)
        if request is None:
            return
        try:
            reply = sandbox.run(request)
        except Exception as exc:  # a bad request is the grader's bug: it gets a failed run back
            reply = {"returncode": None, "stdout": "", "stderr": f"the script could not be run: {exc}", "timed_out": False}
        try:
            protocol.send(channel, reply)
        except OSError:
            return


def _status_of(status: int) -> int:
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main() -> None:
    grade(sys.argv[1] if len(sys.argv) > 1 else "en")


if __name__ == "__main__":
    main()
