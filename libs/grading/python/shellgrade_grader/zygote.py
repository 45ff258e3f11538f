"""The zygote of exec mode `zygote`: one long-lived, already-sandboxed interpreter per worker that
clones a fresh, isolated job for each grading (docs/design.md, Untrusted input).

Started once inside the worker's bwrap sandbox as root (python -S -u -m shellgrade_grader.zygote),
with the stdlib and the helper library imported and one grading of synthetic material rehearsed
(rehearsal.py: every job then starts from specialised bytecode). For each job line on stdin it
clones a child that

* joins the grading's control groups (pids, memory: the whole job is bounded, as in async mode);
* leaves for namespaces of its own — mount, PID, IPC, UTS, cgroup — and mounts fresh, empty
  tmpfs over /job, /tmp, /dev/shm and the students' work folder, so nothing a previous job wrote
  is in sight and nothing this job writes outlives it;
* copies its four inputs from its inbox folder, then unmounts the inbox and the control-group
  folders: the grader cannot see another job's files or change its own limits;
* mounts a /proc of the new PID namespace and grades exactly as a fresh sandbox would
  (supervise.py: grader.py as uid 65534 under its limits, in this same process; each student
  script in a nested sandbox as another uid, started by the C student supervisor).

The child is made by clone() straight into its new namespaces, so it is itself the job's PID 1
and the grader: one Python process per job (a fork, an unshare and a second fork for
PID 1 made three, then a Python supervisor forking the grader two).

When that PID 1 exits, the kernel kills every other process of its namespace before the zygote
can reap it: reaping it means the job is entirely gone. The zygote then writes an end marker
on the job's output channels and its status line. It never reads a job's output or inputs —
they go from the inbox straight into the job's tmpfs and from the job straight to the service
(fds 3 and 4, inherited) — so a later job, forked from the zygote, inherits nothing of an
earlier one: not a file, not a process, not a byte of memory.

Channels: stdin takes one JSON line per job ({"job", "locale", "cgroup"}) and {"kill": true}
while one runs; stdout answers one JSON line per job ({"job", "status", "marker"}); the job's
stdout and stderr are fds 3 and 4, each ending with the marker once the job is over.
"""
import gc
import json
import os
import re
import select
import signal
import sys
import traceback

from . import namespaces as ns
from .procname import show_as
from . import rehearsal, supervise
from . import checks, extract, feedback, grading, run  # noqa: F401
import pathlib  # noqa: F401
import shutil  # noqa: F401
import subprocess  # noqa: F401
import gzip  # noqa: F401  (tarfile imports it on the first .tar.gz: once here, not once per job)
import tarfile  # noqa: F401

INBOX = "/run/sg-inbox"
CGROUPS = "/run/sg-cgroup"
JOB_OUT, JOB_ERR = 3, 4
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
LOCALE = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")
#: The job's exit status when its sandbox could not be set up (the grader never ran).
SETUP_FAILED = 125


class Requests:
    """Lines from stdin read with os.read, so select() on fd 0 never misses a buffered line."""

    def __init__(self) -> None:
        self._pending = b""

    def next(self, block: bool = True) -> "dict | None":
        """The next request; None at end of input, or (block=False) when no whole line is there."""
        while b"\n" not in self._pending:
            if not block and not select.select([0], [], [], 0)[0]:
                return None
            chunk = os.read(0, 65536)
            if not chunk:
                if block:
                    return None
                raise EOFError
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)


def main() -> None:
    ns.become_subreaper()  # a job's PID 1 orphaned by a kill is re-parented here, to be reaped
    rehearsal.rehearse()  # specialised bytecode and filled caches, inherited by every job
    gc.collect()
    gc.freeze()  # what is imported stays out of the jobs' collections: fewer copied pages per fork
    requests = Requests()
    while True:
        request = requests.next()
        if request is None:
            return
        if "job" not in request:
            continue  # a kill that arrived after its job ended
        try:
            status = _run_job(request, requests)
        except EOFError:  # the service is gone: the sandbox goes with this process
            os._exit(0)
        except Exception:  # a bad request or a failed fork: report it with the job, keep serving
            os.write(JOB_ERR, traceback.format_exc().encode())
            status = SETUP_FAILED
        _finish(str(request["job"]), status)


def _run_job(request: dict, requests: Requests) -> int:
    name = str(request["job"])
    if not NAME.match(name):
        raise ValueError("bad job name")
    locale = str(request.get("locale") or "en")
    locale = locale if LOCALE.match(locale) else "en"
    cgroup = request.get("cgroup")
    if cgroup is not None and not NAME.match(str(cgroup)):
        raise ValueError("bad control group name")
    child = ns.clone(ns.CLONE_NEWNS | ns.CLONE_NEWPID | ns.CLONE_NEWIPC | ns.CLONE_NEWUTS)
    if child == 0:
        status = SETUP_FAILED
        try:
            _job(name, locale, cgroup)  # never returns
        except BaseException:
            traceback.print_exc()  # to the job's stderr: the service logs it with the failure
        finally:
            os._exit(status)
    return _watch(child, requests)


def _job(name: str, locale: str, cgroup: "str | None") -> None:
    """The job's PID 1 (its own mount, PID, IPC and UTS namespaces from the clone): control groups,
    a cgroup namespace, fresh mounts, inputs; then the grading, in this same process."""
    _own_stdio()
    show_as(f"grade-{locale}")
    ns.die_with_parent()  # a killed zygote takes the job along
    if cgroup:
        _join_cgroups(cgroup)
    ns.unshare(ns.CLONE_NEWCGROUP)  # after joining: the grading's group is the root the job sees
    ns.make_mounts_private()
    env = os.environ
    ns.tmpfs("/job", int(env["SG_JOB_BYTES"]), 0o755)
    ns.tmpfs("/tmp", int(env["SG_TMP_BYTES"]), 0o1777)
    ns.tmpfs(env["SG_WORK_ROOT"], int(env["SG_WORK_BYTES"]), 0o711)
    if os.path.isdir("/dev/shm"):
        ns.tmpfs("/dev/shm", int(env["SG_TMP_BYTES"]), 0o1777)
    os.chdir("/job")
    supervise.take_inputs(os.path.join(INBOX, name))
    for mount in [os.path.join(CGROUPS, d) for d in sorted(os.listdir(CGROUPS))] + [INBOX]:
        ns.detach(mount)
    # (no setsid: a new session would leave the autogroup the service reniced)
    ns.mount("proc", "/proc", "proc", ns.MS_NOSUID | ns.MS_NODEV | ns.MS_NOEXEC)
    supervise.grade(locale)


def _watch(child: int, requests: Requests) -> int:
    """Waits for the job, killing it on request; returns once every process of the job is gone."""
    exited = os.pidfd_open(child)  # our child: not reaped, its pid not reused, before we wait
    killed = False
    try:
        while True:
            while (request := requests.next(block=False)) is not None:
                if request.get("kill") and not killed:
                    killed = True
                    signal.pidfd_send_signal(exited, signal.SIGKILL)  # PID 1 takes its namespace along
            if exited in select.select([exited, 0], [], [])[0]:
                break
    except EOFError:
        signal.pidfd_send_signal(exited, signal.SIGKILL)
        raise
    finally:
        os.close(exited)
    status = supervise._status_of(os.waitpid(child, 0)[1])
    _reap_orphans()
    return status


def _reap_orphans() -> None:
    """A PID 1 whose parent was killed is ours now (subreaper): reaping it means its namespace is gone."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _own_stdio() -> None:
    """The job writes to its own channels (fds 3, 4 → 1, 2) and holds nothing else of the zygote's."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(JOB_OUT, 1)
    os.dup2(JOB_ERR, 2)
    os.close(devnull)
    os.close(JOB_OUT)
    os.close(JOB_ERR)


def _join_cgroups(name: str) -> None:
    """Moves this process (and so all it starts) into the grading's group of every hierarchy."""
    for hierarchy in sorted(os.listdir(CGROUPS)):
        with open(os.path.join(CGROUPS, hierarchy, name, "cgroup.procs"), "w") as f:
            f.write("0")  # 0: the writing process


def _finish(name: str, status: int) -> None:
    """The job is over and all its processes are gone: end its channels, then say how it ended."""
    marker = "sg-end-" + os.urandom(16).hex()  # made now: no process of the job could know it
    for fd in (JOB_OUT, JOB_ERR):
        os.write(fd, b"\0" + marker.encode())
    sys.stdout.write(json.dumps({"job": name, "status": status, "marker": marker}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
