"""How a bot program is started: the one interface between the match runner and a sandbox.

The runner never calls ``subprocess`` itself. It asks a :class:`Launcher` for a
:class:`BotProcess` and talks to its pipes; whether that process lives in a bubblewrap
sandbox (``workers.sandbox.BwrapLauncher``) or is a plain child process for a developer's own
bots (:class:`LocalLauncher`, ``--no-sandbox``) is the launcher's business. Both apply the same
resource limits, so a bot behaves alike locally and on the ladder.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from workers.cputime import CpuClock, tree_cpu_seconds

MIB = 1024 * 1024
CHECKOUT = Path(__file__).resolve().parents[1]
"""The directory holding the ``engine`` and ``bots`` packages that bots may import."""


@dataclass(frozen=True)
class Limits:
    """Per-process resource limits for one bot (setrlimit values, plus the sandbox tmpfs)."""

    memory_bytes: int = 1024 * MIB
    cpu_seconds: int = 300
    processes: int = 64
    file_size_bytes: int = 16 * MIB
    open_files: int = 64
    tmpfs_bytes: int = 64 * MIB


@dataclass(frozen=True)
class BotProgram:
    """An unpacked bot: its directory (mounted read-only) and the command run inside it.

    ``command`` is argv with paths relative to ``directory``, e.g. ``["python3", "main.py"]``.
    ``many`` is the manifest's ``"matches": "many"``: the program loops over matches, so a
    worker may keep it running for the next match of the same ``version_id`` (the ladder's bot
    version; None for programs that are not a stored version) instead of starting it afresh
    (:mod:`workers.seats`).
    """

    directory: Path
    command: tuple[str, ...] = ("python3", "main.py")
    name: str = "bot"
    env: dict[str, str] = field(default_factory=dict)
    many: bool = False
    version_id: int | None = None


class BotProcess(Protocol):
    """A started bot: binary pipes and a way to make sure nothing of it survives."""

    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]
    pid: int

    def poll(self) -> int | None:
        """The exit status once the bot's main process has ended, else None."""

    def terminate_all(self) -> None:
        """Kill every process the bot started, reap them and delete whatever it wrote."""

    def limit_hit(self) -> str | None:
        """``"memory_limit"`` / ``"process_limit"`` / ... when the sandbox saw a limit hit."""

    def cpu_seconds(self) -> float | None:
        """CPU time the bot and everything it started have used so far; never decreases.

        None when the host cannot tell: the runner then charges wall-clock time.
        """

    def freeze(self) -> None:
        """Stop the bot and everything it started until :meth:`thaw` (not its turn)."""

    def thaw(self) -> None:
        """Let a frozen bot run again (its turn has come, or the match is over)."""


def set_deciding(proc: BotProcess | None, deciding: bool) -> None:
    """The runner's one call around a decision: thaw the seat that decides, freeze it after.

    A seat runs only while it has something to decide (start-up, its own turns, the end of
    the match), so a bot cannot compute during the other seats' turns and a time limit is
    the bot's whole thinking time. ``proc`` None (a seat already stopped) is a no-op.
    """
    if proc is None:
        return
    if deciding:
        proc.thaw()
    else:
        proc.freeze()


class Launcher(Protocol):
    """Starts bot programs; ``slot`` numbers concurrently running seats (0, 1, ...)."""

    def launch(self, program: BotProgram, *, slot: int, limits: Limits) -> BotProcess:
        """Start ``program`` with ``limits``; raise :class:`LaunchError` if it cannot start."""


class SeatSource(Protocol):
    """Where the runner gets each seat's process and where it hands it back after the match.

    :class:`LauncherSeats` starts every seat afresh and ends it after its match (one match a
    process); ``workers.seats.SeatPool`` keeps processes of bots that play many matches warm
    between matches.
    """

    def check_out(
        self, program: BotProgram, *, slot: int, limits: Limits, cold: bool = False
    ) -> tuple[BotProcess, bool]:
        """A process for ``program`` and whether it is warm (it played a match before and, thawed,
        waits for ``start``); ``cold`` asks for a fresh one. Raises :class:`LaunchError`."""

    def keeps(self, program: BotProgram) -> bool:
        """Whether a process of ``program`` that ends its match well may be kept for another."""

    def check_in(self, program: BotProgram, proc: BotProcess, *, reusable: bool) -> None:
        """The match is over for ``proc``: keep it for another match (``reusable``) or end it."""


class LauncherSeats:
    """Every seat a fresh process from ``launcher``, ended after its match (the default)."""

    def __init__(self, launcher: Launcher) -> None:
        self.launcher = launcher

    def check_out(
        self, program: BotProgram, *, slot: int, limits: Limits, cold: bool = False
    ) -> tuple[BotProcess, bool]:
        return self.launcher.launch(program, slot=slot, limits=limits), False

    def keeps(self, program: BotProgram) -> bool:
        return False

    def check_in(self, program: BotProgram, proc: BotProcess, *, reusable: bool) -> None:
        proc.terminate_all()


class LaunchError(Exception):
    """The bot could not be started at all (missing interpreter, no sandbox available)."""


def check_command(program: BotProgram) -> None:
    """Refuse a command the kernel cannot pass on (a NUL byte) as the bot's own failure.

    Uploads and ``monsoon play`` check manifests first; this keeps a program built any
    other way from surfacing as a ``ValueError`` out of ``subprocess`` instead of a forfeit.
    """
    for part in (*program.command, *program.env, *program.env.values()):
        if "\x00" in part:
            raise LaunchError(f"the command or environment of {program.name!r} has a NUL byte")


def apply_rlimits(limits: Limits) -> None:
    """Set the rlimits in the current process; called in the child before exec."""
    for name, value in (
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_FSIZE, limits.file_size_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(name, (value, value))


class LocalProcess:
    """A plain child process in its own session (no isolation: for your own bots only)."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self._popen = popen
        self.stdin, self.stdout, self.stderr = pipes_of(popen)
        self.pid = popen.pid
        self._cpu = CpuClock(self._tree_cpu)

    def poll(self) -> int | None:
        return self._popen.poll()

    def _tree_cpu(self) -> float | None:
        # Once reaped, the pid may belong to another process: never read it again.
        return tree_cpu_seconds(self.pid) if self._popen.returncode is None else None

    def cpu_seconds(self) -> float | None:
        """The process tree's CPU time from ``/proc`` (no cgroup for a local bot)."""
        return self._cpu.read()

    def terminate_all(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        self._popen.wait()
        for pipe in (self.stdin, self.stdout, self.stderr):
            with contextlib.suppress(OSError):
                pipe.close()

    def limit_hit(self) -> str | None:
        return None

    def freeze(self) -> None:
        """SIGSTOP the bot's process group (a child that left the group is not stopped)."""
        self._signal_group(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal_group(signal.SIGCONT)

    def _signal_group(self, signum: signal.Signals) -> None:
        if self._popen.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signum)


def pipes_of(popen: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """stdin, stdout and stderr of a process started with three pipes."""
    if popen.stdin is None or popen.stdout is None or popen.stderr is None:
        raise LaunchError("the bot was started without its three pipes")
    return popen.stdin, popen.stdout, popen.stderr


class LocalLauncher:
    """Runs a bot as an ordinary child process with the same rlimits (``--no-sandbox``).

    Its own session lets :meth:`LocalProcess.terminate_all` kill the whole process group.
    The parent's environment is not passed on: only PATH, LANG, a PYTHONPATH holding this
    checkout (so Python bots can import the ``bots`` SDK and the ``engine``) and the program's
    own ``env``.
    """

    def launch(self, program: BotProgram, *, slot: int, limits: Limits) -> BotProcess:
        check_command(program)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONPATH": str(CHECKOUT),
            **program.env,
        }
        try:
            popen = subprocess.Popen(
                list(program.command),
                cwd=program.directory,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
                preexec_fn=lambda: apply_rlimits(limits),
            )
        except OSError as exc:
            raise LaunchError(f"cannot start {program.command[0]!r}: {exc.strerror}") from exc
        return LocalProcess(popen)
