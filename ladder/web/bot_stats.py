"""What "My bots" and the bot page say about each bot: versions, ladder places, forfeits.

One summary per bot, assembled from the apps' selectors: the newest upload and its status, the
version that plays (the latest active one), its rating with interval and rank on each ladder,
and its record of finished seats with the forfeit rate and the commonest forfeit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ladder.accounts.models import Visitor
from ladder.bots import selectors as bot_selectors
from ladder.bots.models import Bot, BotVersion
from ladder.matches import selectors as match_selectors
from ladder.ratings import selectors as rating_selectors

PENDING = (BotVersion.Status.PENDING, BotVersion.Status.VALIDATING)


@dataclass
class BotSummary:
    bot: Bot
    latest: BotVersion | None
    playing: BotVersion | None
    positions: list[rating_selectors.Position] = field(default_factory=list)
    stats: match_selectors.SeatStats | None = None

    @property
    def pending(self) -> bool:
        return self.latest is not None and self.latest.status in PENDING


PLAYED = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)


def summaries(bots: Sequence[Bot], *, user: Visitor) -> list[BotSummary]:
    """A summary per bot as ``user`` may see it, in the order given.

    As on the versions table, only the owner and staff learn of uploads that never played
    (pending, validating, rejected); others see the newest version that played as the latest.
    """
    ids = [bot.pk for bot in bots]
    private = {bot.pk for bot in bots if bot_selectors.can_see_private_details(user, bot)}
    latest: dict[int, BotVersion] = {}
    playing: dict[int, BotVersion] = {}
    for version in BotVersion.objects.filter(bot_id__in=ids).order_by("bot_id", "-number"):
        if version.bot_id in private or version.status in PLAYED:
            latest.setdefault(version.bot_id, version)
        if version.status == BotVersion.Status.ACTIVE:
            playing.setdefault(version.bot_id, version)
    positions = rating_selectors.positions(version_ids=[v.pk for v in playing.values()])
    stats = match_selectors.seat_stats(bot_ids=ids)
    out = []
    for bot in bots:
        active = playing.get(bot.pk)
        out.append(
            BotSummary(
                bot=bot,
                latest=latest.get(bot.pk),
                playing=active,
                positions=positions.get(active.pk, []) if active else [],
                stats=stats.get(bot.pk),
            )
        )
    return out
