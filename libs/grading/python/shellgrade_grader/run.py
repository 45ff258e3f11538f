"""Runs a student script with a timeout, killing its whole process group on expiry."""
import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RunResult:
    returncode: "int | None"
    stdout: str
    stderr: str
    timed_out: bool


def interpreter_of(script: Path) -> "list[str]":
    """['/bin/bash'] from '#!/bin/bash'; sh when there is no shebang."""
    try:
        first = script.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    except OSError:
        return ["/bin/sh"]
    if first.startswith("#!"):
        words = first[2:].strip().split()
        if words:
            return words
    return ["/bin/sh"]


def run_script(script: "str | Path", args=(), cwd: "str | Path | None" = None, timeout: float = 5.0,
               stdin: str = "", use_shebang: bool = True) -> RunResult:
    """Runs script through its shebang interpreter (so a missing exec bit is checked separately)."""
    path = Path(script).resolve()
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
