"""Writes for ratings: the live update after each match and the history-wide refit.

Both take a row lock on the ladder, so a refit and the live updates of matches finishing while it
runs are applied in one order: the refit's result, then the live updates of every match it did not
see.
"""

from __future__ import annotations

import time
from datetime import datetime

import numpy as np
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ladder.ladders.models import Ladder
from ladder.matches.models import Match, MatchSeat
from ladder.ratings import plackett_luce as pl
from ladder.ratings import selectors
from ladder.ratings.models import Rating, RatingFit, RatingPoint, Season, SeasonStanding

PROVISIONAL_WIDTH = 250.0  # Elo: an interval wider than this is not yet a rating to trust
PROVISIONAL_MIN_GAMES = 5


def is_provisional(low: float, *, high: float, games: int) -> bool:
    return games < PROVISIONAL_MIN_GAMES or high - low > PROVISIONAL_WIDTH


def _interval(mu: float, sd: float) -> tuple[float, float, float]:
    elo = float(pl.to_elo(mu))
    half = 1.96 * sd * pl.ELO_SCALE
    return elo, elo - half, elo + half


def new_rating(ladder: Ladder, *, version_id: int) -> Rating:
    elo, low, high = _interval(0.0, pl.PRIOR_SD)
    return Rating(
        ladder=ladder,
        bot_version_id=version_id,
        mu=0.0,
        sd=pl.PRIOR_SD,
        rating=elo,
        low=low,
        high=high,
        games=0,
        provisional=True,
    )


LIVE_FIELDS = ["mu", "sd", "rating", "low", "high", "games", "provisional", "source", "updated_at"]


def _live_update(
    ladder: Ladder, match: Match, places: list[int], *, record_points: bool = True
) -> None:
    seats = list(match.seats.order_by("seat").values_list("bot_version_id", flat=True))
    existing = {
        r.bot_version_id: r
        for r in Rating.objects.select_for_update()
        .filter(ladder=ladder, bot_version_id__in=seats)
        .order_by("bot_version_id")
    }
    ratings = [existing.get(v) or new_rating(ladder, version_id=v) for v in seats]
    now = timezone.now()
    mu, sd = pl.live_update(
        np.array([r.mu for r in ratings]), np.array([r.sd for r in ratings]), np.array(places)
    )
    points = []
    for rating, new_mu, new_sd in zip(ratings, mu, sd, strict=True):
        rating.mu, rating.sd = float(new_mu), float(new_sd)
        rating.rating, rating.low, rating.high = _interval(rating.mu, rating.sd)
        rating.games += 1
        rating.provisional = is_provisional(rating.low, high=rating.high, games=rating.games)
        rating.source = Rating.Source.LIVE
        rating.updated_at = now  # bulk_update does not apply auto_now
        points.append(
            RatingPoint(
                ladder=ladder,
                bot_version_id=rating.bot_version_id,
                match=match,
                rating=rating.rating,
                low=rating.low,
                high=rating.high,
                games=rating.games,
            )
        )
    # One upsert for the table's seats, new and known alike: Django's bulk_update builds a CASE
    # per column per row, which cost more CPU than the rest of recording a result.
    for rating in ratings:
        rating.pk = None
    Rating.objects.bulk_create(
        ratings,
        update_conflicts=True,
        unique_fields=["ladder", "bot_version"],
        update_fields=LIVE_FIELDS,
    )
    if record_points:
        RatingPoint.objects.bulk_create(points)


def rate_match(*, match: Match, places: list[int]) -> None:
    """Live update for a just-recorded match; an unranked one changes no rating.

    Called by ``ladder.lifecycle.flow.record_result`` inside the transaction that records the
    result, so a rating never moves without its result stored.
    """
    if not match.ranked:
        return
    ladder = Ladder.objects.select_for_update().get(pk=match.ladder_id)
    _live_update(ladder, match, places)
    Match.objects.filter(pk=match.pk).update(rated=True)


def _known_place(place: int | None, match_id: int) -> int:
    """A rated match has a place in every seat; a seat without one is corrupt data, not a 0."""
    if place is None:
        raise ValueError(f"rated match {match_id} has a seat without a place")
    return place


def _history(ladder: Ladder) -> tuple[list[int], list[int], list[int]]:
    """Rated matches' seats of the current season as parallel lists (match id, version id,
    place), seat order."""
    seats = MatchSeat.objects.filter(match__ladder=ladder, match__rated=True)
    season = selectors.current_season(ladder)
    if season is not None:
        seats = seats.filter(match__finished_at__gte=season.started_at)
    rows = seats.order_by("match_id", "seat").values_list("match_id", "bot_version_id", "place")
    match_ids: list[int] = []
    version_ids: list[int] = []
    places: list[int] = []
    for match_id, version_id, place in rows.iterator(chunk_size=20000):
        match_ids.append(match_id)
        version_ids.append(version_id)
        places.append(_known_place(place, match_id))
    return match_ids, version_ids, places


def refit_all_ladders(*, samples: int | None = None) -> list[RatingFit]:
    """Refit every ladder that has rated matches (the periodic beat task's body)."""
    ladder_ids = Match.objects.filter(rated=True).values_list("ladder_id", flat=True).distinct()
    return [refit_ladder(ladder_id, samples=samples) for ladder_id in sorted(set(ladder_ids))]


def refit_ladder(ladder_id: int, *, samples: int | None = None, seed: int = 0) -> RatingFit:
    """Refit every rating of a ladder over its whole history and replace the live ratings."""
    started = time.perf_counter()
    ladder = Ladder.objects.get(pk=ladder_id)
    samples = settings.MONSOON_BOOTSTRAP_SAMPLES if samples is None else samples
    match_ids, version_ids, places = _history(ladder)
    n = ladder.num_players
    seen = set(match_ids[::n])
    versions = sorted(set(version_ids))
    index = {v: i for i, v in enumerate(versions)}
    players = np.array([index[v] for v in version_ids], dtype=np.int64).reshape(-1, n)
    ranks = np.array(places, dtype=np.int64).reshape(-1, n)
    prior_mean, prior_sd = _season_priors(ladder, versions)
    result = pl.fit_with_interval(
        pl.Matches(players, ranks, len(versions)),
        samples=samples,
        seed=seed,
        prior_mean=prior_mean,
        prior_sd=prior_sd,
    )
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
        fit = RatingFit.objects.create(
            ladder=ladder,
            matches=len(seen),
            versions=len(versions),
            bootstrap_samples=samples,
            seconds=0.0,
        )
        # Ratings have no dependants: replacing the ladder's rows wholesale is one DELETE and one
        # INSERT instead of a thousand UPDATEs.  Versions rated only by matches the fit did not
        # see start again from the prior; the replay below counts those matches once.
        sources = dict(Rating.objects.filter(ladder=ladder).values_list("bot_version_id", "source"))
        others = set(sources)
        Rating.objects.filter(ladder=ladder).delete()
        priors = _carried(ladder)
        rows = [
            start_rating(ladder, version_id=v, priors=priors) for v in sorted(others - set(index))
        ]
        points = []
        for i, version_id in enumerate(versions):
            rating = new_rating(ladder, version_id=version_id)
            rating.mu = float(result.theta[i])
            rating.sd = max(float(result.sd[i]), 1e-6)
            rating.rating = float(pl.to_elo(result.theta[i]))
            rating.low = float(pl.to_elo(result.low[i]))
            rating.high = float(pl.to_elo(result.high[i]))
            rating.games = int(result.games[i])
            rating.provisional = is_provisional(rating.low, high=rating.high, games=rating.games)
            rating.source = Rating.Source.FIT
            rows.append(rating)
            if sources.get(version_id) == Rating.Source.FIT:
                continue  # no match since the last fit: its history needs no new point
            points.append(
                RatingPoint(
                    ladder=ladder,
                    bot_version_id=version_id,
                    fit=fit,
                    rating=rating.rating,
                    low=rating.low,
                    high=rating.high,
                    games=rating.games,
                )
            )
        Rating.objects.bulk_create(rows, batch_size=2000)
        RatingPoint.objects.bulk_create(points, batch_size=2000)
        # Matches rated while the fit ran: replay their live updates on top of it.
        rated_matches = Match.objects.filter(ladder=ladder, rated=True)
        season = selectors.current_season(ladder)
        if season is not None:
            rated_matches = rated_matches.filter(finished_at__gte=season.started_at)
        rated_now = set(rated_matches.values_list("pk", flat=True))
        late = Match.objects.filter(pk__in=sorted(rated_now - seen)).order_by("finished_at", "pk")
        for match in late:
            seat_places = match.seats.order_by("seat").values_list("place", flat=True)
            places = [_known_place(place, match.pk) for place in seat_places]
            _live_update(ladder, match, places, record_points=False)
        fit.seconds = time.perf_counter() - started
        fit.save(update_fields=["seconds"])
    return fit


# --- seasons --------------------------------------------------------------------------------

# A carried-over rating's uncertainty grows by this much (natural units, added in quadrature):
# about 170 Elo, half the prior's, so last season's order is where the new one starts but a few
# games are enough to move a bot that changed.
SEASON_WIDEN_SD = pl.PRIOR_SD / 2


def _carried(ladder: Ladder) -> dict[str, list[float]]:
    """The beliefs the current season started from (version id -> [mu, sd]); empty when the
    ratings were reset or no season has ended."""
    season = selectors.current_season(ladder)
    return season.priors if season is not None else {}


def start_rating(ladder: Ladder, *, version_id: int, priors: dict[str, list[float]]) -> Rating:
    """A version's rating before its first game of the season: carried over, else the prior."""
    rating = new_rating(ladder, version_id=version_id)
    carried = priors.get(str(version_id))
    if carried:
        rating.mu, rating.sd = float(carried[0]), float(carried[1])
        rating.rating, rating.low, rating.high = _interval(rating.mu, rating.sd)
    return rating


def _season_priors(ladder: Ladder, versions: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each version's prior for a refit: its carried belief at the season's start, else the
    fresh prior (0, PRIOR_SD)."""
    mean = np.zeros(len(versions))
    sd = np.full(len(versions), pl.PRIOR_SD)
    priors = _carried(ladder)
    for i, version_id in enumerate(versions):
        carried = priors.get(str(version_id))
        if carried:
            mean[i], sd[i] = float(carried[0]), float(carried[1])
    return mean, sd


def end_season(ladder_id: int, *, now: datetime | None = None) -> Season:
    """Freeze the ladder's standings as the current season's final ones and start the next.

    Each ranked bot's place, rating, interval and games are copied into the season's
    standings.  The next season then starts as the ladder's ``season_start`` says: ``carry``
    keeps each rating's centre and widens its uncertainty by :data:`SEASON_WIDEN_SD` (the
    refit starts from those beliefs), ``reset`` puts every version back to the prior.  Games
    count from zero again either way.  Returns the season that ended.  Staff only: the caller
    (admin action, management shell) checks that.
    """
    now = now or timezone.now()
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
        season = selectors.current_season(ladder)
        if season is None:
            season = Season.objects.create(
                ladder=ladder, number=1, started_at=ladder.created_at, start=""
            )
        rows = list(selectors.standings_queryset(ladder))
        SeasonStanding.objects.bulk_create(
            SeasonStanding(
                season=season,
                bot_id=r.bot_version.bot_id,
                bot_version_id=r.bot_version_id,
                rank=rank,
                rating=r.rating,
                low=r.low,
                high=r.high,
                games=r.games,
                provisional=r.provisional,
            )
            for rank, r in enumerate(rows, start=1)
        )
        season.ended_at = now
        season.save(update_fields=["ended_at"])
        carry = ladder.season_start == Ladder.SeasonStart.CARRY
        priors: dict[str, list[float]] = {}
        ratings = list(Rating.objects.select_for_update().filter(ladder=ladder))
        if carry:
            priors = {
                str(r.bot_version_id): [r.mu, float(np.hypot(r.sd, SEASON_WIDEN_SD))]
                for r in ratings
            }
        for rating in ratings:
            fresh = start_rating(ladder, version_id=rating.bot_version_id, priors=priors)
            for name in ("mu", "sd", "rating", "low", "high", "games", "provisional"):
                setattr(rating, name, getattr(fresh, name))
            rating.source = Rating.Source.LIVE
            rating.updated_at = now
        Rating.objects.bulk_update(ratings, LIVE_FIELDS, batch_size=2000)
        Season.objects.create(
            ladder=ladder,
            number=season.number + 1,
            started_at=now,
            start=ladder.season_start,
            priors=priors,
        )
    return season
