"""Finding ids whose broker message may have been lost, for the reaper to send again.

The database, not the broker, holds the queue: a row still waiting long after it was last sent
(or created) is sent again, and stamped so the next reaper run leaves it alone for a while.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.db.models.functions import Coalesce


def stamp_unsent(
    waiting: QuerySet, *, sent_field: str, since_field: str, now: datetime
) -> list[int]:
    """Ids of ``waiting`` rows not sent within ``MONSOON_RESEND_AFTER_SECONDS``, stamped now.

    ``since_field`` stands in for ``sent_field`` until a row has been sent again once.
    """
    threshold = now - timedelta(seconds=settings.MONSOON_RESEND_AFTER_SECONDS)
    ids = list(
        waiting.annotate(last_sent=Coalesce(sent_field, since_field))
        .filter(last_sent__lt=threshold)
        .values_list("pk", flat=True)
    )
    waiting.model.objects.filter(pk__in=ids).update(**{sent_field: now})
    return ids
