"""A seat's forfeit code in a column of its own, filled from the reason texts recorded so far.

Reads used to parse the code back out of ``forfeit_reason`` (``"<code>: <message>"``); now the
code is stored when the result is recorded. The runner has always started a reason with its code;
a stored reason that does not name one (none came from a runner) counts as a crash.
"""

from django.db import migrations, models


def fill_codes(apps, schema_editor):
    MatchSeat = apps.get_model("matches", "MatchSeat")
    codes = {code for code, _ in MatchSeat._meta.get_field("forfeit_code").choices}
    forfeited = MatchSeat.objects.exclude(forfeit_reason="").values_list("pk", "forfeit_reason")
    by_code: dict[str, list[int]] = {}
    for pk, reason in forfeited.iterator(chunk_size=5000):
        head = reason.strip().split(":", 1)[0].split(None, 1)
        code = head[0] if head and head[0] in codes else "crash"
        by_code.setdefault(code, []).append(pk)
    for code, pks in by_code.items():
        for start in range(0, len(pks), 5000):
            MatchSeat.objects.filter(pk__in=pks[start : start + 5000]).update(forfeit_code=code)


class Migration(migrations.Migration):
    dependencies = [("matches", "0006_lean_match_rows")]

    operations = [
        migrations.AddField(
            model_name="matchseat",
            name="forfeit_code",
            field=models.CharField(
                blank=True,
                choices=[
                    ("startup_timeout", "startup timeout"),
                    ("timeout", "timeout"),
                    ("crash", "crash"),
                    ("illegal_action", "illegal action"),
                    ("malformed_reply", "malformed reply"),
                    ("oversized_line", "oversized line"),
                    ("memory_limit", "memory limit"),
                    ("process_limit", "process limit"),
                    ("decision_limit", "decision limit"),
                    ("thinking_budget", "thinking budget"),
                ],
                db_default="",
                help_text="why the seat forfeited (empty: it did not)",
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="matchseat",
            name="forfeit_reason",
            field=models.TextField(blank=True, help_text="the runner's words for the forfeit"),
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop),
    ]
