"""The seccomp filter every sandboxed bot runs under, compiled to BPF with libseccomp.

bubblewrap loads a compiled classic-BPF program (``bwrap --seccomp FD``) just before it
execs the bot, so the filter binds the bot and everything it starts, but not bwrap's own set-up.
The namespaces already hide the host; this filter removes the kernel interfaces that have been
the usual ways out of (or around) a namespace sandbox, and the ones a bot could use to disturb
other processes: debugging other processes, mounting, the kernel keyring, io_uring (which
bypasses seccomp for the operations it performs), injecting keystrokes into a terminal, file
locks, leases and file-change notifications (inotify, fanotify, dnotify: seats share
read-only files, which must not become a channel between them), new namespaces, loading code
into the kernel. The policy is a deny list on top of
"allow": a bot is an ordinary program in any language and must keep every ordinary syscall.

Denied calls fail with EPERM rather than killing the bot, so a bot that merely probes gets an
error it can report, and the hostile-bot tests can see exactly which call was refused.
libseccomp also rejects every syscall from a foreign ABI (i386, x32) on x86-64, which closes
the classic "same call under another number" bypass.
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile

# Kernel constants (include/uapi): ioctl requests and fcntl commands and clone flags we match.
TIOCSTI = 0x5412
TIOCLINUX = 0x541C
F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW = 6, 7, 37, 38
F_SETLEASE, F_NOTIFY = 1024, 1026  # F_LINUX_SPECIFIC_BASE + 0 and + 2
DENIED_FCNTL_COMMANDS = (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_NOTIFY)
"""fcntl commands that would let one seat signal another through the files they share: record
locks (another seat sees them with F_GETLK, or blocks on them), leases (a lease holder is told,
by signal, when anyone else opens the file) and dnotify (a signal whenever anything in a watched
directory is read or changed: two seats of one owner passed a hand of cards through
``/opt/monsoon`` that way)."""
# Socket families a bot may open: Unix sockets and IPv4/IPv6 (inside a network namespace
# that holds only ``lo``), and netlink, which the C library uses to list interfaces. Every
# other family, up to the 6-bit range the kernel numbers them in, is refused: AF_VSOCK reaches
# the hypervisor's host side past the network namespace, AF_PACKET, AF_ALG, AF_KEY, AF_XDP,
# AF_BLUETOOTH and the rest are kernel attack surface no bot needs.
AF_UNIX, AF_INET, AF_INET6, AF_NETLINK = 1, 2, 10, 16
ALLOWED_SOCKET_FAMILIES = frozenset({AF_UNIX, AF_INET, AF_INET6, AF_NETLINK})
DENIED_SOCKET_FAMILIES = tuple(f for f in range(64) if f not in ALLOWED_SOCKET_FAMILIES)
CLONE_NAMESPACE_FLAGS = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)
"""``clone`` flags that create namespaces (CLONE_NEWTIME is 0x80 and shares CSIGNAL's byte)."""

DENIED_SYSCALLS: tuple[str, ...] = (
    # other processes' memory and registers
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "kcmp",
    # the mount table
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    # the kernel keyring
    "keyctl",
    "add_key",
    "request_key",
    # io_uring runs operations the filter never sees
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    # file locks: a bot could block whoever else opens the same (read-only, shared) file
    "flock",
    # file watches: /usr, the engine and the reference bots are the same files for every
    # seat, so inotify on them would show which files another seat opens, and when
    "inotify_init",
    "inotify_init1",
    "inotify_add_watch",
    # new namespaces (bwrap --disable-userns also stops user namespaces)
    "unshare",
    "setns",
    # kernel code, tracing and execution domains
    "bpf",
    "perf_event_open",
    "personality",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "syslog",
    "acct",
    "quotactl",
    "name_to_handle_at",
    "open_by_handle_at",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "vhangup",
    "uselib",
    "lookup_dcookie",
    "fanotify_init",
)
"""Syscalls refused outright (EPERM)."""

LOW_32_BITS = 0xFFFFFFFF


@functools.cache
def compiled_filter() -> bytes:
    """The BPF program for ``bwrap --seccomp``; compiled once per worker process.

    Raises ``RuntimeError`` when libseccomp (Debian ``libseccomp2``) is missing.
    """
    # deferred: importing it fails when libseccomp is missing; pyseccomp ships no type hints
    import pyseccomp as sc

    deny = sc.ERRNO(errno.EPERM)
    filt = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED_SYSCALLS:
        filt.add_rule(deny, name)
    # ioctl's request and fcntl's command are ints: the kernel reads only the low 32 bits,
    # so compare under a mask, or TIOCSTI | 1 << 32 would slip past an exact comparison.
    for request in (TIOCSTI, TIOCLINUX):
        filt.add_rule(deny, "ioctl", sc.Arg(1, sc.MASKED_EQ, LOW_32_BITS, request))
    for command in DENIED_FCNTL_COMMANDS:
        filt.add_rule(deny, "fcntl", sc.Arg(1, sc.MASKED_EQ, LOW_32_BITS, command))
    for family in DENIED_SOCKET_FAMILIES:  # low 32 bits: the kernel reads an int
        filt.add_rule(deny, "socket", sc.Arg(0, sc.MASKED_EQ, LOW_32_BITS, family))
        filt.add_rule(deny, "socketpair", sc.Arg(0, sc.MASKED_EQ, LOW_32_BITS, family))
    for flag in _bits(CLONE_NAMESPACE_FLAGS):
        filt.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory the filter cannot read: answer ENOSYS, which makes
    # the C library fall back to clone(), whose flags the rules above do see.
    filt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as out:
        filt.export_bpf(out)
        out.seek(0)
        return out.read()


def _bits(mask: int) -> list[int]:
    """The single-bit values set in ``mask``."""
    return [1 << i for i in range(mask.bit_length()) if mask >> i & 1]


def filter_fd() -> int:
    """A readable pipe end holding the compiled filter, for one bwrap launch (caller closes it).

    The program is a few hundred bytes, far below a pipe's buffer, so writing it never blocks.
    """
    program = compiled_filter()
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)
    finally:
        os.close(write_end)
    return read_end
