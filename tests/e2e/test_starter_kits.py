"""Issue 18 end to end: a bot in each of the five languages, from the site's own pages to
finished ranked matches played by a real Celery worker.

Persona: alice, a programmer who has only the site. For each language she follows the
getting-started page (``/start/``): downloads the kit from the link it shows, runs the build
commands it shows (for C++, Rust and Java: on her machine, as docs/languages.md says; the
workers never compile), packs the upload with the ``tar czf`` line it shows, and uploads it
through the REST API. From there on it is the operators' machinery only: the worker validates
each upload in the sandbox, the beat's matchmaker schedules ranked Packet Row matches (the
five-seat table, so every match seats every language) and the worker plays them.
"""

from __future__ import annotations

import html
import io
import re
import shlex
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client

from bots.starters import LANGUAGES, missing_toolchain
from engine.log import replay
from ladder.accounts.models import User
from ladder.bots.models import BotVersion
from ladder.ladders.models import Ladder
from ladder.matches.models import Match, MatchSeat
from ladder.ratings.models import Rating, RatingPoint
from tests.e2e.stack import Fleet, api_create_bot, api_upload, token_client, wait_for
from tests.factories import web_client
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]
GAME, TABLE = "packet_row", 5  # the one game seating five: each ranked match has every language
RANKED_MATCHES = 3
SETTLED = {BotVersion.Status.ACTIVE, BotVersion.Status.REJECTED}


@dataclass(frozen=True)
class KitSteps:
    """What the start page tells a reader to do for one language."""

    download: str
    build: list[list[str]]
    pack: list[str]


def start_page_steps(page: str, language: str) -> KitSteps:
    """Read one kit's download link, build commands and pack command off the start page.

    The kit's block runs from its heading to the end of its list item; its last code block is
    the pack command and any before it are the build (one command a line).
    """
    block = page.split(f'id="kit-{language}"', 1)[1].split("</li>", 1)[0]
    download = re.search(r'href="([^"]+\.tar\.gz)"', block)
    assert download is not None, f"no download link for {language} on /start/"
    codes = [
        html.unescape(code) for code in re.findall(r"<pre><code>(.*?)</code></pre>", block, re.S)
    ]
    assert codes, f"no commands for {language} on /start/"
    build = [shlex.split(line) for code in codes[:-1] for line in code.splitlines() if line.strip()]
    return KitSteps(download=download.group(1), build=build, pack=shlex.split(codes[-1]))


def build_from_site(site: Client, steps: KitSteps, language: str, workdir: Path) -> bytes:
    """Download, unpack, build and pack as the page says; the bytes of ``mybot.tar.gz``."""
    response = site.get(steps.download)
    assert response.status_code == 200, (language, response.status_code)
    with tarfile.open(fileobj=io.BytesIO(response.content), mode="r:gz") as archive:
        archive.extractall(workdir, filter="data")
    (folder,) = workdir.iterdir()  # <language>-starter/
    for command in [*steps.build, steps.pack]:
        done = subprocess.run(
            command, cwd=folder, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, (language, command, done.stdout, done.stderr)
    return (folder / steps.pack[2]).read_bytes()  # tar czf <archive> ...


def ranked_finished(version_ids: list[int]) -> list[Match]:
    """Finished ranked ladder matches of the five-seat table."""
    return list(
        Match.objects.filter(
            status=Match.Status.FINISHED,
            ranked=True,
            kind=Match.Kind.LADDER,
            ladder__game=GAME,
            ladder__num_players=TABLE,
            seats__bot_version__in=version_ids,
        ).distinct()
    )


def test_five_language_kits_from_the_start_page_play_ranked_matches_on_the_workers(
    fleet: Fleet, alice: User, tmp_path: Path
) -> None:
    missing = {language: missing_toolchain(language) for language in LANGUAGES}
    if any(missing.values()):
        pytest.skip(f"a kit's toolchain is not installed: {missing}")
    Ladder.objects.exclude(game=GAME, num_players=TABLE).update(schedule_enabled=False)
    fleet.worker("w1", MONSOON_QUEUE_TARGET="2")  # the worker runs the beat's matchmaker

    site, api = web_client(), token_client(alice.username)
    start = site.get("/start/")
    assert start.status_code == 200
    page = start.content.decode()
    languages_doc = html.unescape(site.get("/docs/languages/").content.decode())
    versions: dict[str, dict] = {}
    for language in LANGUAGES:
        steps = start_page_steps(page, language)
        for command in steps.build:  # the path docs/languages.md documents, not another one
            assert shlex.join(command) in languages_doc, (language, command)
        workdir = tmp_path / "alice" / language
        workdir.mkdir(parents=True)
        archive = build_from_site(site, steps, language, workdir)
        bot_id = api_create_bot(api, f"{language}-starter", GAME)
        versions[language] = api_upload(api, bot_id, archive, "mybot.tar.gz")

    def statuses() -> dict[str, str]:
        return {
            language: api.get(f"/api/v1/versions/{version['id']}/").json()["status"]
            for language, version in versions.items()
        }

    wait_for(
        lambda: set(statuses().values()) <= SETTLED, 120, "the worker to validate five uploads"
    )
    checked = {
        language: api.get(f"/api/v1/versions/{version['id']}/").json()
        for language, version in versions.items()
    }
    assert {language: v["status"] for language, v in checked.items()} == dict.fromkeys(
        LANGUAGES, "active"
    ), {language: v["failure_reason"] for language, v in checked.items()}
    worker_log = fleet.log("w1")
    for version in versions.values():  # validated by the worker process, not in this one
        assert re.search(
            rf"monsoon\.validate_bot_version\[[^]]+\] succeeded in [0-9.]+s: "
            rf"'version {version['id']}: active'",
            worker_log,
        ), version
    for version in checked.values():  # the smoke match the worker played, kept and linked
        smoke = api.get(version["smoke_log"]).json()
        assert replay(smoke).ranking() == smoke["result"]["ranking"]
        assert smoke["game"] == GAME

    fleet.beat()  # from here on the ladder schedules: the beat's matchmaker fills the queue
    ids = [version["id"] for version in versions.values()]
    wait_for(
        lambda: len(ranked_finished(ids)) >= RANKED_MATCHES,
        150,
        f"{RANKED_MATCHES} ranked matches played by the worker",
    )
    fleet.stop_all()  # the ladder keeps scheduling: stop it so the counts below hold still
    matches = ranked_finished(ids)
    for match in matches:
        seats = MatchSeat.objects.filter(match=match).select_related("bot_version__bot")
        assert {seat.bot_version_id for seat in seats} == set(ids), match.pk
        assert {seat.bot_version.bot.name: seat.forfeit_reason for seat in seats} == {
            f"{language}-starter": "" for language in LANGUAGES
        }, match.pk
        assert match.worker.startswith("w1@") and match.rated
        assert RatingPoint.objects.filter(match=match).count() == TABLE
        log = api.get(f"/api/v1/matches/{match.pk}/log/").json()
        assert replay(log).ranking() == log["result"]["ranking"]
    assert not Match.objects.filter(status=Match.Status.FAILED).exists()

    ladder = Ladder.objects.get(game=GAME, num_players=TABLE)
    ratings = {r.bot_version_id: r for r in Rating.objects.filter(ladder=ladder)}
    assert set(ratings) == set(ids)
    finished_per_version = {
        version_id: MatchSeat.objects.filter(
            bot_version_id=version_id, match__status=Match.Status.FINISHED, match__ranked=True
        ).count()
        for version_id in ids
    }
    assert {v: r.games for v, r in ratings.items()} == finished_per_version
    assert len({round(r.mu, 6) for r in ratings.values()}) > 1  # results moved them apart
    standings = api.get(f"/api/v1/ladders/{ladder.pk}/standings/").json()
    rows = standings["results"] if isinstance(standings, dict) else standings
    assert {row["bot_name"] for row in rows} == {f"{language}-starter" for language in LANGUAGES}
