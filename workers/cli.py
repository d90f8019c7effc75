"""``monsoon``: list games, play and replay matches, measure the engines.

Errors a user can cause (unknown game or bot, unreadable or non-reproducing log)
print one clear line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bots.builtin import UnknownBot, builtin_names, get_policy
from engine.core import EngineError
from engine.log import replay
from engine.match import play_match
from engine.registry import all_games, get_game

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


def _result_table(names: Sequence[str], scores: list[int], ranking: list[int]) -> str:
    order = sorted(range(len(names)), key=lambda seat: (ranking[seat], seat))
    rows = [[str(ranking[s]), str(s), names[s], str(scores[s])] for s in order]
    return _table(rows, ["rank", "seat", "bot", "score"])


def cmd_play(args: argparse.Namespace) -> None:
    spec = get_game(args.game)
    if not args.bot:
        raise CommandError("name one --bot per seat, e.g. --bot random --bot greedy --bot random")
    if len(args.bot) not in spec.player_counts:
        raise CommandError(
            f"{spec.name} needs {spec.min_players}-{spec.max_players} --bot options, "
            f"got {len(args.bot)}"
        )
    policies = [get_policy(name, spec.name) for name in args.bot]
    if args.verbose:
        print(
            f"{spec.title}: {len(args.bot)} players, seed {args.seed}, variant "
            f"{args.variant or spec.default_variant}"
        )
    _, log = play_match(spec.name, args.seed, policies, seat_names=args.bot, variant=args.variant)
    if args.verbose:
        for number, entry in enumerate(log["decisions"], 1):
            print(
                f"{number:4d}  seat {entry['seat']} ({args.bot[entry['seat']]}): "
                f"{json.dumps(entry['action'])}"
            )
        print()
    print(_result_table(args.bot, log["result"]["scores"], log["result"]["ranking"]))
    print(f"{len(log['decisions'])} decisions")
    if args.log:
        path = Path(args.log)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(log, indent=1) + "\n")
        print(f"log written to {path.resolve()}")


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
    print(_result_table(log["seats"], state.scores(), state.ranking()))


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="monsoon", description=__doc__.splitlines()[0])
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
        help=f"one per seat, in seat order; built in: {', '.join(builtin_names())}",
    )
    play.add_argument("--variant")
    play.add_argument("--log", help="write the game log (JSON) here")
    play.add_argument("--verbose", action="store_true", help="print every decision")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="re-simulate a log; exit 2 if it does not reproduce")
    rep.add_argument("file")
    rep.set_defaults(func=cmd_replay)

    bench = sub.add_parser("bench", help="random-play throughput per game")
    bench.add_argument("game", nargs="?")
    bench.add_argument("--players", type=int)
    bench.add_argument("--seconds", type=float, default=2.0)
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (CommandError, EngineError, UnknownBot) as exc:
        print(f"monsoon {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":
    sys.exit(main())
