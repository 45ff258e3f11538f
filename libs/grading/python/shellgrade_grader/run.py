"""Runs a student script with a timeout, killing its whole process group on expiry.

Under a supervisor (the bwrap sandbox of a root service) the script runs in a sandbox of its own,
made by the student supervisor (native/student-supervisor.c): another uid, another PID namespace,
a throw-away copy of its folder, and neither the grader nor the question in sight. Elsewhere
(isolation none) it runs here.
"""
import os
import signal
from pathlib import Path

from . import protocol


class RunResult:
    """How a script ended and what it printed: immutable, compared and hashed by value (a frozen
    dataclass once; written out, as feedback.Verdict, so no grading process imports dataclasses)."""

    __slots__ = ("returncode", "stdout", "stderr", "timed_out")
    __match_args__ = __slots__

    def __init__(self, returncode: "int | None", stdout: str, stderr: str, timed_out: bool) -> None:
        for name, value in zip(self.__slots__, (returncode, stdout, stderr, timed_out)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple:
        return (self.returncode, self.stdout, self.stderr, self.timed_out)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"RunResult(returncode={self.returncode!r}, stdout={self.stdout!r}, stderr={self.stderr!r}, timed_out={self.timed_out!r})"


def interpreter_of(script: Path) -> "list[str]":
    """['/bin/bash'] from '#!/bin/bash'; sh when there is no shebang."""
    try:
        with open(script, "rb") as f:
            first = f.readline(256).split(b"\n", 1)[0].decode("utf-8", "replace")
    except OSError:
        return ["/bin/sh"]
    if first.startswith("#!"):
        words = first[2:].strip().split()
        if words:
            return words
    return ["/bin/sh"]


def run_script(script: "str | Path", args=(), cwd: "str | Path | None" = None, timeout: float = 5.0,
               stdin: str = "", use_shebang: bool = True, teacher_material: bool = False) -> RunResult:
    """Runs script through its shebang interpreter (so a missing exec bit is checked separately).

    teacher_material=True runs it beside the grader, without a sandbox of its own (saves ~15 ms):
    only for a script of the question archive, never for anything from the submission.
    """
    path = Path(script).resolve()
    if os.environ.get(protocol.FD_ENV) and not teacher_material:
        return _run_in_student_sandbox(path, args, cwd, timeout, stdin, use_shebang)
    import subprocess  # here: a grader that never runs a script here does not pay for its import

    cmd = (interpreter_of(path) if use_shebang else ["/bin/sh"]) + [str(path), *map(str, args)]
    proc = subprocess.Popen(cmd, cwd=str(cwd or path.parent), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, text=True, errors="replace")
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        return RunResult(proc.returncode, out, err, False)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        return RunResult(None, out, err, True)


_channel = None  # the grader's end of the channel to the supervisor, once opened


def _run_in_student_sandbox(path: Path, args, cwd, timeout: float, stdin: str, use_shebang: bool) -> RunResult:
    global _channel
    if _channel is None:
        _channel = protocol.from_fd(int(os.environ[protocol.FD_ENV]))
    try:
        request = protocol.encode_request(str(path), [str(a) for a in args], str(cwd) if cwd else None, timeout, stdin, use_shebang)
    except (TypeError, ValueError, OverflowError) as exc:  # as the supervisor would answer a request it cannot run
        return RunResult(None, "", f"the script could not be run: {exc}", False)
    protocol.send(_channel, request)
    reply = protocol.receive(_channel)
    if reply is None:
        raise RuntimeError("the student supervisor is gone")
    return RunResult(*protocol.decode_reply(reply))
