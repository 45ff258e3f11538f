"""Writes the sandboxes' system-call filter as a BPF program, built with libseccomp (docs/design.md, Untrusted input).

Run on the host by the service (libs/grading seccomp.ts) with the Python that has libseccomp's
bindings (Debian: apt-get install python3-seccomp; /usr/bin/python3):

    /usr/bin/python3 build_seccomp_filter.py <out.bpf>

The grader loads the program before it runs grader.py (shellgrade_grader/seccomp.py) and the
student sandbox hands it to bubblewrap (--seccomp), so neither a grader nor a student script can:
share kernel state between gradings (keyrings), inspect or steer another process (ptrace,
process_vm_*, kcmp, pidfd_getfd), load kernel code or programs (bpf, modules, kexec), change
mounts or namespaces, reach devices and file handles past the sandbox's paths, or use the
kernel interfaces Docker's default profile denies for the same reasons (perf, userfaultfd,
io_uring, clock and time setting, reboot, swap, quotas, accounting, NUMA placement, host names,
hypervisor sockets). Denied calls fail with
EPERM; a 32-bit or x32 system call kills the caller (libseccomp's default for a foreign arch).
"""
import errno
import sys

import seccomp

DENIED = [
    # kernel keyrings: the uid-wide channel between gradings
    "add_key", "keyctl", "request_key",
    # other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    # kernel code and programs
    "bpf", "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    # mounts and namespaces
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr", "setns", "unshare",
    # file handles reach files by inode, past the sandbox's paths
    "open_by_handle_at", "name_to_handle_at",
    # NUMA placement: moves pages of this or another process between nodes, pins memory to a
    # node the other gradings share (Docker: CAP_SYS_NICE or denied); get_mempolicy only reads
    "mbind", "set_mempolicy", "set_mempolicy_home_node", "migrate_pages", "move_pages",
    # another process's memory advice through a pidfd (Docker: CAP_SYS_PTRACE)
    "process_madvise",
    # memory taken out of the kernel's direct map and never swapped: a grading has nothing to
    # hide from the host, and what it holds there no one can inspect (Docker allows it)
    "memfd_secret",
    # the host's names (Docker: CAP_SYS_ADMIN)
    "sethostname", "setdomainname",
    # the rest of Docker's default deny list
    "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fanotify_init", "lookup_dcookie", "quotactl", "quotactl_fd", "acct", "swapon", "swapoff",
    "reboot", "syslog", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "iopl", "ioperm", "uselib", "ustat", "sysfs", "vhangup", "personality", "nfsservctl",
    "get_kernel_syms", "create_module", "query_module", "_sysctl", "afs_syscall", "vm86", "vm86old",
]

# New namespaces through clone: refused like unshare (clone3 hides its flags in memory, so it
# answers ENOSYS and the C library falls back to clone, as under Docker).
AF_VSOCK = 40

CLONE_NAMESPACE_FLAGS = [0x00020000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x02000000]


def build() -> seccomp.SyscallFilter:
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    # Every system call of a grading passes the filter: a binary tree over the call numbers
    # instead of libseccomp's default linear list (measured ~3 ms per zygote grading otherwise).
    f.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)
    for name in DENIED:
        try:
            f.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError):
            pass  # not a system call of this architecture (vm86, create_module... on x86_64)
    for flag in CLONE_NAMESPACE_FLAGS:
        f.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    # Sockets to the hypervisor (AF_VSOCK), as Docker refuses them; every other family is the sandbox's network namespace's business.
    f.add_rule(seccomp.ERRNO(errno.EPERM), "socket", seccomp.Arg(0, seccomp.EQ, AF_VSOCK))
    return f


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: build_seccomp_filter.py <out.bpf>")
    with open(sys.argv[1], "wb") as out:
        build().export_bpf(out)


if __name__ == "__main__":
    main()
