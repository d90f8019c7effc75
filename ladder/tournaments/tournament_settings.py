"""What an organiser chooses for a tournament, defined once.

The service takes a :class:`TournamentSettings` (``create_tournament(user, settings=...)``),
and the admin's form and the API's create serializer take their field lists from
:meth:`TournamentSettings.field_names`, so a new setting is added here and nowhere else is
forgotten. The values are not checked here: ``services.check_settings`` does that, with a
refusal that names the field.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any

from ladder.tournaments.models import Tournament


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """A tournament's editable settings; empty values mean the service's defaults.

    ``variant`` empty: the ladder's; ``registration_opens_at`` None: now;
    ``registration_closes_at`` None: at the start; ``time_zone`` empty: UTC; ``rounds`` None
    (Swiss): from the field size; ``name`` empty: the game and format.
    """

    name: str = ""
    description: str = ""
    game: str
    num_players: int
    variant: str = ""
    format: str
    duplicate: bool = False
    games_per_pairing: int = 1
    rounds: int | None = None
    advance: int = 1
    registration_opens_at: datetime | None = None
    registration_closes_at: datetime | None = None
    time_zone: str = ""
    starts_at: datetime | None = None
    is_public: bool = True
    ranked: bool = False

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The settings' names, in the order forms show them."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def of(cls, tournament: Tournament) -> TournamentSettings:
        """The stored settings of ``tournament`` (to change some with ``dataclasses.replace``)."""
        return cls(**{name: getattr(tournament, name) for name in cls.field_names()})

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
