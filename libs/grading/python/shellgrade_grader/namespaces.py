"""The few Linux calls the zygote and the grading job need that Python 3.11's os module
lacks (unshare, setns, clone, mount, umount, prctl). The student sandbox itself is built in C
(libs/grading/native/sandbox-exec.c).

Thin ctypes wrappers raising OSError like the os module does; nothing here decides policy.
"""
import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000

MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MNT_DETACH = 0x2

PR_SET_PDEATHSIG = 1
SIGCHLD = 17
#: x86_64 system-call numbers (the only architecture the sandbox is built for; see clone()).
_SYS_CLONE = 56
PR_SET_CHILD_SUBREAPER = 36

_libc = ctypes.CDLL(None, use_errno=True)
#: The same library called with the GIL held: a raw clone() must return to Python in both processes as fork() does.
_libc_gil = ctypes.PyDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def mount(source: "str | None", target: str, fstype: "str | None", flags: int = 0, data: "str | None" = None) -> None:
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def tmpfs(target: str, size_bytes: int, mode: int) -> None:
    """A fresh, empty tmpfs of bounded size over `target` (what was there is hidden, not changed)."""
    mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size_bytes},mode={mode:o}")


def detach(target: str) -> None:
    """Lazily unmounts `target`: from here on nothing in this mount namespace can reach what it showed."""
    _check(_libc.umount2(target.encode(), ctypes.c_int(MNT_DETACH)), f"umount {target}")


def make_mounts_private() -> None:
    """Mounts made from now on stay in this mount namespace (and none made elsewhere arrive)."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)


def become_subreaper() -> None:
    """Orphaned descendants are re-parented to this process, which can then wait for them."""
    _check(_libc.prctl(ctypes.c_int(PR_SET_CHILD_SUBREAPER), ctypes.c_ulong(1), 0, 0, 0), "prctl")



def die_with_parent() -> None:
    """SIGKILL this process when its parent dies (bwrap --die-with-parent does the same)."""
    _check(_libc.prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(9), 0, 0, 0), "prctl")


def clone(flags: int) -> int:
    """fork() into new namespaces at once: the child is PID 1 of a new PID namespace (unshare would
    move only the caller's later children). Returns 0 in the child, its pid in the parent."""
    if os.uname().machine != "x86_64":
        raise OSError("the student sandbox's clone() is written for x86_64")
    pid = _libc_gil.syscall(ctypes.c_long(_SYS_CLONE), ctypes.c_ulong(flags | SIGCHLD), ctypes.c_ulong(0), None, None, ctypes.c_ulong(0))
    if pid < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"clone: {os.strerror(err)}")
    return pid
