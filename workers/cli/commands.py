"""``monsoon``: list games, play and replay matches, measure the engines, submit to the ladder.

Errors a user can cause (unknown game or bot, unreadable or non-reproducing log)
print one clear line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.kit import kit_version
from bots.starters import KITS, LANGUAGES, MANIFEST, copy_kit
from engine.core import EngineError
from engine.log import replay
from engine.registry import all_games, get_game
from workers.cli import remote
from workers.cli.bots import BotNotFound, resolve_bot
from workers.launch import Launcher, LocalLauncher
from workers.matches.reference import REFERENCE_BOTS
from workers.matches.runner import TimeControls, run_match

EXIT_USAGE = 2


class CommandError(Exception):
    """A user mistake reported as one line."""


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_games(args: argparse.Namespace) -> None:
    rows = [
        [s.name, s.title, f"{s.min_players}-{s.max_players}", ", ".join(s.variants), s.summary]
        for s in all_games().values()
    ]
    print(_table(rows, ["game", "title", "players", "variants", "summary"]))


def _result_table(
    names: Sequence[str],
    scores: Sequence[int],
    places: Sequence[int],
    forfeits: Sequence[str | None] | None = None,
) -> str:
    """The match's placement (forfeited seats last, as the ladder rates it), best first."""
    order = sorted(range(len(names)), key=lambda seat: (places[seat], seat))
    reasons = forfeits or [None] * len(names)
    rows = [
        [
            str(places[s]),
            str(s),
            names[s],
            str(scores[s]),
            f"forfeit: {reasons[s]}" if reasons[s] else "",
        ]
        for s in order
    ]
    return _table(rows, ["place", "seat", "bot", "score", ""])


def _launcher(no_sandbox: bool) -> Launcher:
    """The bubblewrap sandbox, or with ``--no-sandbox`` plain processes (after a warning)."""
    if no_sandbox:
        print(
            "monsoon play: WARNING: --no-sandbox runs the bots as ordinary processes with your "
            "rights; use it only for bots whose code you trust",
            file=sys.stderr,
        )
        return LocalLauncher()
    problem: str | None
    try:
        from workers.cgroups import seat_bounds_problem
        from workers.sandbox import BwrapLauncher, sandbox_problem
    except ImportError:
        problem = "the bubblewrap sandbox (workers.sandbox) is not part of this checkout"
    else:
        problem = sandbox_problem()
        if problem is None:
            # A host that cannot bound a seat's total memory (no usable cgroup) is refused by
            # the launcher; say so here, with both ways out, instead of a traceback mid-match.
            problem = seat_bounds_problem()
            if problem is not None:
                raise CommandError(
                    f"{problem}. On your own machine, MONSOON_ALLOW_UNBOUNDED_SEATS=1 runs the "
                    "bots sandboxed with per-process limits; --no-sandbox runs bots you trust "
                    "without a sandbox"
                )
            return BwrapLauncher()
    raise CommandError(
        f"{problem}; refusing to run bots unsandboxed. To run bots you trust (your own) "
        "without a sandbox, add --no-sandbox"
    )


def cmd_play(args: argparse.Namespace) -> None:
    spec = get_game(args.game)
    if not args.bot:
        raise CommandError("name one --bot per seat, e.g. --bot random --bot greedy --bot random")
    if len(args.bot) not in spec.player_counts:
        raise CommandError(
            f"{spec.name} needs {spec.min_players}-{spec.max_players} --bot options, "
            f"got {len(args.bot)}"
        )
    programs = [resolve_bot(name, spec.name) for name in args.bot]
    variant = args.variant or spec.default_variant
    time_controls = TimeControls(
        startup_ms=args.startup_ms,
        move_ms=args.move_ms,
        bank_ms=args.bank_ms,
        max_decisions_per_seat=args.max_decisions,
    )
    for name, value in (
        ("--startup-ms", args.startup_ms),
        ("--move-ms", args.move_ms),
        ("--bank-ms", args.bank_ms),
        ("--max-decisions", args.max_decisions),
    ):
        if value < 0 or (value == 0 and name != "--bank-ms"):
            raise CommandError(f"{name} must be positive, not {value}")
    launcher = _launcher(args.no_sandbox)
    if args.verbose:
        print(
            f"{spec.title}: {len(args.bot)} players, seed {args.seed}, variant {variant}, "
            f"{args.move_ms} ms per decision + {args.bank_ms} ms bank"
        )
    outcome = run_match(
        spec.name,
        args.seed,
        programs,
        variant=args.variant,
        launcher=launcher,
        time_controls=time_controls,
        names=args.bot,
    )
    log = outcome.log
    if args.verbose:
        for number, entry in enumerate(log["decisions"], 1):
            how = f"{entry['ms']:.1f} ms" if "ms" in entry else entry.get("by", "")
            print(
                f"{number:4d}  seat {entry['seat']} ({args.bot[entry['seat']]}): "
                f"{json.dumps(entry['action'])}  [{how}]"
            )
        print()
    print(_result_table(args.bot, outcome.scores, outcome.ranking, outcome.forfeits))
    print(f"{len(log['decisions'])} decisions")
    for seat, reason in enumerate(outcome.forfeits):
        if reason:
            print(f"seat {seat} ({args.bot[seat]}) forfeited: {reason}")
    for seat, text in enumerate(outcome.stderr):
        if text.strip():
            print(f"--- stderr of seat {seat} ({args.bot[seat]}) ---")
            print(text.rstrip())
    if args.log:
        path = Path(args.log)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(outcome.owner_log(), indent=1) + "\n")
        print(f"log written to {path.resolve()}")


NEW_BOT_MAIN = '''"""A starter bot for {game}: change act() and run test_bot.py.

The observation is exactly what your seat may see (docs/games/{game}.md lists its fields);
legal_actions are the actions you may take now. Return one of them. Print debugging output
to stderr: stdout carries the bot protocol (docs/bot-protocol.md).
"""

import random

from bots.sdk import run


def act(observation, legal_actions):
    return random.choice(legal_actions)


if __name__ == "__main__":
    run(act)
'''

NEW_BOT_TEST = '''"""Plays whole {game} games offline against itself: pytest test_bot.py"""

from bots.sdk import play_offline
from main import act


def test_the_bot_finishes_games_with_legal_actions():
    for seed in range(3):
        state, log = play_offline("{game}", [act] * {players}, seed=seed)
        assert state.is_terminal()
        assert any(entry["by"] == "bot" for entry in log["decisions"])


if __name__ == "__main__":
    test_the_bot_finishes_games_with_legal_actions()
    print("ok")
'''


README_PLAY = re.compile(r"monsoon play [a-z_]+ --bot path/to/this/folder(?: --bot random)+")
"""The example play command of every starter kit's README."""


def _write_starter_kit(game: str, players: int, directory: Path, language: str) -> None:
    """``new-bot --lang``: copy ``bots/starters/<language>/``, declaring ``game`` in its manifest
    (an upload to a bot of another game is then refused with a clear reason)."""
    kit = KITS[language]
    copy_kit(language, directory)
    manifest = json.loads((directory / MANIFEST).read_text())
    (directory / MANIFEST).write_text(json.dumps({**manifest, "game": game}) + "\n")
    play = f"monsoon play {game} " + " ".join(
        [f"--bot {shlex.quote(str(directory))}"] + ["--bot random"] * (players - 1)
    )
    readme = directory / "README.md"
    if readme.is_file():  # the kit's example plays some game: make it this bot's own
        readme.write_text(README_PLAY.sub(play, readme.read_text()))
    print(f"wrote a {language} starter bot for {game} to {directory.resolve()} (see its README.md)")
    for command in kit.build:
        print(f"build:  (cd {directory} && {' '.join(command)})")
    print(f"play:   {play}")
    print(f"upload: (cd {directory} && tar czf mybot.tar.gz {' '.join((MANIFEST, *kit.upload))})")


def cmd_new_bot(args: argparse.Namespace) -> None:
    spec = get_game(args.game)
    directory = Path(args.dir)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise CommandError(f"{directory} already exists and is not an empty directory")
    directory.mkdir(parents=True, exist_ok=True)
    if args.lang:
        _write_starter_kit(spec.name, spec.min_players, directory, args.lang)
        return
    (directory / "main.py").write_text(NEW_BOT_MAIN.format(game=spec.name))
    # bots.sdk.run plays match after match in one process: the ladder may keep it warm.
    manifest = {"command": ["python3", "main.py"], "matches": "many"}
    (directory / MANIFEST).write_text(json.dumps(manifest) + "\n")
    (directory / "test_bot.py").write_text(
        NEW_BOT_TEST.format(game=spec.name, players=spec.min_players)
    )
    print(f"wrote a {spec.name} starter bot to {directory.resolve()}:")
    print("  main.py      the bot: edit act(observation, legal_actions)")
    print(f"  {MANIFEST}  how the ladder starts it (one process plays many matches)")
    print("  test_bot.py  plays it offline against reference bots")
    # The interpreter and the monsoon command of this installation: a system Python has neither
    # the engine nor pytest, so a bare `python -m pytest` failed.
    if importlib.util.find_spec("pytest") is not None:
        print(f"test it: {shlex.quote(sys.executable)} -m pytest {shlex.quote(str(directory))}")
    else:  # the kit brings no pytest: the test file runs as a script too
        test_file = shlex.quote(str(directory / "test_bot.py"))
        print(f"test it: {shlex.quote(sys.executable)} {test_file}")
    opponents = ["--bot random"] * (spec.min_players - 1)
    print(
        f"play it: {shlex.quote(_monsoon_command())} play {spec.name} "
        + " ".join([f"--bot {shlex.quote(str(directory))}", *opponents])
    )


def _placement(
    log: dict[str, Any], ranking: list[int]
) -> tuple[list[int], list[str | None] | None]:
    """The match's placement and forfeits as the runner recorded them, else the engine's ranking.

    Replay proves the engine's result; the placement (forfeited seats last) is what the match
    counted, so that is what is shown, with each forfeit's reason.
    """
    result = log.get("result") or {}
    placement, forfeits = result.get("placement"), result.get("forfeits")
    seats = len(ranking)
    if not (isinstance(placement, list) and len(placement) == seats):
        return ranking, None
    if not (isinstance(forfeits, list) and len(forfeits) == seats):
        forfeits = None
    return [int(p) for p in placement], forfeits


def _monsoon_command() -> str:
    """``monsoon`` as installed beside this interpreter (a venv's bin/), else from PATH."""
    beside = Path(sys.executable).parent / "monsoon"
    return str(beside) if beside.exists() else "monsoon"


def cmd_replay(args: argparse.Namespace) -> None:
    path = Path(args.file)
    try:
        log = json.loads(path.read_text())
    except FileNotFoundError:
        raise CommandError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path} is not JSON: {exc}") from None
    state = replay(log)
    print(
        f"{path}: reproduces ({log['game']}, seed {log['seed']}, {len(log['decisions'])} decisions)"
    )
    print(_result_table(log["seats"], state.scores(), *_placement(log, state.ranking())))


def cmd_bench(args: argparse.Namespace) -> None:
    from workers.bench import measure_random_play

    games = [get_game(args.game).name] if args.game else list(all_games())
    rows = []
    for game in games:
        result = measure_random_play(game, args.players, args.seconds)
        rows.append(
            [
                game,
                str(result.num_players),
                str(result.games),
                f"{result.games_per_second:,.1f}",
                f"{result.decisions_per_second:,.0f}",
            ]
        )
    print(_table(rows, ["game", "players", "games", "games/s", "decisions/s"]))


def cmd_login(args: argparse.Namespace) -> None:
    site = args.site or os.environ.get("MONSOON_SITE") or remote.load_config().get("site")
    if not site:
        raise CommandError("say which site: --site https://monsoon.example")
    api = remote.Api(site, insecure=args.insecure)  # a refused site before any question
    username = password = ""
    if not args.token:
        username = args.username or remote.prompt("user name: ")
        password = os.environ.get("MONSOON_PASSWORD") or remote.prompt("password: ", secret=True)
    name, path = remote.login(api, username, password, args.token or "")
    print(f"logged in to {site} as {name}; token stored in {path}")


def cmd_submit(args: argparse.Namespace) -> int:
    api = remote.signed_in()
    folder = Path(args.folder)
    archive = remote.pack_folder(folder)
    username = remote.load_config().get("username") or api.json("GET", "me/")["username"]
    game = args.game or remote.declared_game(folder)
    bot = remote.find_or_create_bot(api, username, args.bot, game)
    version = api.json("POST", f"bots/{bot['id']}/upload/", upload=("mybot.tar.gz", archive))
    print(
        f"uploaded {args.bot} version {version['number']} (id {version['id']}, "
        f"{len(archive)} bytes): {version['status']}"
    )
    if not args.wait:
        return 0
    version = remote.wait_for_verdict(api, version["id"], args.timeout)
    if version["status"] == "rejected":
        print(f"version {version['number']} rejected: {version.get('failure_reason') or ''}")
        return 1
    print(f"version {version['number']} {version['status']}: it plays ranked matches now")
    return 0


def _ranks(api: remote.Api, ladder: int, cache: dict[int, dict[int, int]]) -> dict[int, int]:
    """Version id -> rank on a ladder's standings (fetched once per ladder)."""
    if ladder not in cache:
        rows = api.json("GET", f"ladders/{ladder}/standings/?limit=1000")
        rows = rows.get("results", []) if isinstance(rows, dict) else rows
        cache[ladder] = {row["version"]: row["rank"] for row in rows}
    return cache[ladder]


def cmd_status(args: argparse.Namespace) -> None:
    api = remote.signed_in()
    username = api.json("GET", "me/")["username"]
    print(f"{api.site}: {username}; kit {kit_version()}")
    bots = remote.find_bots(api, username)
    if not bots:
        print("no bots yet: monsoon submit FOLDER --bot NAME --game GAME")
        return
    rows = []
    standings: dict[int, dict[int, int]] = {}
    for bot in bots:
        latest: dict[int, dict[str, Any]] = {}
        for point in api.json("GET", f"bots/{bot['id']}/ratings/"):
            latest[point["version"]] = point
        for version in api.json("GET", f"bots/{bot['id']}/versions/"):
            point = latest.get(version["id"])
            rank = _ranks(api, point["ladder"], standings).get(version["id"]) if point else None
            rows.append(
                [
                    bot["name"],
                    bot["game"],
                    str(version["number"]),
                    version["status"],
                    f"{point['rating']:.0f}" if point else "",
                    str(point["games"]) if point else "",
                    str(rank or ""),
                    (version.get("failure_reason") or "")[:60],
                ]
            )
    print(
        _table(
            rows, ["bot", "game", "version", "status", "rating", "games", "rank", "why rejected"]
        )
    )


def cmd_logs(args: argparse.Namespace) -> None:
    api = remote.signed_in()
    raw, _ = api.call("GET", f"matches/{args.match}/log/")
    if args.output == "-":
        sys.stdout.write(raw.decode())
        return
    path = Path(args.output or f"match-{args.match}.json")
    path.write_bytes(raw)
    print(f"match {args.match}'s log written to {path.resolve()} (monsoon replay {path})")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="monsoon", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"monsoon kit {kit_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list games, player counts and variants").set_defaults(
        func=cmd_games
    )

    play = sub.add_parser("play", help="play one match and print the result")
    play.add_argument("game")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        help=f"one per seat, in seat order: a reference bot ({', '.join(REFERENCE_BOTS)}), "
        "a .py file or a bot directory (main.py or monsoon.json)",
    )
    play.add_argument("--variant")
    play.add_argument("--log", help="write the game log (JSON, with times and stderr) here")
    play.add_argument("--verbose", action="store_true", help="print every decision")
    defaults = TimeControls()
    play.add_argument(
        "--startup-ms",
        type=int,
        default=defaults.startup_ms,
        help="time to start up (default %(default)s)",
    )
    play.add_argument(
        "--move-ms",
        type=int,
        default=defaults.move_ms,
        help="time per decision (default %(default)s)",
    )
    play.add_argument(
        "--bank-ms",
        type=int,
        default=defaults.bank_ms,
        help="time bank for overruns, per match (default %(default)s)",
    )
    play.add_argument(
        "--max-decisions",
        type=int,
        default=defaults.max_decisions_per_seat,
        help="decisions per seat before a forfeit (default %(default)s)",
    )
    play.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run bots as plain processes (only bots you trust)",
    )
    play.set_defaults(func=cmd_play)

    new_bot = sub.add_parser("new-bot", help="write a starter bot with its own test")
    new_bot.add_argument("game")
    new_bot.add_argument("dir")
    new_bot.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="copy the standard-library starter kit of this language (bots/starters/, "
        "docs/languages.md) instead of the Python SDK starter",
    )
    new_bot.set_defaults(func=cmd_new_bot)

    rep = sub.add_parser("replay", help="re-simulate a log; exit 2 if it does not reproduce")
    rep.add_argument("file")
    rep.set_defaults(func=cmd_replay)

    bench = sub.add_parser("bench", help="random-play throughput per game")
    bench.add_argument("game", nargs="?")
    bench.add_argument("--players", type=int)
    bench.add_argument("--seconds", type=float, default=2.0)
    bench.set_defaults(func=cmd_bench)

    login = sub.add_parser("login", help="store an API token for submit, status and logs")
    login.add_argument("--site", help="the ladder's address (default: $MONSOON_SITE, the last)")
    login.add_argument("--username", help="asked when not given")
    login.add_argument("--token", help="an API token (the site's account page) instead")
    login.add_argument(
        "--insecure",
        action="store_true",
        help="accept a plain http:// site on another machine (the password and token cross "
        "the network unencrypted; every later command warns)",
    )
    login.set_defaults(func=cmd_login)

    submit = sub.add_parser("submit", help="upload a bot folder as a new version of a bot")
    submit.add_argument("folder")
    submit.add_argument("--bot", required=True, help="the bot's name (created when missing)")
    submit.add_argument("--game", help="the game of a new bot (default: monsoon.json's)")
    submit.add_argument("--wait", action="store_true", help="wait for the validation verdict")
    submit.add_argument("--timeout", type=float, default=600.0, help="seconds --wait waits")
    submit.set_defaults(func=cmd_submit)

    status = sub.add_parser("status", help="your bots, their versions, ratings and ranks")
    status.set_defaults(func=cmd_status)

    logs = sub.add_parser("logs", help="download a finished match's game log")
    logs.add_argument("match", type=int)
    logs.add_argument("-o", "--output", help="file to write (default match-ID.json; - stdout)")
    logs.set_defaults(func=cmd_logs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()
    except (CommandError, EngineError, BotNotFound, remote.RemoteError) as exc:
        print(f"monsoon {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # `monsoon play ... | head` closed our output: stop quietly, as other commands do.
        # Python would report the pipe again when flushing stdout at exit: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
