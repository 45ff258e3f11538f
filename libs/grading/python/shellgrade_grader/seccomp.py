"""Loads the sandboxes' system-call filter (a BPF program compiled on the host by libseccomp,
python/build_seccomp_filter.py) into the calling process; its children inherit it.

ctypes and two prctl calls: the filter is already compiled, so no seccomp library is needed
inside the sandbox. Failing to load it is fatal: a grader never runs with less isolation than
promised.
"""
import ctypes
import os

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
BPF_INSTRUCTION_BYTES = 8


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(path: str) -> None:
    """Installs the BPF program at `path` for this process and every process it starts."""
    with open(path, "rb") as f:
        install_program(f.read(), path)


def install_program(program: bytes, path: str = "the system-call filter") -> None:
    """Installs a BPF program already read (a student sandbox reads it before its root changes)."""
    if not program or len(program) % BPF_INSTRUCTION_BYTES:
        raise OSError(f"{path} is not a BPF program")
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // BPF_INSTRUCTION_BYTES, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"loading the system-call filter failed: {os.strerror(err)}")
