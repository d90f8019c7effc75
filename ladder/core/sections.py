"""The home page's "running tournaments" area as a list of sections from pluggable providers.

The web app knows nothing of tournaments; an app that runs them registers a provider (from its
``AppConfig.ready``) that returns a :class:`HomeSection` for the visitor, or ``None`` when it has
nothing to show.  The home page renders every section it gets, in registration order.

The registry lives in ``core`` rather than in the web app so that a domain app can register a
section without importing ``ladder.web`` (an import contract forbids that direction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from ladder.accounts.models import Visitor


@dataclass(frozen=True)
class SectionItem:
    title: str
    url: str = ""
    detail: str = ""


@dataclass(frozen=True)
class HomeSection:
    title: str
    items: list[SectionItem] = field(default_factory=list)
    url: str = ""


SectionProvider: TypeAlias = Callable[["Visitor"], "HomeSection | None"]
_providers: list[SectionProvider] = []


def register_home_section(provider: SectionProvider) -> SectionProvider:
    """Add a provider (usable as a decorator); registering one twice keeps one copy."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def unregister_home_section(provider: SectionProvider) -> None:
    if provider in _providers:
        _providers.remove(provider)


def home_sections(user: Visitor) -> list[HomeSection]:
    """The sections for ``user``'s home page (providers decide what the user may see)."""
    return [section for provider in _providers if (section := provider(user)) is not None]
