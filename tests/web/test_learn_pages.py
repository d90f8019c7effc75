"""The site's way in: rules, getting started, protocol and language docs, starter kits,
challenges from the site, and what "My bots" and the bot page say about each bot.

Personas and ``site_world`` come from tests/web/conftest.py: alice owns a public bot per game
(alice-batavia with a rejected v2) and the private alice-secret; at Batavia bob forfeited once
(``timeout after 2.0 s``).
"""

from __future__ import annotations

import io
import re
import shutil
import tarfile
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import bots.starters as starters
from engine.registry import all_games
from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from ladder.lifecycle import flow
from ladder.lifecycle.types import InvalidResult, MatchResult, forfeit_code
from ladder.matches.models import Match
from ladder.ratings import selectors as rating_selectors
from ladder.web.docs import render_markdown
from tests.factories import (
    accept,
    engine_json,
    ladder_for,
    make_active_version,
    make_bot,
    make_match,
    make_version,
    play_and_record,
)
from tests.helpers import present
from tests.web.site import REJECTION

BUILD_OUTPUT = ("target", "Cargo.lock", "classes", "mybot", "mybot.jar")


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# --- docs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(all_games()))
def test_rules_page_renders_the_doc_with_its_schema_tables(web_clients, db, game):
    html = html_of(web_clients["anonymous"].get(reverse("web:rules", args=[game])))
    spec = all_games()[game]
    assert f"<h1>{spec.title}" in html
    assert f'href="/api/v1/games/{game}/schema/"' in html
    # The generated key table, rendered as a table (not as Markdown source).
    assert "<th>key</th>" in html and "<td><code>game</code></td>" in html
    assert "| --- |" not in html
    assert "BEGIN schema" not in html and "&lt;!--" not in html
    # Worked examples: drawn by the replay's drawing of this game, through examples.js.
    assert 'class="rule-example"' in html and "rule-example-error" not in html
    assert f"web/games/{game}.js" in html and "web/examples.js" in html


def test_schema_link_on_the_rules_page_serves_the_schema(web_clients, db):
    html = html_of(web_clients["anonymous"].get(reverse("web:rules", args=["borneo"])))
    assert 'href="/api/v1/games/borneo/schema/"' in html
    schema = web_clients["anonymous"].get("/api/v1/games/borneo/schema/")
    assert schema.status_code == 200 and "$defs" in schema.json()


def test_unknown_game_has_no_rules_page(web_clients, db):
    assert web_clients["anonymous"].get("/games/chess/").status_code == 404


def test_markdown_is_sanitised():
    doc = render_markdown(
        "# T\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b onclick='x'>b</b>\n"
    )
    assert "<script>" not in doc.html and "&lt;script&gt;" in doc.html
    assert "javascript:" not in doc.html.replace("[x](javascript:alert(1))", "")
    assert "<b " not in doc.html


def test_doc_links_go_to_site_pages_and_repository_paths_become_text():
    doc = render_markdown(
        "# T\n\n## Part one\n\nSee [languages](languages.md#uploading), "
        "[Borneo](games/borneo.md), [the runner](../workers/runner.py) and "
        "[the web](https://example.org/).\n"
    )
    assert 'href="/docs/languages/#uploading"' in doc.html
    assert 'href="/games/borneo/"' in doc.html
    assert "runner.py" not in doc.html and "the runner" in doc.html
    assert 'href="https://example.org/"' in doc.html
    assert doc.title == "T" and doc.headings == (("part-one", "Part one"),)
    assert 'id="part-one"' in doc.html


@pytest.mark.parametrize(
    "url, facts",
    [
        ("/docs/protocol/", ["Bot protocol", 'id="framing"', "Flush after every line"]),
        ("/docs/languages/", ["JavaScript", "Rust", 'href="/docs/protocol/']),
    ],
)
def test_protocol_and_language_pages(web_clients, db, url, facts):
    html = html_of(web_clients["anonymous"].get(url))
    for fact in facts:
        assert fact in html


def test_getting_started_walks_from_nothing_to_a_ranked_bot(web_clients, db):
    html = html_of(web_clients["anonymous"].get(reverse("web:start")))
    assert 'href="/signup/"' in html
    for game in all_games():
        assert f'href="/games/{game}/"' in html
    for language, kit in starters.KITS.items():
        assert f'href="/start/kits/{language}.tar.gz"' in html
        for command in kit.build:
            assert command[0] in html
    assert "g++ -std=c++17" in html and "tar czf mybot.tar.gz monsoon.json mybot.jar" in html
    assert "/api/v1/bots/" in html and 'href="/docs/protocol/"' in html
    logged_in = html_of(web_clients["owner"].get(reverse("web:start")))
    assert "logged in as <strong>alice</strong>" in logged_in and 'href="/me/token/"' in logged_in


# --- starter kits ----------------------------------------------------------------------------


def _unpack(data: bytes) -> dict[str, tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        return {member.name: member for member in archive.getmembers()}


def _source_files(folder: Path) -> set[str]:
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.name not in BUILD_OUTPUT
        and "target" not in p.relative_to(folder).parts
    }


@pytest.mark.parametrize("language", starters.LANGUAGES)
def test_kit_download_unpacks_to_the_starter_files(web_clients, db, language, tmp_path):
    response = web_clients["anonymous"].get(reverse("web:kit", args=[language]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert f'filename="{language}-starter.tar.gz"' in response["Content-Disposition"]
    data = b"".join(response.streaming_content) if response.streaming else response.content
    members = _unpack(data)
    prefix = f"{language}-starter/"
    assert all(name.startswith(prefix) for name in members)
    source = starters.KITS[language].source
    assert {name.removeprefix(prefix) for name in members} == _source_files(source)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        archive.extractall(tmp_path, filter="data")
    unpacked = tmp_path / f"{language}-starter"
    assert (unpacked / "monsoon.json").read_bytes() == (source / "monsoon.json").read_bytes()
    for name in _source_files(source):
        assert (unpacked / name).read_bytes() == (source / name).read_bytes()


def test_kit_download_leaves_out_build_output(web_clients, db, tmp_path, monkeypatch):
    kits = tmp_path / "kits"
    shutil.copytree(starters.KITS_DIR / "rust", kits / "rust")
    (kits / "rust" / "mybot").write_bytes(b"\x7fELF binary")
    (kits / "rust" / "target" / "release").mkdir(parents=True)
    (kits / "rust" / "target" / "release" / "mybot").write_bytes(b"\x7fELF binary")
    (kits / "rust" / "Cargo.lock").write_text("# lock\n")
    monkeypatch.setattr(starters, "KITS_DIR", kits)
    members = _unpack(web_clients["anonymous"].get(reverse("web:kit", args=["rust"])).content)
    names = {name.removeprefix("rust-starter/") for name in members}
    assert "src/main.rs" in names and "Cargo.toml" in names and "monsoon.json" in names
    assert not {"mybot", "Cargo.lock"} & names
    assert not any(name.startswith("target") for name in names)


def test_unknown_kit_is_404(web_clients, db):
    response = web_clients["anonymous"].get("/start/kits/cobol.tar.gz")
    assert response.status_code == 404


# --- challenges ------------------------------------------------------------------------------


@pytest.fixture
def bobs_secret(site_world, bob):
    bot = make_bot(bob, "bob-hidden", "batavia", public=False)
    make_version(bot)
    return bot


def test_challenge_form_offers_public_bots_and_your_own_only(web_clients, site_world, bobs_secret):
    html = html_of(web_clients["owner"].get(reverse("web:bot-challenge", args=["alice-batavia"])))
    assert "bob-batavia (bob)" in html and "olivia-batavia (olivia)" in html
    assert "alice-secret (alice)" in html  # her own private bot may sit at her table
    assert "bob-hidden" not in html  # another user's private bot never shows
    assert "alice-borneo" not in html  # another game


def test_challenge_form_creates_the_match_and_redirects_to_it(web_clients, site_world):
    bots = site_world.bots
    response = web_clients["owner"].post(
        reverse("web:bot-challenge", args=["alice-batavia"]),
        {"opponents": [bots["bob-batavia"].pk, bots["olivia-batavia"].pk]},
    )
    match = Match.objects.filter(kind=Match.Kind.CHALLENGE).latest("id")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    seated = list(match.seats.order_by("seat").values_list("bot_version__bot__name", flat=True))
    assert seated == ["alice-batavia", "bob-batavia", "olivia-batavia"]
    assert match.ranked is False and present(match.requested_by).username == "alice"


def test_challenge_with_a_wrong_table_size_says_why(web_clients, site_world):
    before = Match.objects.count()
    response = web_clients["owner"].post(
        reverse("web:bot-challenge", args=["alice-batavia"]),
        {"opponents": [site_world.bots["bob-batavia"].pk]},
    )
    assert response.status_code == 400
    assert (
        "The challenge was refused: batavia is for 3-5 players, not 2" in response.content.decode()
    )
    assert Match.objects.count() == before


def test_challenge_rate_limit_is_a_clear_message(web_clients, site_world, settings):
    settings.MONSOON_CHALLENGES_PER_HOUR = 1  # site_world already holds one of alice's
    bots = site_world.bots
    response = web_clients["owner"].post(
        reverse("web:bot-challenge", args=["alice-batavia"]),
        {"opponents": [bots["bob-batavia"].pk, bots["olivia-batavia"].pk]},
    )
    assert response.status_code == 429
    assert "Too many challenges: at most 1 challenges an hour" in response.content.decode()


def test_challenge_of_another_users_private_bot_is_refused(web_clients, site_world, bobs_secret):
    response = web_clients["owner"].post(
        reverse("web:bot-challenge", args=["alice-batavia"]),
        {"opponents": [bobs_secret.pk, site_world.bots["bob-batavia"].pk]},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


@pytest.mark.parametrize("who, status", [("anonymous", 302), ("other", 404), ("staff", 404)])
def test_only_the_owner_challenges_with_a_bot(web_clients, site_world, who, status):
    url = reverse("web:bot-challenge", args=["alice-batavia"])
    assert web_clients[who].get(url).status_code == status


def test_challenge_index_lists_your_bots(web_clients, site_world):
    html = html_of(web_clients["owner"].get(reverse("web:challenge")))
    assert 'href="/bots/alice-secret/challenge/"' in html
    assert "bob-batavia" not in html


# --- my bots and the bot page ----------------------------------------------------------------


def record_with_forfeits(
    game: str, versions: list[BotVersion], forfeits: dict[int, str], seed: int
):
    match = make_match(game, versions, seed=seed)
    record = engine_json(match)
    for seat, reason in forfeits.items():
        record["forfeits"][seat] = reason
    outcome = flow.record_result(match_id=match.pk, result=MatchResult.from_json(record))
    assert outcome.recorded, outcome.message
    return match


@pytest.fixture
def forfeiting_borneo(site_world):
    """alice-borneo over five finished matches: 1 (site_world) + 4 here, 3 of them forfeited,
    two for a timeout and one crash."""
    bots = site_world.bots
    versions = [
        bots[name].versions.get(number=1)
        for name in ("alice-borneo", "bob-borneo", "olivia-borneo")
    ]
    reasons = [
        {0: "timeout: no answer within 2000 ms"},
        {0: "crash: exited with status 1", 1: "timeout: slow"},
        {0: "timeout: no answer within 2000 ms"},
        {},
    ]
    for index, forfeits in enumerate(reasons):
        record_with_forfeits("borneo", versions, forfeits, seed=500 + index)
    return bots["alice-borneo"]


def test_my_bots_shows_version_rating_rank_games_and_forfeits(web_clients, forfeiting_borneo):
    html = html_of(web_clients["owner"].get(reverse("web:my-bots")))
    card = html.split('href="/bots/alice-borneo/"')[1].split("</li>")[0]
    assert "v1" in card and "status-active" in card
    assert "Games played</dt>\n  <dd>5</dd>" in card
    assert "3 of 5 (60%), most often <code>timeout</code> (2)" in card
    ladder = ladder_for("borneo", 3)
    table = rating_selectors.standings(ladder)
    mine = next(s for s in table if s.rating.bot_version.bot.name == "alice-borneo")
    rating = mine.rating
    assert f"rank {mine.rank} of {len(table)}" in card
    assert f"{rating.rating:.0f} ({rating.low:.0f}\u2013{rating.high:.0f})" in card
    assert f"{rating.games} games" in card
    # bob-borneo forfeited once in five; it is not on alice's page.
    assert "bob-borneo" not in html.split("<h2>My matches</h2>")[0]


def test_my_bots_shows_the_rejected_upload_with_its_reason(web_clients, site_world):
    html = html_of(web_clients["owner"].get(reverse("web:my-bots")))
    card = html.split('href="/bots/alice-batavia/"')[1].split("</li>")[0]
    assert "v2" in card and "status-rejected" in card and REJECTION in card
    assert "v1 plays meanwhile" in card
    secret = html.split('href="/bots/alice-secret/"')[1].split("</li>")[0]
    assert "private" in secret and "unrated (a private bot plays no ranked games)" in secret


def test_a_bot_without_versions_is_unrated(web_clients, site_world, alice):
    make_bot(alice, "alice-fresh", "borneo")
    html = html_of(web_clients["owner"].get(reverse("web:my-bots")))
    card = html.split('href="/bots/alice-fresh/"')[1].split("</li>")[0]
    assert "none uploaded" in card and "unrated (no active version)" in card


def test_my_bots_never_lists_another_users_bots(web_clients, site_world):
    html = html_of(web_clients["other"].get(reverse("web:my-bots")))
    # Bob sat at alice-secret's challenge: his matches list reads it as "a private bot".
    cards = html.split("<h2>My matches</h2>")[0]
    assert "alice-secret" not in cards and "alice-batavia" not in cards
    assert 'href="/bots/bob-batavia/"' in cards
    assert "alice-secret" not in html and "a private bot" in html.split("<h2>My matches</h2>")[1]


def test_bot_page_shows_the_record_and_the_smoke_test(web_clients, site_world):
    html = html_of(web_clients["anonymous"].get(reverse("web:bot", args=["bob-batavia"])))
    record = html.split('id="record"')[1].split("</section>")[0]
    assert "1 of 2 (50%), most often <code>timeout</code> (1)" in record
    assert "passed validation" in record and "no replay of its smoke match" in record


def test_bot_page_hides_unplayed_uploads_from_others(web_clients, site_world):
    other = html_of(web_clients["other"].get(reverse("web:bot", args=["alice-batavia"])))
    record = other.split('id="record"')[1].split("</section>")[0]
    assert "v2" not in record and "rejected" not in record and REJECTION not in other
    owner = html_of(web_clients["owner"].get(reverse("web:bot", args=["alice-batavia"])))
    assert "status-rejected" in owner.split('id="record"')[1].split("</section>")[0]


def test_pending_version_page_polls_and_the_status_flips(web_clients, site_world):
    bot = site_world.bots["alice-packet-row"]
    version = bot_services.upload_version(
        bot, user=bot.owner, filename="main.py", data=b"print(1)\n"
    )
    page = html_of(web_clients["owner"].get(reverse("web:bot", args=[bot.name])))
    assert "web/version-status.js" in page and 'data-status-url="/bots/alice-packet-row/status/"'
    assert '<noscript><meta http-equiv="refresh"' in page
    status_url = reverse("web:bot-status", args=[bot.name])
    pending = web_clients["owner"].get(status_url).json()
    assert pending["pending"] is True
    assert pending["versions"][-1] == {
        "number": 2,
        "status": "pending",
        "label": "pending validation",
        "failure_reason": "",
    }
    # Others learn nothing of an upload that has not played.
    others = web_clients["other"].get(status_url).json()
    assert (others["bot"], others["pending"]) == (bot.name, False)
    assert others["versions"] == [{"number": 1, "status": "active", "label": "active"}]
    bot_services.validate_version(version.pk, validator=accept)
    done = web_clients["owner"].get(status_url).json()
    assert done["pending"] is False
    assert [(v["number"], v["status"]) for v in done["versions"]] == [(1, "retired"), (2, "active")]
    settled = html_of(web_clients["owner"].get(reverse("web:bot", args=[bot.name])))
    assert "version-status.js" not in settled and "noscript" not in settled


def test_a_new_bot_page_follows_its_first_matches(web_clients, site_world, alice):
    """After validation the page keeps polling until the bot's first match is over, and the
    status answer lists the recent matches so the page can refresh its record and list."""
    bot = make_bot(alice, "alice-fresh", "packet_row")
    version = make_active_version(bot)
    status_url = reverse("web:bot-status", args=[bot.name])
    page = html_of(web_clients["owner"].get(reverse("web:bot", args=[bot.name])))
    assert "web/version-status.js" in page and 'data-matches="[]"' in page
    first = web_clients["owner"].get(status_url).json()
    assert (first["pending"], first["follow"], first["matches"]) == (False, True, [])
    other = site_world.bots["bob-packet-row"].versions.get(status="active")
    match = make_match("packet_row", [version, other], seed=5)
    queued = web_clients["owner"].get(status_url).json()
    assert queued["matches"] == [[match.pk, "queued"]] and queued["follow"] is True
    play_and_record(match)
    done = web_clients["owner"].get(status_url).json()
    assert done["matches"] == [[match.pk, "finished"]] and done["follow"] is False
    settled = html_of(web_clients["owner"].get(reverse("web:bot", args=[bot.name])))
    assert "version-status.js" not in settled
    assert "No matches yet" not in settled


def test_status_of_a_private_bot_is_hidden_from_others(web_clients, site_world):
    url = reverse("web:bot-status", args=["alice-secret"])
    assert web_clients["other"].get(url).status_code == 404
    assert web_clients["anonymous"].get(url).status_code == 404
    assert web_clients["owner"].get(url).status_code == 200


def checkbox(html: str, value: int) -> str:
    found = re.search(rf'<input[^>]*value="{value}"[^>]*>', html)
    assert found, f"no checkbox for {value}"
    return found.group(0)


def test_challenge_a_bot_from_its_page(web_clients, site_world, alice):
    page = html_of(web_clients["owner"].get(reverse("web:bot", args=["bob-batavia"])))
    assert 'href="/challenge/?against=bob-batavia"' in page
    index = html_of(web_clients["owner"].get("/challenge/?against=bob-batavia"))
    assert 'href="/bots/alice-batavia/challenge/?against=bob-batavia"' in index
    assert "alice-borneo" not in index  # another game
    form = html_of(web_clients["owner"].get("/bots/alice-batavia/challenge/?against=bob-batavia"))
    bob = site_world.bots["bob-batavia"].pk
    olivia = site_world.bots["olivia-batavia"].pk
    assert "checked" in checkbox(form, bob)
    assert "checked" not in checkbox(form, olivia)
    # A private bot of another user is not there to challenge.
    assert web_clients["other"].get("/challenge/?against=alice-secret").status_code == 404


def test_a_rated_bot_made_private_keeps_its_rating_but_leaves_the_table(web_clients, site_world):
    bot = site_world.bots["alice-borneo"]
    bot.is_public = False
    bot.save(update_fields=["is_public"])
    html = html_of(web_clients["owner"].get(reverse("web:my-bots")))
    card = html.split('href="/bots/alice-borneo/"')[1].split("</li>")[0]
    assert "not in the table (private bot)" in card and "rank" not in card
    bob_card = html_of(web_clients["other"].get(reverse("web:my-bots"))).split(
        'href="/bots/bob-borneo/"'
    )[1]
    assert "of 2" in bob_card.split("</li>")[0]  # the table now holds bob and olivia only


@pytest.mark.parametrize(
    "reason, code",
    [
        ("timeout: no answer within 2000 ms", "timeout"),
        ("timeout after 2.0 s", "timeout"),
        ("memory_limit: the sandbox stopped it (crash: ...)", "memory_limit"),
    ],
)
def test_forfeit_code_is_the_leading_word(reason, code):
    assert forfeit_code(reason) == code


@pytest.mark.parametrize("reason", ["", "bored: left the table", "illegal action 'bid:99'"])
def test_a_forfeit_naming_no_runner_code_is_refused(reason):
    with pytest.raises(InvalidResult, match="must start with one of"):
        forfeit_code(reason)


def test_my_bots_queries_do_not_grow_with_the_number_of_bots(web_clients, site_world, alice):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            html_of(web_clients["owner"].get(reverse("web:my-bots")))
        return len(captured)

    before = queries()
    for index in range(4):
        make_version(make_bot(alice, f"alice-extra-{index}", "borneo"))
    assert queries() == before
