"""The protocol loop: plays one match between bot programs over the bot protocol.

One runner thread drives the engine and every seat. Each bot is started through a
:class:`~workers.launch.Launcher` (a sandbox on the ladder, a plain process with
``--no-sandbox``); the runner talks JSON lines to it with non-blocking pipes and one
``selectors`` loop, so it can enforce every deadline itself and a bot that floods stderr, never
reads stdin or sends a line without end cannot block it.

Whatever a bot does becomes that seat's forfeit with a reason code
(``bots.forfeits.FORFEIT_CODES``), never an exception: the seat is ranked last, its
remaining decisions are made by the seeded random policy, and the match is still played to the
end so the other bots' result counts. The worker turns a :class:`MatchOutcome` into the ladder's
typed result (``workers.matches.tasks.result_of``).

This module is the loop alone: what to play comes from :mod:`workers.matches.job` (a ladder
match) or :mod:`workers.matches.validation` (a smoke match), or from the ``monsoon`` CLI.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from bots.builtin import random_policy
from bots.state_codec import encode_state
from engine.core import Action, GameState, competition_ranking
from engine.log import finish_log, new_log, record_decision
from engine.registry import get_game
from engine.rng import Rng
from workers.launch import (
    BotProcess,
    BotProgram,
    Launcher,
    LaunchError,
    LauncherSeats,
    Limits,
    SeatSource,
    set_deciding,
)
from workers.matches import protocol
from workers.matches.records import GameLog, Progress

STDERR_CAP_BYTES = 64 * 1024
"""Captured stderr kept per seat: the first and the last half of this, the middle dropped."""
STDERR_STEP_MARK = "\n[monsoon step {step}]\n"
"""Written into a seat's captured stderr before the first bytes read during its decision at
replay step ``step`` (1 = the game's first decision), so the match page can tie each line to
the decision it came with (``ladder/web/stderr.py`` reads it back)."""
END_GRACE_S = 0.5
"""After the end message, how long bots get to exit (and flush stderr) before being killed."""
READ_CHUNK = 64 * 1024
STDERR_READ_BUDGET_BYTES = 16 * 1024 * 1024
"""Stderr the runner reads per seat and decision (start-up and the end count as one each).
Past it the pipe is not read until the seat's next decision: copying a flood cost the runner
6.7 s of CPU in a 10 s match. A bot that keeps writing then blocks on its full pipe, and its
own clock runs out."""
FORFEIT_TEXT_CHARS = 300
"""A forfeit reason is cut to this length: it goes into the public log and some details quote
what the bot controls (its command, its reply)."""
BLANK_BYTES_BUDGET = 64 * 1024
"""Blank lines tolerated on a seat's stdout per match (a stray ``print()`` per decision is
fine); a flood of them is a protocol violation, since skipping each costs the runner work."""


@dataclass(frozen=True)
class TimeControls:
    """The clock every seat plays under: the seat's CPU time, with a wall-clock backstop.

    A decision may take ``move_ms``; time beyond that is taken from the seat's bank of
    ``bank_ms`` for the whole match, and a decision that outlasts move time plus bank is a
    ``timeout``. ``startup_ms`` covers starting the program up to its ``ready`` answer.
    ``match_budget_ms`` is the seat's thinking time for the whole match: every decision's charged
    time counts against it, and a seat that uses it up forfeits (``thinking_budget``), so a bot
    that answers slowly but legally cannot keep a worker busy beyond a bound known in advance
    (``ladder.core.match_bounds``). ``max_decisions_per_seat`` is a further cap below the
    game's own bound (``GameSpec.max_decisions``).

    Time is what the seat's processes ran (:meth:`~workers.launch.BotProcess.cpu_seconds`), so
    a busy host, which gives a bot fewer cycles per second, never costs it a game. A seat that
    waits on nothing (asleep, blocked) uses no CPU: it is also charged its wall-clock time
    divided by ``wall_factor``, so it cannot outlast ``wall_factor`` times its allowance in
    wall-clock time. Where the host cannot count a seat's CPU, wall-clock time is charged.
    """

    startup_ms: int = 10_000
    move_ms: int = 1_000
    bank_ms: int = 10_000
    max_decisions_per_seat: int = 20_000
    match_budget_ms: int = 60_000
    wall_factor: float = 10.0


DEFAULT_TIME_CONTROLS = TimeControls()
MIN_CPU_POLL_S = 0.005
"""Shortest pause between two readings of a waiting seat's CPU time."""
CORES = len(os.sched_getaffinity(0))
"""How many CPUs a seat's threads may use at once: its CPU time grows at most this fast."""
DEFAULT_LIMITS = Limits()


class _CappedBytes:
    """Keeps the head and the tail of a stream, counting what was dropped in between."""

    def __init__(self, cap: int) -> None:
        self.half = cap // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            excess = len(self.tail) - self.half
            if excess > 0:
                del self.tail[:excess]
                self.dropped += excess

    def text(self) -> str:
        middle = f"\n[... {self.dropped} bytes of stderr dropped ...]\n" if self.dropped else ""
        return self.head.decode("utf-8", "replace") + middle + self.tail.decode("utf-8", "replace")


class _Seat:
    """One bot at the table: its process, pipe buffers, clock and fate."""

    def __init__(self, index: int, program: BotProgram, bank_ms: int, budget_ms: int) -> None:
        self.index = index
        self.program = program
        self.proc: BotProcess | None = None
        self.in_fd = self.out_fd = self.err_fd = -1
        self.outbuf = bytearray()
        self.pending = b""
        self.stderr = _CappedBytes(STDERR_CAP_BYTES)
        self.stderr_read = 0
        self.stderr_paused = False
        self.blank_bytes = 0
        self.bank_s = bank_ms / 1000
        self.budget_s = budget_ms / 1000
        """What is left of the whole-match thinking budget."""
        self.debug_left = protocol.MAX_DEBUG_CHARS_PER_MATCH
        self.decisions = 0
        self.usage: tuple[int | None, float | None] = (None, None)
        """Peak memory and CPU seconds, read when the seat is closed (``_usage``)."""
        self.forfeit: str | None = None
        self.forfeit_order = 0
        self.stdout_closed = False
        self.wants_state = False
        self.stderr_open = False
        self.out_watched = False
        """Whether stdout is in the selector. It stays there from one decision to the next (a
        polite bot writes nothing in between): registering and unregistering it for every
        decision cost more runner CPU than anything but encoding the request."""
        self.in_watched = False
        """Whether stdin is in the selector: only while a message is partly written."""
        self.stderr_step: int | None = None  # step to mark before the next stderr bytes
        self.line_at = 0.0
        """When the seat's last complete line arrived (monotonic): its start-up ends at its own
        ``ready``, not when the slowest seat's ``ready`` ends the exchange."""
        self.clock_began = 0.0
        """When the seat's running exchange started (monotonic)."""
        self.cpu_began: float | None = None
        """The seat's CPU reading when its running exchange started (None: not counted)."""
        self.cpu_check_at = 0.0
        """When its CPU time could first exceed its allowance (monotonic): read it again then."""
        self.charged_s = 0.0
        """What its last answer was charged: CPU seconds, at least wall seconds / wall_factor."""
        self.warm = False
        """Its process played an earlier match (checked out warm from a seat pool)."""
        self.retry_cold = False
        """A warm process that failed its start-up: ended, the seat starts again cold."""
        self.cpu_base = 0.0
        """The process's CPU seconds when this match got it (a warm process's earlier matches)."""
        self.keep = False
        """The runner offered to keep the process for another match (``end`` with ``next``)."""
        self.done = False
        """The bot answered that ``end`` with ``{"done": true}``: it may be kept."""

    @property
    def live(self) -> bool:
        return self.proc is not None and self.forfeit is None


class _Failure(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class MatchOutcome:
    """A finished match: the result (forfeits applied), the public log and the private stderr.

    ``ranking`` is the match placement: the engine's ranking among seats that did not forfeit,
    then the forfeited seats (a later forfeit places higher than an earlier one). ``log`` is the
    public game log (``engine/log.py`` with per-decision ``ms``/``by``); ``stderr`` is per seat
    and for the bot's owner only, so it is kept out of ``log`` (see :meth:`owner_log`).
    """

    game: str
    variant: str
    seed: int
    names: list[str]
    scores: list[int]
    ranking: list[int]
    engine_ranking: list[int]
    forfeits: list[str | None]
    log: GameLog
    stderr: list[str]
    startup_ms: list[float | None] = field(default_factory=list)
    """Per seat, launch to ``ready`` in wall-clock time (None: it never got there)."""
    phases_s: dict[str, float] = field(default_factory=dict)
    """Wall time of the match's phases: ``startup``, ``play`` and ``finish`` (end message and
    waiting for the bots to exit), for the workers' metrics and the benchmarks."""
    play_cpu_s: float = 0.0
    """The runner thread's own CPU time while playing (engine included): against ``play`` it
    tells what the runner costs from what it waits for (the bots, a busy machine)."""
    seat_usage: list[tuple[int | None, float | None]] = field(default_factory=list)
    """Per seat, its peak memory in bytes and CPU seconds where the sandbox's cgroup reports
    them (None elsewhere), for the workers' metrics."""

    def owner_log(self) -> GameLog:
        """The log with every seat's captured stderr in ``result.stderr`` (for local runs)."""
        log = dict(self.log)
        log["result"] = {**self.log["result"], "stderr": list(self.stderr)}
        return log


def _infrastructure(exc: LaunchError) -> bool:
    """A launch failure that is the host's fault (no sandbox), not the bot's: no forfeit."""
    sandbox = sys.modules.get("workers.sandbox")
    unavailable = getattr(sandbox, "SandboxUnavailable", None)
    return unavailable is not None and isinstance(exc, unavailable)


def _read_now(fd: int, size: int = READ_CHUNK) -> bytes | None:
    """What a non-blocking pipe holds now: None when it is empty but open, ``b""`` when the
    writer has closed it (or it broke: a pipe that errors is treated as closed)."""
    try:
        return os.read(fd, size)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _fd(pipe: IO[bytes]) -> int:
    fd = pipe.fileno()
    os.set_blocking(fd, False)
    return fd


class _Match:
    """The state of one run: seats, selector, engine state and log."""

    def __init__(
        self,
        game: str,
        seed: int,
        bots: Sequence[BotProgram],
        variant: str | None,
        source: SeatSource,
        time_controls: TimeControls,
        limits: Limits,
        names: Sequence[str] | None,
    ) -> None:
        spec = get_game(game)
        self.state: GameState = spec.new_state(seed, len(bots), variant)
        self.game = spec.name
        self.seed = seed
        self.tc = time_controls
        self.limits = limits
        self.source = source
        self.names = list(names) if names is not None else [b.name for b in bots]
        if len(self.names) != len(bots):
            raise ValueError(f"{len(self.names)} names for {len(bots)} bots")
        self.seats = [
            _Seat(i, bot, time_controls.bank_ms, time_controls.match_budget_ms)
            for i, bot in enumerate(bots)
        ]
        self.max_decisions = min(
            time_controls.max_decisions_per_seat, spec.max_decisions(len(bots))
        )
        self.sel = selectors.DefaultSelector()
        self.log = new_log(self.game, self.state.variant, seed, self.names)
        self.forfeit_count = 0
        self.fallback_rngs = [Rng.derive(seed, "fallback", i) for i in range(len(bots))]
        self.startup_ms: list[float | None] = [None] * len(bots)
        self.startup_forfeits = 0
        """How many seats forfeited before the first decision (they share the last place)."""
        self.finished = False
        self.started = False
        """Every seat has answered ``start`` (or failed to): a warm seat's failure is a forfeit."""
        self.awake: _Seat | None = None
        """The seat left thawed after its last decision (see :meth:`_wake`)."""
        # Determinizations for bots that ask must not be derivable from the match seed (a bot
        # could search small seeds and learn the deck), so they come from the OS.
        self.determinize_rng = Rng(int.from_bytes(os.urandom(8), "big"))

    def progress(self) -> Progress:
        """The match so far, safe to call from another thread while the runner plays.

        Only reads: a copy of the decision list (entries are complete before they are
        appended) and each seat's forfeit, so a publisher thread costs the loop nothing.
        """
        return Progress(
            decisions=tuple(self.log["decisions"]),
            forfeits=tuple(seat.forfeit for seat in self.seats),
        )

    # --- forfeits ---------------------------------------------------------------------------
    def forfeit(self, seat: _Seat, code: str, message: str) -> None:
        """Record the seat's forfeit (a limit the sandbox saw wins over the symptom) and stop it."""
        if seat.forfeit is not None:
            return
        if seat.warm and not self.started and code != "startup_timeout":
            # It failed before this match began for it: what went wrong is left from between
            # matches (it exited, or wrote out of turn). End it; the seat starts again cold.
            seat.retry_cold = True
            self._stop(seat)
            return
        limit = seat.proc.limit_hit() if seat.proc is not None else None
        if limit and code in ("crash", "timeout", "startup_timeout", "malformed_reply"):
            code, message = limit, f"the sandbox stopped it ({message})"
        elif code == "crash":
            code = self._guess_limit(seat) or code
        seat.forfeit = f"{code}: {message}"[:FORFEIT_TEXT_CHARS]
        self.forfeit_count += 1
        seat.forfeit_order = self.forfeit_count
        self._stop(seat)

    def _guess_limit(self, seat: _Seat) -> str | None:
        """Without a sandbox report, a Python bot's last words tell a limit from a crash."""
        self._drain_stderr(seat)
        tail = seat.stderr.tail[-4096:] or seat.stderr.head[-4096:]
        if b"MemoryError" in tail:
            return "memory_limit"
        if b"Resource temporarily unavailable" in tail and (
            b"fork" in tail or b"spawn" in tail or b"Thread" in tail
        ):
            return "process_limit"
        return None

    def _stop(self, seat: _Seat) -> None:
        if seat.proc is None:
            return
        self._drain_stderr(seat)
        for fd in (seat.in_fd, seat.out_fd, seat.err_fd):
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(fd)
        seat.stderr_open = seat.out_watched = seat.in_watched = False
        proc, seat.proc = seat.proc, None
        seat.usage = _usage(proc, seat.cpu_base)
        self.source.check_in(seat.program, proc, reusable=False)

    # --- pipes ------------------------------------------------------------------------------
    def _drain_stderr(self, seat: _Seat, budget: int = 16) -> None:
        """Read what stderr holds right now (non-blocking, bounded)."""
        if not seat.stderr_open:
            return
        for _ in range(budget):
            chunk = _read_now(seat.err_fd)
            if chunk is None:
                return
            if not chunk:
                seat.stderr_open = False
                with contextlib.suppress(KeyError, ValueError):
                    self.sel.unregister(seat.err_fd)
                return
            if seat.stderr_step is not None:
                seat.stderr.add(STDERR_STEP_MARK.format(step=seat.stderr_step).encode())
                seat.stderr_step = None
            seat.stderr.add(chunk)
            seat.stderr_read += len(chunk)
            if seat.stderr_read >= STDERR_READ_BUDGET_BYTES:
                seat.stderr.add(
                    f"\n[stderr beyond {STDERR_READ_BUDGET_BYTES} bytes in one decision is not "
                    "read; further writes block the bot until its next decision]\n".encode()
                )
                seat.stderr_open = False
                seat.stderr_paused = True
                with contextlib.suppress(KeyError, ValueError):
                    self.sel.unregister(seat.err_fd)
                return

    def _resume_stderr(self, seat: _Seat) -> None:
        """A new decision gets a fresh stderr budget, and a paused pipe is read again."""
        seat.stderr_read = 0
        if seat.stderr_paused:
            seat.stderr_paused = False
            seat.stderr_open = True
            self.sel.register(seat.err_fd, selectors.EVENT_READ, (seat, "err"))

    def _take_line(self, seat: _Seat) -> bytes | None:
        """A complete non-blank line from the seat's buffer, or None; enforces the length cap."""
        while True:
            end = seat.outbuf.find(b"\n")
            if end < 0:
                if len(seat.outbuf) > protocol.MAX_REPLY_BYTES:
                    raise _Failure(
                        "oversized_line",
                        f"a line longer than {protocol.MAX_REPLY_BYTES} bytes",
                    )
                return None
            line = bytes(seat.outbuf[:end])
            del seat.outbuf[: end + 1]
            if end > protocol.MAX_REPLY_BYTES:
                raise _Failure(
                    "oversized_line", f"a line of {end} bytes (limit {protocol.MAX_REPLY_BYTES})"
                )
            if line.strip():
                return line
            seat.blank_bytes += end + 1
            if seat.blank_bytes > BLANK_BYTES_BUDGET:
                raise _Failure(
                    "malformed_reply",
                    f"more than {BLANK_BYTES_BUDGET} bytes of blank lines on its output",
                )

    def _crash_message(self, seat: _Seat, what: str) -> str:
        proc = seat.proc
        status = None
        if proc is not None:
            for _ in range(20):
                status = proc.poll()
                if status is not None:
                    break
                time.sleep(0.005)
        if status is None:
            return f"{what} (still running)"
        if status < 0:
            return f"{what}: killed by signal {-status}"
        return f"{what}: exited with status {status}"

    def _start_clock(self, seat: _Seat, began: float, *, fresh: bool = False) -> None:
        """Start the seat's clock: wall time from ``began``, CPU time from now (or from zero
        for a ``fresh`` process, whose whole CPU time is its start-up)."""
        seat.clock_began = seat.cpu_check_at = began
        cpu = seat.proc.cpu_seconds() if seat.proc is not None else None
        seat.cpu_began = 0.0 if fresh and cpu is not None else cpu

    def _charge(self, seat: _Seat, now: float) -> tuple[float, bool]:
        """What the seat's running exchange has cost so far, and whether wall time decided it.

        CPU seconds since its clock started, but at least its wall seconds over
        ``wall_factor``; wall seconds where the seat's CPU time is not counted.
        """
        wall = now - seat.clock_began
        cpu = seat.proc.cpu_seconds() if seat.proc is not None else None
        if seat.cpu_began is None or cpu is None:
            return wall, True
        backstop = wall / self.tc.wall_factor
        used = cpu - seat.cpu_began
        return (used, False) if used >= backstop else (backstop, True)

    def exchange(self, waits: dict[_Seat, tuple[bytes, float]], code: str) -> dict[_Seat, bytes]:
        """Send each seat its message and wait for one line back from each within its allowance.

        ``waits`` maps a seat to (bytes to write, seconds of time it may be charged); each
        seat's clock was started by :meth:`_start_clock`. Returns the line per seat that
        answered (with what it was charged in ``charged_s``); seats that failed are forfeited
        here (``code`` for a missed deadline).
        """
        lines: dict[_Seat, bytes] = {}
        waiting: dict[_Seat, float] = {}
        for seat, (payload, allowance) in waits.items():
            seat.pending = payload
            try:
                line = self._take_line(seat)
            except _Failure as failure:
                self.forfeit(seat, failure.code, str(failure))
                continue
            if line is not None:
                lines[seat] = line
                seat.line_at = time.monotonic()
                seat.charged_s, _ = self._charge(seat, seat.line_at)
                seat.pending = b""
                continue
            waiting[seat] = allowance
            self._watch_out(seat)
            if payload:
                self._write(seat)
                if seat.forfeit is not None or seat.proc is None:  # None: warm, retried cold
                    del waiting[seat]
        try:
            while waiting:
                now = time.monotonic()
                for seat, allowance in list(waiting.items()):
                    if now < seat.cpu_check_at:
                        continue
                    charged, by_wall = self._charge(seat, now)
                    if charged < allowance:
                        # Charged time grows at most CORES times as fast as wall time (one
                        # second per second where only wall time is counted).
                        rate = 1.0 if seat.cpu_began is None else CORES
                        seat.cpu_check_at = now + max((allowance - charged) / rate, MIN_CPU_POLL_S)
                        continue
                    del waiting[seat]
                    self._unwatch(seat)
                    self.forfeit(seat, code, self._timeout_text(seat, allowance, code, by_wall))
                if not waiting:
                    break
                timeout = max(0.0, min(seat.cpu_check_at for seat in waiting) - now)
                for key, _ in self.sel.select(timeout):
                    seat, kind = key.data
                    if seat.proc is None:  # stopped by an earlier event of this batch
                        continue
                    if kind == "err":
                        self._drain_stderr(seat, budget=1)
                    elif kind == "in":
                        self._write(seat)
                    elif seat in waiting:
                        self._read(seat, waiting, lines)
                    else:  # output between its decisions: read only when it is asked again
                        self._unwatch_out(seat)
        finally:
            for seat in waiting:
                self._unwatch(seat)
        return lines

    def _timeout_text(self, seat: _Seat, allowance: float, code: str, by_wall: bool) -> str:
        if code == "thinking_budget":
            seat.budget_s = 0.0
            return self._budget_text(seat)
        what = "no ready answer" if code == "startup_timeout" else "no reply"
        budget = f"{allowance * 1000:.0f} ms"
        if code != "startup_timeout":
            budget += " (move time plus the time bank)"
        if seat.cpu_began is None:
            return f"{what} within {budget}"
        if by_wall:
            return (
                f"{what} within {self.tc.wall_factor:g} times {budget} of wall-clock time "
                "(the backstop for a bot that waits instead of computing)"
            )
        return f"{what} within {budget} of CPU time"

    def _watch_out(self, seat: _Seat) -> None:
        if not seat.out_watched:
            self.sel.register(seat.out_fd, selectors.EVENT_READ, (seat, "out"))
            seat.out_watched = True

    def _unwatch_out(self, seat: _Seat) -> None:
        if seat.out_watched:
            self.sel.unregister(seat.out_fd)
            seat.out_watched = False

    def _unwatch(self, seat: _Seat) -> None:
        """Stop watching the seat's pipes to the bot (a failure, or the end of the match)."""
        self._unwatch_out(seat)
        if seat.in_watched:
            self.sel.unregister(seat.in_fd)
            seat.in_watched = False
        seat.pending = b""

    def _write(self, seat: _Seat) -> None:
        try:
            written = os.write(seat.in_fd, seat.pending)
        except BlockingIOError:
            written = 0
        except OSError:
            self._unwatch(seat)
            if not self.finished:  # a bot may exit before reading "end": that is fine
                self.forfeit(seat, "crash", self._crash_message(seat, "stopped reading its input"))
            return
        seat.pending = seat.pending[written:]
        if seat.pending and not seat.in_watched:
            self.sel.register(seat.in_fd, selectors.EVENT_WRITE, (seat, "in"))
            seat.in_watched = True
        elif not seat.pending and seat.in_watched:
            self.sel.unregister(seat.in_fd)
            seat.in_watched = False

    def _read(self, seat: _Seat, waiting: dict[_Seat, float], lines: dict[_Seat, bytes]) -> None:
        # Never more than one byte past the longest reply: an oversized one is refused
        # without being read on, so it costs the runner no more than a legal reply.
        room = max(1, protocol.MAX_REPLY_BYTES + 2 - len(seat.outbuf))
        chunk = _read_now(seat.out_fd, min(READ_CHUNK, room))
        if chunk is None:
            return
        failure: _Failure | None = None
        line = None
        if not chunk:
            failure = _Failure("crash", self._crash_message(seat, "closed its output"))
        else:
            seat.outbuf += chunk
            try:
                line = self._take_line(seat)
            except _Failure as exc:
                failure = exc
        if failure is None and line is None:
            return
        del waiting[seat]
        if failure is not None:
            self._unwatch(seat)
            self.forfeit(seat, failure.code, str(failure))
        elif line is not None:
            seat.pending = b""  # stdout stays watched for the seat's next decision
            seat.line_at = time.monotonic()
            seat.charged_s, _ = self._charge(seat, seat.line_at)
            lines[seat] = line

    # --- the match --------------------------------------------------------------------------
    def start(self) -> None:
        """Get every seat's process, send ``start`` and wait for all ``ready`` answers in parallel.

        A warm process (one that played an earlier match) that fails before its ``ready`` for
        any reason but the clock is ended and its seat started again cold, with a fresh
        start-up clock: what went wrong is left over from between matches, not this match.
        """
        lines = self._start_seats(list(self.seats), cold=False)
        retry = [seat for seat in self.seats if seat.retry_cold]
        for seat in retry:
            seat.retry_cold = seat.warm = False
            seat.stderr = _CappedBytes(STDERR_CAP_BYTES)
        if retry:
            lines.update(self._start_seats(retry, cold=True))
        self.started = True
        for seat, line in lines.items():
            if seat.proc is None:
                continue
            self.startup_ms[seat.index] = round((seat.line_at - seat.clock_began) * 1000, 1)
            try:
                seat.wants_state = protocol.parse_ready(line)
            except protocol.ProtocolError as exc:
                self.forfeit(seat, exc.code, str(exc))
        for seat in self.seats:  # sandbox hook: nobody computes until asked (docs/sandbox.md)
            set_deciding(seat.proc, False)
        self.startup_forfeits = self.forfeit_count

    def _start_seats(self, seats: list[_Seat], *, cold: bool) -> dict[_Seat, bytes]:
        """Check out the seats' processes, send each its ``start``; their answer lines.

        A warm seat's ``ready`` is checked here already: one that is not a valid answer marks
        it for a cold retry (:meth:`forfeit`) rather than forfeiting the new match.
        """
        n = len(self.seats)
        waits: dict[_Seat, tuple[bytes, float]] = {}
        for seat in seats:
            began = time.monotonic()
            try:
                proc, seat.warm = self.source.check_out(
                    seat.program, slot=seat.index, limits=self.limits, cold=cold
                )
            except LaunchError as exc:
                if _infrastructure(exc):
                    raise
                self.forfeit(seat, "crash", f"could not be started: {exc}")
                continue
            seat.proc = proc
            seat.in_fd, seat.out_fd, seat.err_fd = (
                _fd(proc.stdin),
                _fd(proc.stdout),
                _fd(proc.stderr),
            )
            seat.stderr_open = True
            seat.stdout_closed = False
            self.sel.register(seat.err_fd, selectors.EVENT_READ, (seat, "err"))
            if seat.warm:
                set_deciding(proc, True)  # frozen while it waited between matches
                seat.cpu_base = proc.cpu_seconds() or 0.0
            message = protocol.start_message(
                game=self.game,
                variant=self.state.variant,
                seat=seat.index,
                num_players=n,
                seats=self.names,
                startup_ms=self.tc.startup_ms,
                move_ms=self.tc.move_ms,
                bank_ms=self.tc.bank_ms,
                max_decisions=self.max_decisions,
                match_budget_ms=self.tc.match_budget_ms,
            )
            self._start_clock(seat, began, fresh=not seat.warm)
            waits[seat] = (protocol.encode(message), self.tc.startup_ms / 1000)
        lines = self.exchange(waits, "startup_timeout")
        for seat, line in list(lines.items()):
            if not seat.warm:
                continue
            try:
                protocol.parse_ready(line)
            except protocol.ProtocolError as exc:
                self.forfeit(seat, exc.code, str(exc))
                del lines[seat]
        return lines

    def play(self) -> None:
        state = self.state
        while (player := state.current_player()) is not None:
            legal = state.legal_actions()
            seat = self.seats[player]
            if len(legal) == 1:
                action, extra = legal[0], {"by": "forced"}
            elif seat.live:
                action, extra = self.ask(seat, legal)
            else:
                action, extra = None, {}
            if not extra:
                observation = state.observation(player)
                action = random_policy(observation, legal, self.fallback_rngs[player])
                extra = {"by": "fallback"}
            state.apply(action)
            record_decision(self.log, player, action, **extra)

    def ask(self, seat: _Seat, legal: list[Action]) -> tuple[Action, dict[str, Any]]:
        """One decision by a bot; an empty ``extra`` means the seat forfeited meanwhile."""
        if seat.decisions >= self.max_decisions:
            self.forfeit(
                seat, "decision_limit", f"more than {self.max_decisions} decisions in one match"
            )
            return None, {}
        if seat.budget_s <= 0:
            self.forfeit(seat, "thinking_budget", self._budget_text(seat))
            return None, {}
        seat.decisions += 1
        self._drain_stderr(seat)  # what came before belongs to earlier steps
        seat.stderr_step = len(self.log["decisions"]) + 1
        self._resume_stderr(seat)
        sample = None
        if seat.wants_state:
            sample = encode_state(self.state.determinize(seat.index, self.determinize_rng))
        message = protocol.request_message(
            decision=seat.decisions,
            observation=self.state.observation(seat.index),
            legal_actions=legal,
            move_ms=self.tc.move_ms,
            bank_ms=seat.bank_s * 1000,
            state=sample,
            budget_ms=seat.budget_s * 1000,
        )
        payload = protocol.encode(message)
        self._wake(seat)  # thawed before its clock starts
        self._start_clock(seat, time.monotonic())
        allowance = self.tc.move_ms / 1000 + seat.bank_s
        code = "timeout"
        if seat.budget_s < allowance:  # the whole-match budget runs out first
            allowance, code = seat.budget_s, "thinking_budget"
        line = self.exchange({seat: (payload, allowance)}, code).get(seat)
        if line is None:
            return None, {}
        elapsed = seat.charged_s
        seat.budget_s -= elapsed
        seat.bank_s = max(0.0, seat.bank_s - max(0.0, elapsed - self.tc.move_ms / 1000))
        try:
            reply = protocol.parse_reply(line, legal)
        except protocol.ProtocolError as exc:
            self.forfeit(seat, exc.code, f"decision {seat.decisions}: {exc}")
            return None, {}
        extra: dict[str, Any] = {"ms": round(elapsed * 1000, 3), "by": "bot"}
        if reply.debug and seat.debug_left > 0:
            extra["debug"] = reply.debug[: seat.debug_left]
            seat.debug_left -= len(extra["debug"])
        return reply.action, extra

    def _budget_text(self, seat: _Seat) -> str:
        used = self.tc.match_budget_ms / 1000 - seat.budget_s
        return (
            f"used its whole-match thinking budget of {self.tc.match_budget_ms} ms "
            f"({used:.1f} s over {seat.decisions} decisions)"
        )

    def _wake(self, seat: _Seat) -> None:
        """Thaw the seat about to decide, freezing the one that decided before it (sandbox hook).

        A seat stays thawed after its reply until another seat is asked: two out of three of a
        Batavia seat's decisions follow its own previous one (several actions in one turn), and
        each freeze or thaw wakes the bot, which cost ~65 us of the runner's time per call under
        load. Nobody's clock runs in between (the engine's moves and forced decisions), and the
        seat is frozen before any other seat's clock starts, so during the other seats' turns it
        still gets nothing done.
        """
        if self.awake is seat:
            return
        if self.awake is not None:
            set_deciding(self.awake.proc, False)
        set_deciding(seat.proc, True)
        self.awake = seat

    def placement(self) -> list[int]:
        """Engine ranking among seats that kept playing, then forfeits (latest first)."""
        engine = self.state.ranking()
        keys = [
            (0, seat.forfeit_order) if seat.forfeit else (1, -engine[seat.index])
            for seat in self.seats
        ]
        # Forfeits at start-up happen together: they share a place.
        keys = [
            (0, 0) if seat.forfeit and seat.forfeit_order <= self.startup_forfeits else key
            for seat, key in zip(self.seats, keys, strict=True)
        ]
        return competition_ranking(keys)

    def finish(self) -> MatchOutcome:
        """Tell the bots the result, give them a moment to exit, and build the outcome."""
        self.finished = True
        placement = self.placement()
        forfeits = [seat.forfeit for seat in self.seats]
        scores = self.state.scores()
        deadline = time.monotonic() + END_GRACE_S
        for seat in self.seats:
            if not seat.live:
                continue
            set_deciding(seat.proc, True)  # sandbox hook: it may read "end" and exit
            seat.keep = self.source.keeps(seat.program) and self._cpu_headroom(seat)
            message = protocol.end_message(
                scores=scores,
                ranking=placement,
                forfeits=forfeits,
                seat=seat.index,
                next_match=seat.keep,
            )
            seat.pending = protocol.encode(message)
            self._write(seat)
        self._wait_for_exit(deadline)
        finish_log(self.log, self.state, placement=placement, forfeits=forfeits)
        return MatchOutcome(
            game=self.game,
            variant=self.state.variant,
            seed=self.seed,
            names=self.names,
            scores=scores,
            ranking=placement,
            engine_ranking=self.state.ranking(),
            forfeits=forfeits,
            log=self.log,
            stderr=[seat.stderr.text() for seat in self.seats],
            startup_ms=self.startup_ms,
        )

    def _cpu_headroom(self, seat: _Seat) -> bool:
        """Whether the process's CPU rlimit (for its whole life) leaves room for one more match:
        its start-up, its whole thinking budget and the end, each at most what the clock allows."""
        cpu = seat.proc.cpu_seconds() if seat.proc is not None else None
        if cpu is None:
            return True
        match_s = (self.tc.startup_ms + self.tc.match_budget_ms) / 1000 + END_GRACE_S * CORES
        return cpu + match_s < self.limits.cpu_seconds

    def _wait_for_exit(self, deadline: float) -> None:
        """Close stdin once the end message is out; collect stderr until the bots are gone.

        A seat offered to be kept (``keep``) is not closed: it is waited for until it answers
        ``{"done": true}``; anything else on its stdout, or no answer by the deadline, and it is
        not kept (:meth:`close` ends it; the match is over, so nothing is forfeited).
        """
        live = [seat for seat in self.seats if seat.live]
        offered = {seat for seat in live if seat.keep}
        for seat in live:
            self._watch_out(seat)
        while True:
            for seat in live:
                if seat in offered or seat.proc is None:
                    continue
                if not seat.pending and not seat.proc.stdin.closed:
                    if seat.in_watched:
                        self.sel.unregister(seat.in_fd)
                        seat.in_watched = False
                    with contextlib.suppress(OSError):
                        seat.proc.stdin.close()  # end of input: a polite bot exits now
            if all(
                (seat.done or not seat.keep)
                if seat in offered
                else seat.stdout_closed and not seat.stderr_open
                for seat in live
            ):
                break
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                break
            for key, _ in self.sel.select(timeout):
                seat, kind = key.data
                if seat.proc is None:
                    continue
                if kind == "err":
                    self._drain_stderr(seat, budget=1)
                elif kind == "in":
                    self._write(seat)
                elif seat in offered:
                    if seat.keep:
                        self._read_done(seat)
                    else:
                        self._unwatch_out(seat)
                else:
                    chunk = _read_now(seat.out_fd)
                    if chunk is None:
                        continue
                    if not chunk:
                        seat.stdout_closed = True
                        self._unwatch_out(seat)
        for seat in live:
            if seat.keep and seat.done and seat.proc is not None:
                self._unwatch(seat)
                self._drain_stderr(seat)  # what it wrote before its answer belongs to this match
            elif seat.keep:
                seat.keep = False

    def _read_done(self, seat: _Seat) -> None:
        """Read a kept seat's answer to ``end``: exactly one ``{"done": true}`` line."""
        chunk = _read_now(seat.out_fd)
        if chunk is None:
            return
        if not chunk:
            seat.stdout_closed = True
            seat.keep = seat.done = False
            self._unwatch_out(seat)
            return
        seat.outbuf += chunk
        try:
            line = self._take_line(seat)
        except _Failure:
            line = b""
        if line is None:
            return
        seat.done = not seat.done and protocol.parse_done(line) and not seat.outbuf
        if not seat.done:
            seat.keep = False
            self._unwatch_out(seat)

    def close(self) -> None:
        """Kill whatever is left of every bot; runs whatever happened before."""
        for seat in self.seats:
            proc, seat.proc = seat.proc, None
            if proc is None:
                continue
            reusable = seat.keep and seat.done and seat.forfeit is None
            if not reusable:
                with contextlib.suppress(Exception):
                    self._drain_stderr(seat)
            seat.usage = _usage(proc, seat.cpu_base)
            try:
                self.source.check_in(seat.program, proc, reusable=reusable)
            except Exception:
                if reusable:  # keeping it failed: never leave it running
                    proc.terminate_all()
                raise
        self.sel.close()


def _usage(proc: BotProcess, cpu_base: float = 0.0) -> tuple[int | None, float | None]:
    """A seat's peak memory and CPU time in this match, where its launcher can tell them.

    ``cpu_base`` is what a warm process had used before this match. A warm process's peak is
    this match's where the cgroup's peak could be reset when the match began (cgroup v1),
    else the highest of its life (``docs/sandbox.md``, "Warm seats").
    """
    peak = getattr(proc, "peak_memory_bytes", None)
    cpu = getattr(proc, "cpu_seconds", None)
    used = cpu() if callable(cpu) else None
    return (
        peak() if callable(peak) else None,
        None if used is None else max(0.0, used - cpu_base),
    )


def run_match(
    game: str,
    seed: int,
    bots: Sequence[BotProgram],
    *,
    variant: str | None = None,
    launcher: Launcher,
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS,
    limits: Limits = DEFAULT_LIMITS,
    names: Sequence[str] | None = None,
    watch: Callable[[Callable[[], Progress]], None] | None = None,
    seats: SeatSource | None = None,
) -> MatchOutcome:
    """Play one match between bot programs and return its outcome.

    ``watch``, when given, is called once before the bots start with a function that returns
    the match's :class:`~workers.matches.records.Progress`; a worker's publisher thread polls
    it so spectators can follow the match live without the loop doing anything for them.

    Bad arguments (unknown game, wrong player count, bad seed) raise the engine's errors before
    any bot starts; after that, nothing a bot does raises: it forfeits. The one exception is
    ``workers.sandbox.SandboxUnavailable`` from the launcher: the host cannot sandbox, which is
    an infrastructure failure, not the bots' (every started bot is killed first).

    ``seats`` (a ``workers.seats.SeatPool``) hands out the seats' processes instead of
    ``launcher``: warm ones that played an earlier match where it has them, and it takes back
    those of bots that play many matches (``docs/bot-protocol.md``, "Many matches in one
    process"). Each match still has its own clock, budget and limits.
    """
    source = seats if seats is not None else LauncherSeats(launcher)
    match = _Match(game, seed, bots, variant, source, time_controls, limits, names)
    if watch is not None:
        watch(match.progress)
    try:
        began = time.monotonic()
        match.start()
        started = time.monotonic()
        cpu = time.thread_time()
        match.play()
        played = time.monotonic()
        cpu = time.thread_time() - cpu
        outcome = match.finish()
        outcome.phases_s = {
            "startup": started - began,
            "play": played - started,
            "finish": time.monotonic() - played,
        }
        outcome.play_cpu_s = cpu
    finally:
        match.close()
    outcome.seat_usage = [seat.usage for seat in match.seats]
    return outcome
