"""Runs untrusted bots inside bubblewrap: the :class:`~workers.launch.Launcher` for the ladder.

Each seat gets its own throw-away container (see ``docs/sandbox.md`` for the full account):

* **Who it runs as.** Never root. When the worker is root it drops, before exec'ing bwrap, to
  uid/gid ``uid_base + slot`` with no supplementary groups, so concurrently running seats have
  different uids (their process limits and straggler sweeps never mix) and the bot is an
  unprivileged stranger to every host file. bwrap then creates a user namespace mapping only
  that uid, drops every capability, disallows further user namespaces and sets no_new_privs.
* **What it sees.** All namespaces are new (user, mount, pid, network, ipc, uts, cgroup): a
  loopback-only network, its own process tree, an empty read-only root holding ``/usr`` (minus
  ``/usr/local``) and the ``/bin``/``/lib`` links for the system Python, ``/etc/ld.so.cache``
  and the ``/etc`` links of language runtimes (:data:`RUNTIME_ETC`), its
  own directory read-only at ``/bot``, the repository's ``engine`` and ``bots`` packages
  read-only under ``/opt/monsoon``, a size-capped private tmpfs at ``/tmp`` that is also the
  working directory (holding links to the bot's files), a fresh ``/proc`` and a minimal,
  read-only ``/dev``. The bot is the init (pid 1) of its pid namespace. What is bound in
  (the bot's folder, the packages) is a copy under a neutral staging folder
  (:mod:`workers.staging`), readable by the seat uid, so the mount table names no host folder
  of the checkout or the bot; bwrap gets them as descriptors the worker opened, and closes
  them before the bot starts.
* **What it may do.** A clean environment; rlimits from :class:`~workers.launch.Limits` set
  before bwrap so every process inherits them; per-seat cgroup v2 memory/pids limits where the
  host offers them (:mod:`workers.cgroups`); the seccomp filter of :mod:`workers.seccomp`.
* **How it ends.** ``terminate_all`` kills the bot; as the namespace's init its death makes the
  kernel kill every other process in the namespace, and bwrap, its parent, reaps it and exits
  (``--die-with-parent`` covers a worker that dies first). Anything still running as the seat
  uid is then killed too. The tmpfs lives only in the dead mount namespace, so nothing the bot
  wrote survives; a staged copy of its directory is deleted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import logging
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from workers.cgroups import SeatCgroup, cgroup_tree, seat_bounds_problem, thaw_seat_groups_of
from workers.cputime import CpuClock, children_of, tree_cpu_seconds
from workers.launch import (
    CHECKOUT,
    BotProgram,
    LaunchError,
    Limits,
    apply_rlimits,
    check_command,
    pipes_of,
)
from workers.seccomp import filter_fd
from workers.staging import bot_copy, readable_package, remove_copy

logger = logging.getLogger(__name__)

UID_BASE = 300_000
"""Seat uids start here (far above any real account)."""
SLOTS_PER_BLOCK = 64
"""Seats one launcher may run at once: ``slot`` is in ``range(SLOTS_PER_BLOCK)``."""
UID_BLOCKS = 4096
BLOCK_LOCKS = Path("/run/monsoon-sandbox")
"""Lock files, one per uid block, held by the worker process that claimed the block."""
PROBE_UID = UID_BASE - 1
"""The uid the availability probe runs as: no seat ever uses it."""
SYSTEM_PYTHON = Path("/usr/bin/python3")
PACKAGES = ("engine", "bots")
"""Repository packages bots may import, mounted read-only under :data:`PACKAGE_ROOT`."""
PACKAGE_ROOT = "/opt/monsoon"
BOT_DIR = "/bot"
# The path inside the sandbox (its own private tmpfs), never a host temporary directory; RUF100
# only while the TEMPORARY per-directory ignore of S in pyproject makes the S108 waiver moot.
WORK_DIR = "/tmp"  # noqa: S108, RUF100
SANDBOX_PATH = "/usr/bin:/bin"
TERMINATE_PATIENCE_S = 2.0
"""How long terminate_all waits for bwrap to exit once its bot is killed."""
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SandboxUnavailable(LaunchError):
    """bubblewrap cannot run on this host, so untrusted bots must not be started."""

    # The host's failure, not the version's: validation leaves the version pending for another
    # worker and never counts it towards rejection (ladder.bots.services.validate_version).
    host_failure = True


def _root_links() -> list[str]:
    """bwrap arguments recreating the host's top-level ``/bin``, ``/lib``... as in merged /usr.

    Looked up again only when ``/`` changes (its mtime): the lookups cost a seat's launch about
    a third of a millisecond, on the runner's thread, before every seat of a match.
    """
    return list(_root_links_of(os.stat("/").st_mtime_ns))


@functools.cache
def _root_links_of(_root_mtime_ns: int) -> tuple[str, ...]:
    args: list[str] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
    return tuple(args)


RUNTIME_ETC = ("alternatives", "java-*-openjdk")
"""What of ``/etc`` the language runtimes under ``/usr`` need (``docs/languages.md``): Debian's
``/usr/bin/java`` is a link through ``/etc/alternatives``, and the JDK's ``conf`` and
``lib/security`` files are links into ``/etc/java-N-openjdk``. Links and public defaults only."""


def _runtime_etc() -> list[str]:
    """bwrap arguments binding :data:`RUNTIME_ETC` read-only, where the host has them.

    Globbed again only when ``/etc`` changes (its mtime moves when a runtime's directory is
    added or removed): the glob cost every launch about 0.8 ms of the runner's thread.
    """
    return list(_runtime_etc_of(os.stat("/etc").st_mtime_ns))


@functools.cache
def _runtime_etc_of(_etc_mtime_ns: int) -> tuple[str, ...]:
    args: list[str] = []
    for pattern in RUNTIME_ETC:
        for host in sorted(Path("/etc").glob(pattern)):
            if host.is_dir() and not host.is_symlink():
                args += ["--ro-bind", str(host), str(host)]
    return tuple(args)


def _open_dir(path: Path, what: str, opened: list[int]) -> int:
    """An O_PATH descriptor of ``path`` for ``--ro-bind-fd`` (noted in ``opened``).

    bwrap still resolves the path (see :mod:`workers.staging`), but binding by descriptor
    makes sure the directory mounted is the one the worker looked at.
    """
    try:
        fd = os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise LaunchError(f"cannot open {what} {str(path)!r}: {exc.strerror}") from exc
    opened.append(fd)
    return fd


def bwrap_arguments(
    *,
    uid: int,
    limits: Limits,
    fds: dict[str, int],
    entries: list[str],
    seccomp_fd: int,
    env: dict[str, str],
    command: tuple[str, ...],
) -> list[str]:
    """The full bwrap command line for one seat (``fds`` maps mount points to open dirs)."""
    args = [
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--uid",
        str(uid),
        "--gid",
        str(uid),
        "--hostname",
        "sandbox",
        "--as-pid-1",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
    ]
    environment = {
        "PATH": SANDBOX_PATH,
        "LANG": "C.UTF-8",
        "HOME": WORK_DIR,
        "TMPDIR": WORK_DIR,
        "PYTHONPATH": PACKAGE_ROOT,
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    for name, value in environment.items():
        args += ["--setenv", name, value]
    args += ["--ro-bind", "/usr", "/usr", "--tmpfs", "/usr/local", "--remount-ro", "/usr/local"]
    args += _root_links()
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += _runtime_etc()
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
    args += ["--size", str(limits.tmpfs_bytes), "--tmpfs", WORK_DIR]
    for mount_point, fd in fds.items():
        args += ["--ro-bind-fd", str(fd), mount_point]
    # The working directory is the tmpfs; the bot's own files appear in it as links into the
    # read-only /bot, so relative paths behave as they do with LocalLauncher.
    for name in entries:
        args += ["--symlink", f"{BOT_DIR}/{name}", f"{WORK_DIR}/{name}"]
    args += ["--remount-ro", "/", "--chdir", WORK_DIR, "--seccomp", str(seccomp_fd), "--"]
    return args + list(command)


def seat_uid(uid_base: int, slot: int) -> int:
    """The host uid of seat ``slot``; refuses slots that would leave the launcher's block."""
    if type(slot) is not int or not 0 <= slot < SLOTS_PER_BLOCK:
        raise ValueError(f"slot must be an int in [0, {SLOTS_PER_BLOCK}), got {slot!r}")
    return uid_base + slot


_claimed: dict[tuple[int, Path], int] = {}
"""The uid block this process holds (by pid: a forked worker child claims its own)."""


def claim_uid_block(lock_dir: Path = BLOCK_LOCKS, *, base: int = UID_BASE) -> int:
    """The first uid of a block of seat uids no other live process on this host is using.

    Each block has a lock file; the process that holds its ``flock`` owns the block until it
    exits (the kernel drops the lock then, even after a crash). So concurrent workers, each
    numbering its seats from slot 0, still never share a seat uid: they would otherwise share
    a process limit and sweep away each other's bots. A block whose uids still run processes
    (the seats of a worker that crashed: their owner is gone, so they are leftovers) is taken
    only once they are killed; when they will not die, the block is left for another.
    (``base`` moves the whole range: tests use one no seat of this host ever runs as.)
    """
    key = (os.getpid(), lock_dir)
    if key in _claimed:
        return _claimed[key]
    lock_dir.mkdir(mode=0o755, parents=True, exist_ok=True)
    for block in range(UID_BLOCKS):
        fd = os.open(lock_dir / f"{block}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        first = base + block * SLOTS_PER_BLOCK
        if not clear_uids(range(first, first + SLOTS_PER_BLOCK)):
            os.close(fd)
            continue
        _claimed[key] = first  # fd stays open: it is the claim
        return first
    raise LaunchError(f"all {UID_BLOCKS} blocks of seat uids in {lock_dir} are taken")


def processes_in(uids: range) -> dict[int, list[int]]:
    """{uid: its processes} for the uids of ``uids`` that run any (zombies included), one
    pass over ``/proc``."""
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        uid = _status(int(entry.name)).get("Uid", "").split()[:1]
        if uid and uid[0].isdigit() and int(uid[0]) in uids:
            found.setdefault(int(uid[0]), []).append(int(entry.name))
    return found


def clear_uids(uids: range, *, patience: float = 5.0) -> bool:
    """Kill what still runs as any of ``uids`` (seat uids of a block just claimed); True when
    none of them runs anything any more, zombies included (they count against RLIMIT_NPROC)."""
    leftovers = processes_in(uids)
    if not leftovers:
        return True
    logger.warning("seat uids still run processes %s: killing them", leftovers)
    for uid in leftovers:
        kill_uid(uid, patience=patience)
    deadline = time.monotonic() + patience
    while (left := processes_in(uids)) and time.monotonic() < deadline:
        time.sleep(0.01)  # zombies wait for their reaper (init, once their parent is gone)
    if left:
        logger.error("seat uids %s keep processes %s: not using them", sorted(left), left)
    return not left


def processes_of(uid: int, *, zombies: bool = False) -> list[int]:
    """Processes whose real uid is ``uid``, from ``/proc`` (zombies only when asked).

    Reads each ``status`` file rather than trusting the owner of ``/proc/PID``, which a
    process can turn into root by making itself non-dumpable.
    """
    wanted = b"\nUid:\t" + str(uid).encode() + b"\t"
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as status:
                text = status.read()
        except OSError:
            continue  # gone meanwhile
        if wanted in text and (zombies or b"\nState:\tZ" not in text):
            found.append(int(entry.name))
    return found


def _status(pid: int) -> dict[str, str]:
    """``/proc/PID/status`` as a dict; empty when the process is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            text = status.read().decode(errors="replace")
    except OSError:
        return {}
    return {
        key: value.strip() for key, _, value in (line.partition(":") for line in text.splitlines())
    }


def kill_checked(pid: int, uid: int) -> bool:
    """SIGKILL ``pid`` only if it still runs as ``uid``; False when it was not (or is gone).

    The check and the signal go through one pidfd, so a pid reused by an unrelated process
    between the check and the kill can never be hit (the worker is root: it could kill anything).
    """
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return False
    try:
        if _status(pid).get("Uid", "").split()[:1] != [str(uid)]:
            return False
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(pidfd)


_swept: set[tuple[int, int]] = set()
"""(worker pid, seat uid) pairs known to be free of processes: swept at the last terminate."""


def kill_uid(uid: int, *, patience: float = 2.0, survivors: bool = False) -> list[int]:
    """SIGKILL every process running as ``uid`` until none is left; returns the first sweep
    (or, with ``survivors``, what still ran when patience ran out: [] when all are gone).

    Only ever called with a seat uid, which nothing but that seat's sandbox uses. Gives up
    after ``patience`` seconds (the kernel tears a dead pid namespace down in milliseconds).
    A frozen seat (a warm one whose pool never ended it) is thawed first: a task frozen by
    the v1 freezer does not act on SIGKILL.
    """
    first = processes_of(uid)
    left = first
    deadline = time.monotonic() + patience
    while left and time.monotonic() < deadline:
        for pid in left:
            if kill_checked(pid, uid):
                thaw_seat_groups_of(pid)
        time.sleep(0.005)
        left = processes_of(uid)
    return left if survivors else first


class BwrapProcess:
    """One sandboxed seat: the bwrap process, its pipes, and the seat uid to sweep."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        uid: int,
        *,
        sweep: bool,
        staged: Path | None = None,
        cgroup: SeatCgroup | None = None,
        cgroup_freezer: bool = True,
    ) -> None:
        self._popen = popen
        self.stdin, self.stdout, self.stderr = pipes_of(popen)
        self.pid = popen.pid
        self._uid = uid
        self._sweep_uid = uid if sweep else None
        self._staged = staged
        self._cgroup = cgroup
        self._freezer = (
            cgroup if cgroup is not None and cgroup.can_freeze and cgroup_freezer else None
        )
        self._finished = False
        self._cpu = CpuClock(self._cpu_source)
        self._stopped: list[int] = []
        """Processes stopped by the signal fallback of :meth:`freeze`, to be continued."""

    def poll(self) -> int | None:
        return self._popen.poll()

    @property
    def bot_directory(self) -> Path | None:
        """Where the seat's ``/bot`` lies on the host (its staged copy; None: not staged).
        Bound read-only but live: a file the host adds there appears in the seat at once."""
        return self._staged / "bot" if self._staged is not None else None

    def freeze(self) -> None:
        """Stop every process of the seat: its cgroup's freezer, else SIGSTOP down its tree.

        The fallback walks the tree from the bot (the pid namespace's init, so every process of
        the seat descends from it) parent first: a stopped parent cannot fork any more, and a
        fork that was under way when the signal came is restarted by the kernel after it.
        """
        if self._finished:
            return
        if self._freezer is not None:
            self._freezer.freeze()
            return
        pending = children_of(self.pid)
        while pending:
            pid = pending.pop()
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
                self._stopped.append(pid)
                pending += children_of(pid)

    def thaw(self) -> None:
        """Let the seat run again (a no-op when it is not frozen)."""
        if self._freezer is not None:
            self._freezer.thaw()
        stopped, self._stopped = self._stopped, []
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def _cpu_source(self) -> float | None:
        if self._cgroup is not None:
            used = self._cgroup.cpu_seconds()
            if used is not None:
                return used
        # Once reaped, the pid may belong to another process: never read it again.
        return tree_cpu_seconds(self.pid) if self._popen.returncode is None else None

    def cpu_seconds(self) -> float | None:
        """CPU the whole seat has used so far (its cgroup's account, else its process tree)."""
        return self._cpu.read()

    def peak_memory_bytes(self) -> int | None:
        """The most memory the whole seat held at once, where its cgroup reports it."""
        return self._cgroup.peak_memory_bytes() if self._cgroup is not None else None

    def memory_bytes(self) -> int | None:
        """The memory the whole seat holds now, where its cgroup reports it (a warm seat)."""
        if self._cgroup is None or self._finished:
            return None
        return self._cgroup.memory_bytes()

    def reset_peak_memory(self) -> bool:
        """Count the seat's peak memory afresh from now (a warm seat's next match)."""
        return self._cgroup is not None and not self._finished and self._cgroup.reset_peak()

    def terminate_all(self) -> None:
        """Kill the sandbox and everything in it; safe to call more than once.

        The bot is its pid namespace's init: when it dies the kernel kills every other process
        of the namespace, however detached. The uid sweep then catches anything that somehow
        escaped. The private tmpfs goes with the mount namespace, the cgroup and any staged
        copy of the bot's directory are removed.
        """
        if self._finished:
            return
        self.thaw()  # a task frozen by a v1 freezer cannot even die
        # Kill the bot (the namespace's init) rather than bwrap: bwrap then reaps it and exits,
        # whereas an orphaned init would linger as a zombie counted against the seat uid's
        # process limit until some reaper got to it. Right after launch bwrap may not have
        # started the bot yet: keep looking until it has, or bwrap is gone.
        deadline = time.monotonic() + TERMINATE_PATIENCE_S
        while self._popen.poll() is None and time.monotonic() < deadline:
            if any([kill_checked(bot, self._uid) for bot in children_of(self.pid)]):
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._popen.wait(timeout=max(0.0, deadline - time.monotonic()))
            else:
                time.sleep(0.002)
        if self._popen.poll() is None:
            self._popen.kill()
        self._popen.wait()
        if self._sweep_uid is not None:
            if self._cgroup is None or self._cgroup.members() != []:
                kill_uid(self._sweep_uid)  # else its group shows the seat uid runs nothing
            _swept.add((os.getpid(), self._sweep_uid))
        for pipe in (self.stdin, self.stdout, self.stderr):
            with contextlib.suppress(OSError):
                pipe.close()
        if self._staged is not None:
            remove_copy(self._staged)
        if self._cgroup is not None:
            self._cgroup.remove()
        self._finished = True

    def limit_hit(self) -> str | None:
        """What the seat's cgroup counted: ``memory_limit`` (an OOM) or ``process_limit``.

        None without cgroups (see :mod:`workers.cgroups`): rlimits leave no trace but the
        bot's own stderr, which the runner reads and judges itself (``MemoryError``, a fork
        refused with EAGAIN); a relay here to watch it would race the runner's last read.
        """
        return self._cgroup.limit_hit() or None if self._cgroup is not None else None


class BwrapLauncher:
    """Starts each bot in its own bubblewrap sandbox (see the module docstring).

    The seat uid is ``uid_base + slot``. ``slot`` must be unique among the seats this
    process runs at once (the runner uses the seat index). Without an explicit ``uid_base``
    the launcher claims a block of uids for its process at the first launch
    (:func:`claim_uid_block`), so concurrent worker processes never share seat uids.
    """

    def __init__(
        self, *, uid_base: int | None = None, checkout: Path = CHECKOUT, cgroup_freezer: bool = True
    ) -> None:
        self._uid_base = uid_base
        self.checkout = checkout
        self.cgroup_freezer = cgroup_freezer
        """False freezes seats by signals even where their cgroup has a freezer (to compare)."""

    @property
    def uid_base(self) -> int:
        """The first seat uid (claiming this process's block when none was given)."""
        return self._uid_base if self._uid_base is not None else claim_uid_block()

    def launch(self, program: BotProgram, *, slot: int, limits: Limits) -> BwrapProcess:
        check_command(program)
        problem = sandbox_problem() or seat_bounds_problem()
        if problem:
            raise SandboxUnavailable(problem)
        as_root = os.geteuid() == 0
        try:
            uid = seat_uid(self.uid_base if as_root else 0, slot)
        except OSError as exc:
            raise LaunchError(f"cannot claim seat uids in {BLOCK_LOCKS}: {exc}") from exc
        if not as_root:
            # Cannot switch: the sandbox still runs unprivileged, as the worker's own uid, whose
            # other processes count against RLIMIT_NPROC too: allow for them.
            uid = os.getuid()
            limits = dataclasses.replace(
                limits, processes=limits.processes + len(processes_of(uid, zombies=True))
            )
        elif (os.getpid(), uid) not in _swept and (left := kill_uid(uid, survivors=True)):
            # Leftovers of a crashed worker would count against the seat's process limit and
            # could watch or disturb the bot: never hand out a uid that still runs anything.
            raise LaunchError(f"seat uid {uid} still runs processes {left} that will not die")
        _swept.discard((os.getpid(), uid))
        bad_names = [name for name in program.env if not ENV_NAME.fullmatch(name)]
        if bad_names:
            raise LaunchError(f"bad environment variable names for {program.name!r}: {bad_names}")
        try:
            is_dir = program.directory.is_dir()
        except OSError as exc:
            raise LaunchError(
                f"cannot read bot directory {str(program.directory)!r}: {exc.strerror}"
            ) from exc
        if not is_dir:
            raise LaunchError(
                f"cannot read bot directory {str(program.directory)!r}: not a directory"
            )
        try:
            compile_packages(self.checkout)
            packages = {
                f"{PACKAGE_ROOT}/{name}": readable_package(self.checkout / name)
                for name in PACKAGES
            }
            bot_dir, holder = bot_copy(program.directory)
        except (OSError, shutil.Error) as exc:
            raise LaunchError(f"cannot prepare {program.name!r} for the sandbox: {exc}") from exc
        tree, _ = cgroup_tree()
        cgroup = None
        opened: list[int] = []
        try:
            if tree is not None:
                try:
                    cgroup = tree.seat(limits)
                except OSError as exc:
                    raise SandboxUnavailable(
                        f"cannot create the seat's {tree.kind} cgroup: {exc.strerror or exc}"
                    ) from exc
            fds = {BOT_DIR: _open_dir(bot_dir, "bot directory", opened)}
            for mount_point, path in packages.items():
                fds[mount_point] = _open_dir(path, "package", opened)
            seccomp_fd = filter_fd()
            opened.append(seccomp_fd)
            args = bwrap_arguments(
                uid=uid,
                limits=limits,
                fds=fds,
                entries=sorted(os.listdir(bot_dir)),
                seccomp_fd=seccomp_fd,
                env=program.env,
                command=program.command,
            )
            popen = subprocess.Popen(
                args,
                cwd="/",
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={"PATH": SANDBOX_PATH},
                pass_fds=(seccomp_fd, *fds.values()),
                start_new_session=True,
                preexec_fn=functools.partial(_enter_seat, limits, uid if as_root else None, cgroup),
            )
        except (OSError, subprocess.SubprocessError, LaunchError) as exc:
            if cgroup is not None:
                cgroup.remove()
            for fd in opened:
                with contextlib.suppress(OSError):
                    os.close(fd)
            remove_copy(holder)
            if isinstance(exc, LaunchError):
                raise
            reason = getattr(exc, "strerror", None) or exc
            raise LaunchError(f"cannot start bubblewrap: {reason}") from exc
        for fd in (*fds.values(), seccomp_fd):
            os.close(fd)
        return BwrapProcess(
            popen,
            uid,
            sweep=as_root,
            staged=holder,
            cgroup=cgroup,
            cgroup_freezer=self.cgroup_freezer,
        )


@functools.cache
def compile_packages(checkout: Path) -> bool:
    """Write the bytecode of the packages bots import, for the sandbox's Python; once a process.

    Bots run with ``PYTHONDONTWRITEBYTECODE`` on a read-only ``/opt/monsoon``, and so does the
    worker itself in the deployment image: without ``__pycache__`` next to the sources, every
    sandboxed Python bot compiled ``engine`` and ``bots`` again at every start, before its
    ``ready`` (about a fifth of a reference bot's start-up here). Compiled by
    :data:`SYSTEM_PYTHON`, the interpreter inside the sandbox, whatever runs the worker; files
    already up to date are left alone. A checkout the worker cannot write to is no failure:
    the bots then compile at start as before. Returns whether compiling succeeded.
    """
    sources = [str(checkout / name) for name in PACKAGES]
    try:
        done = subprocess.run(
            [str(SYSTEM_PYTHON), "-m", "compileall", "-q", *sources],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={"PATH": SANDBOX_PATH},
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _enter_seat(limits: Limits, uid: int | None, cgroup: SeatCgroup | None = None) -> None:
    """In the forked child before exec'ing bwrap: cgroup, rlimits, then the seat's uid/gid."""
    if cgroup is not None:
        cgroup.join()
    apply_rlimits(limits)
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)


@functools.cache
def sandbox_problem() -> str | None:
    """None when bubblewrap sandboxes work on this host, else why not (checked once)."""
    if shutil.which("bwrap") is None:
        return (
            "bubblewrap is not installed (run `make sandbox`, or apt-get install "
            "bubblewrap): refusing to run untrusted bots unsandboxed"
        )
    if not SYSTEM_PYTHON.exists():
        return (
            f"no system Python at {SYSTEM_PYTHON} for sandboxed bots (run `make sandbox`, "
            "or apt-get install python3-minimal)"
        )
    try:
        seccomp_fd = filter_fd()
    except ImportError:
        return (
            "the seccomp filter needs the pyseccomp package (pip install pyseccomp, and "
            "apt-get install libseccomp2)"
        )
    except (RuntimeError, OSError) as exc:
        return f"cannot build the seccomp filter (apt-get install libseccomp2): {exc}"
    as_root = os.geteuid() == 0
    uid = PROBE_UID if as_root else os.getuid()
    opened: list[int] = []
    compile_packages(CHECKOUT)
    try:
        packages = {
            f"{PACKAGE_ROOT}/{p}": _open_dir(readable_package(CHECKOUT / p), "package", opened)
            for p in PACKAGES
        }
    except (LaunchError, OSError) as exc:
        os.close(seccomp_fd)
        for fd in opened:
            os.close(fd)
        return f"the engine and bots packages cannot be prepared for the sandbox: {exc}"
    args = bwrap_arguments(
        uid=uid,
        limits=Limits(),
        fds=packages,
        entries=[],
        seccomp_fd=seccomp_fd,
        env={},
        command=(str(SYSTEM_PYTHON), "-S", "-c", "import os; assert os.getuid() != 0"),
    )
    try:
        probe = subprocess.run(
            args,
            cwd="/",
            env={"PATH": SANDBOX_PATH},
            capture_output=True,
            timeout=30,
            pass_fds=(seccomp_fd, *packages.values()),
            preexec_fn=functools.partial(_enter_seat, Limits(), uid if as_root else None),
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not be started: {exc}"
    finally:
        for fd in (seccomp_fd, *packages.values()):
            os.close(fd)
    if probe.returncode != 0:
        detail = probe.stderr.decode(errors="replace").strip() or f"exit {probe.returncode}"
        return (
            f"bubblewrap cannot create a sandbox on this host ({detail}); it needs "
            "unprivileged user namespaces (/proc/sys/user/max_user_namespaces > 0)"
        )
    return None
