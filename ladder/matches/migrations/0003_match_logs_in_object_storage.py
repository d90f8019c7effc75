"""Game logs move out of the matches database into the match_logs storage, zstd-compressed.

Every stored gzip log is rewritten as a zstd object named after its match before the column goes,
so no log is lost; going back writes them into the column again.
"""

import gzip

from django.db import migrations, models


def logs_to_storage(apps, schema_editor) -> None:
    from ladder.matches import logstore

    match_log = apps.get_model("matches", "MatchLog")
    for row in match_log.objects.exclude(data=None).iterator(chunk_size=500):
        raw = gzip.decompress(bytes(row.data))
        packed = logstore.zstandard.ZstdCompressor(level=logstore.ZSTD_LEVEL).compress(raw)
        stored = logstore.store_compressed(row.match_id, packed, size=len(raw))
        row.name = stored.name
        row.codec = stored.codec
        row.stored_size = stored.stored_size
        row.save(update_fields=["name", "codec", "stored_size"])


def logs_to_database(apps, schema_editor) -> None:
    from ladder.matches import logstore

    match_log = apps.get_model("matches", "MatchLog")
    for row in match_log.objects.iterator(chunk_size=500):
        row.data = gzip.compress(logstore.read_json(row.name), 6)
        row.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0002_match_sent_at"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchlog",
            name="data",
            field=models.BinaryField(null=True),
        ),
        migrations.AddField(
            model_name="matchlog",
            name="name",
            field=models.CharField(
                default="", help_text="object name in the match_logs storage", max_length=200
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="matchlog",
            name="codec",
            field=models.CharField(
                choices=[("zstd", "zstd-compressed JSON")], default="zstd", max_length=8
            ),
        ),
        migrations.AddField(
            model_name="matchlog",
            name="stored_size",
            field=models.PositiveIntegerField(default=0, help_text="bytes of the stored object"),
            preserve_default=False,
        ),
        migrations.RunPython(logs_to_storage, logs_to_database),
        migrations.RemoveField(model_name="matchlog", name="data"),
    ]
