"""The home page's sections, as the web app sees them.

The registry lives in :mod:`ladder.core.sections` so that domain apps can register a section
without importing the web app (an import contract forbids it); the web app only renders them.
"""

from __future__ import annotations

from ladder.core.sections import (
    HomeSection,
    SectionItem,
    SectionProvider,
    home_sections,
    register_home_section,
    unregister_home_section,
)

__all__ = [
    "HomeSection",
    "SectionItem",
    "SectionProvider",
    "home_sections",
    "register_home_section",
    "unregister_home_section",
]
