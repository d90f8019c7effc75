"""Live ratings after each match, the history-wide refit, standings and history."""

from __future__ import annotations

import pytest

from ladder.accounts.services import create_user
from ladder.bots.models import BotVersion
from ladder.ratings import selectors
from ladder.ratings.models import Rating, RatingFit, RatingPoint
from ladder.ratings.services import refit_ladder
from tests.factories import ladder_for, make_active_version, make_bot
from tests.play import play


@pytest.fixture
def field(db):
    owners = [create_user(name) for name in ("ann", "ben", "cat", "dan")]
    return {o.username: make_active_version(make_bot(o, f"bot-{o.username}")) for o in owners}


def test_refit_orders_bots_by_results_and_marks_uncertain_ones(field):
    for i in range(12):
        play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"], seed=i)
        play(field, ["ann", "ben", "dan"], ["ann", "dan", "ben"], seed=100 + i)
    ladder = ladder_for(players=3)
    fit = refit_ladder(ladder.pk, samples=30)
    assert (fit.matches, fit.versions) == (24, 4)
    table = selectors.standings(ladder)
    names = [s.rating.bot_version.bot.name for s in table]
    assert names[0] == "bot-ann"
    assert [s.rank for s in table] == [1, 2, 3, 4]
    for s in table:
        r = s.rating
        assert r.low <= r.rating <= r.high and r.source == Rating.Source.FIT
    assert table[0].rating.games == 24
    assert all(s.rating.provisional for s in table)  # perfect records: strength unknown


def test_refit_does_not_depend_on_the_order_matches_were_played(field):
    results = [
        (["ann", "ben", "cat"], ["ben", "ann", "cat"]),
        (["ann", "cat", "dan"], ["dan", "cat", "ann"]),
        (["ben", "cat", "dan"], ["ben", "dan", "cat"]),
    ] * 3
    for i, (names, order) in enumerate(results):
        play(field, names, order, seed=i)
    ladder = ladder_for(players=3)
    refit_ladder(ladder.pk, samples=0)
    forward = {r.bot_version_id: r.rating for r in Rating.objects.all()}
    Rating.objects.all().delete()
    # Same results recorded in reverse order give the same fit (the live ratings differ).
    from ladder.matches.models import Match

    Match.objects.all().delete()
    for i, (names, order) in enumerate(reversed(results)):
        play(field, names, order, seed=i)
    refit_ladder(ladder.pk, samples=0)
    backward = {r.bot_version_id: r.rating for r in Rating.objects.all()}
    assert forward == pytest.approx(backward, abs=1e-6)


def test_matches_rated_during_a_refit_are_replayed_on_top(field, monkeypatch):
    play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"])
    from ladder.ratings import plackett_luce as pl

    real = pl.fit_with_interval

    def slow_fit(*args, **kwargs):
        result = real(*args, **kwargs)
        play(field, ["ann", "ben", "dan"], ["dan", "ben", "ann"], seed=9)  # finishes meanwhile
        return result

    monkeypatch.setattr(pl, "fit_with_interval", slow_fit)
    refit_ladder(ladder_for(players=3).pk, samples=5)
    dan = Rating.objects.get(bot_version=field["dan"])
    assert dan.games == 1 and dan.source == Rating.Source.LIVE


def test_rating_history_has_live_and_fit_points(field):
    play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"])
    play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"], seed=2)
    refit_ladder(ladder_for(players=3).pk, samples=5)
    history = list(selectors.rating_history(field["ann"].bot_id))
    assert [p.fit_id is not None for p in history] == [False, False, True]
    assert history[0].rating < history[1].rating  # two wins in a row
    assert RatingFit.objects.count() == 1
    assert RatingPoint.objects.filter(match__isnull=False).count() == 6


def test_standings_show_only_the_playing_version_of_public_bots(field):
    play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"])
    ben_bot = field["ben"].bot
    ben_bot.is_public = False
    ben_bot.save()
    newer = make_active_version(field["ann"].bot, b"print('v2')\n")
    assert BotVersion.objects.get(pk=field["ann"].pk).status == BotVersion.Status.RETIRED
    names = [s.rating.bot_version.bot.name for s in selectors.standings(ladder_for(players=3))]
    assert names == ["bot-cat"]
    assert newer.status == BotVersion.Status.ACTIVE


def test_refit_adds_history_points_only_for_versions_that_played_since(field):
    play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"])
    ladder = ladder_for(players=3)
    refit_ladder(ladder.pk, samples=0)
    assert RatingPoint.objects.filter(fit__isnull=False).count() == 3
    refit_ladder(ladder.pk, samples=0)
    assert RatingPoint.objects.filter(fit__isnull=False).count() == 3
    play(field, ["ann", "ben", "dan"], ["dan", "ann", "ben"], seed=3)
    refit_ladder(ladder.pk, samples=0)
    assert RatingPoint.objects.filter(fit__isnull=False).count() == 6
