from django.db import migrations


def create_ladders(apps, schema_editor):
    """One ladder per game and player count known to the engine when migrating.

    Games registered later get theirs from ``manage.py sync_ladders`` (or the matchmaker).
    """
    from engine.registry import all_games

    Ladder = apps.get_model("ladders", "Ladder")
    for spec in all_games().values():
        for count in spec.player_counts:
            Ladder.objects.get_or_create(
                game=spec.name, num_players=count, defaults={"variant": spec.default_variant}
            )


class Migration(migrations.Migration):
    dependencies = [("ladders", "0001_initial")]
    operations = [migrations.RunPython(create_ladders, migrations.RunPython.noop)]
