"""Leaner match rows: a match and its seats are most of the database (docs/scale.md).

- ``Match.scores`` and ``Match.ranking`` repeated, as JSON, what every seat holds in ``score`` and
  ``place``; the seats are now the one record (``ladder.matches.selectors.ranking_of``). Going
  forwards, a seat without its score or place takes it from the JSON first, so nothing is lost;
  going back, the JSON is written again from the seats of every match that has a result.
- Indexes that another index already leads with go: the foreign keys ``Match.ladder`` (the
  (ladder, -id) index), ``MatchSeat.match`` (the unique (match, seat) constraint) and
  ``MatchSeat.bot_version`` (the (bot_version, match) index).
- The (ladder, -id) and (game, -id) indexes become (ladder, id) and (game, id): read backwards
  for newest first, and filled as ids grow at their right end (90% full) instead of their left
  (split in halves: 56 bytes a match each instead of about 31).
- ``Match.finished_at`` had an index no query uses; ``requested_by`` (set on challenges only)
  and (status, id) (whose lists and sweeps look for unfinished matches; finished ones are read
  newest first through the primary key) become partial indexes.

PostgreSQL leaves a dropped column's bytes in the existing rows until they are rewritten:
``VACUUM FULL matches_match`` (or pg_repack, without the long lock) gives them back.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def whole(score: float) -> float | int:
    """Whole scores as integers, the way the workers report them (and the JSON held them)."""
    return int(score) if float(score).is_integer() else score


def seats_from_json(apps, schema_editor) -> None:
    """Before the JSON goes: give every seat its score and place where only the match had it."""
    match_model = apps.get_model("matches", "Match")
    incomplete = match_model.objects.filter(
        models.Q(ranking__isnull=False, seats__place__isnull=True)
        | models.Q(scores__isnull=False, seats__score__isnull=True)
    ).distinct()
    for match in incomplete.iterator(chunk_size=500):
        for seat in match.seats.all():
            if seat.place is None and isinstance(match.ranking, list):
                seat.place = match.ranking[seat.seat]
            if seat.score is None and isinstance(match.scores, list):
                seat.score = match.scores[seat.seat]
            seat.save(update_fields=["place", "score"])


# PostgreSQL rebuilds the JSON in one statement (about half a minute for a million matches;
# the row-by-row path below took 15 minutes there). Whole scores become JSON integers, as
# ``whole`` makes them.
JSON_FROM_SEATS_SQL = """
    UPDATE matches_match m SET ranking = r.ranking, scores = r.scores
    FROM (
        SELECT match_id,
               jsonb_agg(place ORDER BY seat) AS ranking,
               CASE WHEN bool_and(score IS NOT NULL) THEN jsonb_agg(
                   CASE WHEN score = trunc(score) AND abs(score) < 1e15
                        THEN to_jsonb(score::bigint) ELSE to_jsonb(score) END
                   ORDER BY seat) END AS scores
        FROM matches_matchseat
        GROUP BY match_id
        HAVING bool_and(place IS NOT NULL)
    ) r
    WHERE r.match_id = m.id
"""


def json_from_seats(apps, schema_editor) -> None:
    """Going back: the match row's JSON again, from the seats of every match with a result."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(JSON_FROM_SEATS_SQL)
        return
    match_model = apps.get_model("matches", "Match")
    seat_model = apps.get_model("matches", "MatchSeat")
    with_result = (
        match_model.objects.filter(seats__isnull=False)
        .exclude(seats__place__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    batch: list[int] = []
    for pk in with_result.iterator(chunk_size=2000):
        batch.append(pk)
        if len(batch) == 2000:
            _write_json(match_model, seat_model, batch)
            batch = []
    if batch:
        _write_json(match_model, seat_model, batch)


def _write_json(match_model, seat_model, match_ids: list[int]) -> None:
    own: dict[int, list[tuple[int, float | None]]] = {pk: [] for pk in match_ids}
    rows = seat_model.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
    for match_id, place, score in rows.values_list("match_id", "place", "score"):
        own[match_id].append((place, score))
    matches = []
    for pk, seats in own.items():
        match = match_model(pk=pk)
        match.ranking = [place for place, _ in seats]
        scores = [score for _, score in seats if score is not None]
        match.scores = [whole(s) for s in scores] if len(scores) == len(seats) else None
        matches.append(match)
    match_model.objects.bulk_update(matches, ["ranking", "scores"])


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0003_botversion_smoke_log"),
        ("ladders", "0002_ladders_for_registered_games"),
        ("matches", "0005_match_progress"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(seats_from_json, json_from_seats),
        migrations.RemoveIndex(
            model_name="match",
            name="matches_mat_status_656f0a_idx",
        ),
        migrations.RemoveIndex(
            model_name="match",
            name="matches_mat_finishe_7c92bc_idx",
        ),
        migrations.RemoveIndex(
            model_name="match",
            name="matches_mat_ladder__e58c6e_idx",
        ),
        migrations.RemoveIndex(
            model_name="match",
            name="matches_mat_game_74b5a8_idx",
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["ladder", "id"], name="matches_ladder_id_idx"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["game", "id"], name="matches_game_id_idx"),
        ),
        migrations.RemoveField(
            model_name="match",
            name="ranking",
        ),
        migrations.RemoveField(
            model_name="match",
            name="scores",
        ),
        migrations.AlterField(
            model_name="match",
            name="ladder",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="matches",
                to="ladders.ladder",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="requested_by",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="requested_matches",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="matchseat",
            name="bot_version",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="bots.botversion",
            ),
        ),
        migrations.AlterField(
            model_name="matchseat",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="matches.match",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "finished"), _negated=True),
                fields=["status", "id"],
                name="matches_unfinished_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("requested_by__isnull", False)),
                fields=["requested_by"],
                name="matches_requested_by_idx",
            ),
        ),
    ]
