"""The few Linux calls the zygote and the student sandbox need that Python 3.11's os module lacks
(unshare, clone, mount, pivot_root, prctl, capset).

Thin ctypes wrappers raising OSError like the os module does; nothing here decides policy.
"""
import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MNT_DETACH = 0x2

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
SIGCHLD = 17
#: x86_64 system-call numbers (the only architecture the sandbox is built for; see clone()).
_SYS_CLONE, _SYS_PIVOT_ROOT, _SYS_CAPSET = 56, 155, 126
_CAPABILITY_VERSION_3 = 0x20080522
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


def bind(source: str, target: str, read_only: bool, devices: bool = False) -> None:
    """A bind mount of `source` at `target`, never setuid, device files only where asked (as bwrap's binds)."""
    mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_BIND | MS_REMOUNT | MS_NOSUID | (0 if devices else MS_NODEV) | (MS_RDONLY if read_only else 0)
    mount(None, target, None, flags)


def pivot_root_here() -> None:
    """Makes the current directory the root; the old root is detached, out of reach."""
    _check(_libc.syscall(ctypes.c_long(_SYS_PIVOT_ROOT), b".", b"."), "pivot_root")
    detach(".")
    os.chdir("/")


def drop_bounding_set() -> None:
    """No capability can ever come back, whatever the process executes (as root, before the uid change)."""
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        _check(_libc.prctl(ctypes.c_int(PR_CAPBSET_DROP), ctypes.c_ulong(cap), 0, 0, 0), "prctl(PR_CAPBSET_DROP)")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def clear_capabilities() -> None:
    """Empties the effective, permitted and inheritable sets (a uid change leaves the inheritable one)."""
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc.syscall(ctypes.c_long(_SYS_CAPSET), ctypes.byref(header), ctypes.byref(data)), "capset")


def no_new_privs() -> None:
    """execve can never grant privileges again (setuid bits, file capabilities)."""
    _check(_libc.prctl(ctypes.c_int(PR_SET_NO_NEW_PRIVS), ctypes.c_ulong(1), 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
