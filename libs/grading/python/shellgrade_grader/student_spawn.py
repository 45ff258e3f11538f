"""Starts one student script in a sandbox of its own, straight from the supervisor (issue 31).

The sandbox is built by a small C program, sandbox-exec (libs/grading/native/sandbox-exec.c,
compiled on the host by the service and bound read-only into the grader's sandbox), started with
posix_spawn: a vfork, so nothing of the supervisor's memory is copied — two Python copies of the
supervisor (a clone() for PID 1 and a fork() for the script) cost a grading ~5 ms of page
faults and interpreter work. For its first process to be PID 1 of a new PID namespace, the
supervisor unshares CLONE_NEWPID just around the spawn and joins its own namespace again.

What sandbox-exec does: new mount, IPC, UTS and cgroup namespaces, a fresh root (read-only /usr,
a few /etc files, fresh /proc, a minimal /dev, a private /tmp, the script's throw-away copy at
its own path), pivot; it stays as the namespace's reaper (the script is never PID 1) and forks
the script's process, which takes a session of its own, the resource limits, drops every
capability, becomes the student uid, sets no_new_privs, loads the system-call filter last and
executes the interpreter. It exits with the script's status (128 + n for a signal, as bwrap
reported it); killing it ends the whole namespace.
"""
import os
import signal
from pathlib import Path

from . import namespaces as ns
from .supervise import _status_of

#: Every signal a fresh process would hold at its default (the supervisor ignores SIGPIPE, as Python does).
_ALL_SIGNALS = tuple(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})  # (not the C library's own, 32 and 33: a warning each)


class Spec:
    """Everything the sandbox needs, gathered by the supervisor (sandbox-exec reads nothing else)."""

    def __init__(self, argv: "list[str]", env: "dict[str, str]", cwd: Path, copy: Path, tree: Path, root: Path,
                 uid: int, limits: str, tmp_bytes: int, filter_path: "str | None") -> None:
        self.argv, self.env, self.cwd, self.copy, self.tree, self.root = argv, env, cwd, copy, tree, root
        self.uid, self.limits, self.tmp_bytes, self.filter_path = uid, limits, tmp_bytes, filter_path

    def command(self, launcher: str) -> "list[str]":
        options = {"--root": self.root, "--tree": self.tree, "--copy": self.copy, "--cwd": self.cwd,
                   "--uid": self.uid, "--tmp-bytes": self.tmp_bytes, "--limits": self.limits}
        if self.filter_path:
            options["--filter"] = self.filter_path
        return [launcher, *(str(x) for pair in options.items() for x in pair), "--", *self.argv]


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


class Launcher:
    """posix_spawn of sandbox-exec as PID 1 of a fresh PID namespace, from the supervisor's own namespace."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._own_pid_namespace = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)

    def spawn(self, spec: Spec) -> Spawned:
        stdin_r, stdin_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        ns.unshare(ns.CLONE_NEWPID)  # only the next child is moved: it becomes PID 1 of a new namespace
        try:
            pid = os.posix_spawn(self.path, spec.command(self.path), spec.env,
                                 file_actions=[(os.POSIX_SPAWN_DUP2, stdin_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
                                               (os.POSIX_SPAWN_DUP2, err_w, 2)],
                                 setsigdef=_ALL_SIGNALS, setsigmask=())
        finally:
            ns.join_pid_namespace(self._own_pid_namespace)  # later children are ours again
            for fd in (stdin_r, out_w, err_w):
                os.close(fd)
        return Spawned(pid, stdin_w, out_r, err_r)
