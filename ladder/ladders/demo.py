"""Seeding the one-command demo: accounts to log in with, the reference bots, playable ladders.

Everything goes through the same services a visitor's actions do: the reference bots are real
uploads (``upload_version``), so a configured worker validates them in the sandbox before they
play, exactly like any other bot. Running it again changes nothing that is already in place, and
uploads a new version only when a reference bot's source changed since the last run.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from engine.registry import all_games
from ladder.accounts.models import User
from ladder.accounts.services import create_user, set_organiser
from ladder.bots.models import Bot, BotVersion
from ladder.bots.services import create_bot, upload_version
from ladder.ladders.models import Ladder
from ladder.ladders.services import sync_ladders

REFERENCE_BOTS = Path(__file__).resolve().parents[2] / "bots" / "reference"
DEFAULT_POLICIES = ("random", "greedy", "mcts")


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    role: str


# Fixed, printed passwords: the demo binds to localhost and its data folder is throw-away.
ACCOUNTS = (
    DemoAccount("demo", "monsoon-demo", "a bot author: upload your own bot from 'My bots'"),
    DemoAccount("organiser", "monsoon-organiser", "an organiser (tournaments)"),
    DemoAccount("admin", "monsoon-admin", "staff and superuser, for /admin/"),
)
HOUSE_USER = "reference"
"""Owns the reference bots; it has no usable password, so nobody logs in as it."""


@dataclass
class SeedReport:
    users_created: list[str] = field(default_factory=list)
    bots_created: list[str] = field(default_factory=list)
    versions_uploaded: list[str] = field(default_factory=list)
    ladders_enabled: list[str] = field(default_factory=list)
    ladders_disabled: list[str] = field(default_factory=list)


def bot_name(game: str, policy: str) -> str:
    return f"{game.replace('_', '-')}-{policy}"


def _ensure_accounts(report: SeedReport) -> User:
    for account in ACCOUNTS:
        if User.objects.filter(username__iexact=account.username).exists():
            continue
        user = create_user(account.username, password=account.password)
        if account.username == "organiser":
            set_organiser(user)
        if account.username == "admin":
            user.is_staff = user.is_superuser = True
            user.save(update_fields=["is_staff", "is_superuser"])
        report.users_created.append(account.username)
    house = User.objects.filter(username__iexact=HOUSE_USER).first()
    if house is None:
        house = create_user(HOUSE_USER, password=None)
        report.users_created.append(HOUSE_USER)
    return house


def _reference_source(policy: str) -> bytes:
    """The reference bot as an upload: a ``.zip`` of its ``main.py`` and its ``monsoon.json``
    (which declares ``"matches": "many"``, so workers keep it warm between matches), with
    fixed timestamps so that the same source is the same archive, byte for byte."""
    folder = REFERENCE_BOTS / policy
    if not (folder / "main.py").is_file():
        raise FileNotFoundError(f"no reference bot {policy!r} at {folder / 'main.py'}")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("main.py", "monsoon.json"):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, (folder / name).read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _ensure_bot(house: User, game: str, policy: str, source: bytes, report: SeedReport) -> None:
    name = bot_name(game, policy)
    bot = Bot.objects.filter(name=name).first()
    if bot is None:
        bot = create_bot(
            house,
            name=name,
            game=game,
            is_public=True,
            description=f"The reference {policy} bot (bots/reference/{policy}).",
        )
        report.bots_created.append(name)
    digest = hashlib.sha256(source).hexdigest()
    # A rejected copy of the same source would be rejected again; anything else of this
    # content (pending, validating, active, retired) means this source is already uploaded.
    if BotVersion.objects.filter(bot=bot, sha256=digest).exists():
        return
    version = upload_version(bot, user=house, filename=f"{policy}.zip", data=source)
    report.versions_uploaded.append(version.label)


def _enable_ladders(games: list[str], all_tables: bool, report: SeedReport) -> None:
    """Schedule the tables the demo's bots can fill (a table needs that many distinct bots).

    By default only each game's smallest table plays: the two worker slots then spread their
    matches over four ladders rather than ten, so every game has standings within a minute.
    """
    sync_ladders()
    # Counted, not taken from this run's policies: an earlier run may have uploaded others.
    bots_per_game = {game: Bot.objects.filter(game=game, is_public=True).count() for game in games}
    for ladder in Ladder.objects.filter(game__in=games):
        fillable = ladder.num_players <= bots_per_game[ladder.game]
        smallest = ladder.num_players == min(all_games()[ladder.game].player_counts)
        enable = fillable and (all_tables or smallest)
        if ladder.schedule_enabled != enable:
            ladder.schedule_enabled = enable
            ladder.save(update_fields=["schedule_enabled"])
        (report.ladders_enabled if enable else report.ladders_disabled).append(str(ladder))


def seed_demo(
    policies: tuple[str, ...] = DEFAULT_POLICIES,
    games: list[str] | None = None,
    all_tables: bool = False,
) -> SeedReport:
    """Demo accounts, one bot per (game, reference policy), and the ladders they can fill."""
    report = SeedReport()
    games = sorted(all_games()) if games is None else games
    sources = {policy: _reference_source(policy) for policy in policies}
    # One transaction: the uploads reach the broker only once everything is in place. Policy by
    # policy, so the quick bots of every game are validated (and the two-player ladders start)
    # before the slow search bots take the worker's slots.
    with transaction.atomic():
        house = _ensure_accounts(report)
        for policy in policies:
            for game in games:
                _ensure_bot(house, game, policy, sources[policy], report)
        _enable_ladders(games, all_tables, report)
    return report
