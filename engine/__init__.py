"""Monsoon's game engine: pure rules, no Django, no Celery, no I/O, no clock.

Everything above this package (bots, workers, the ladder) talks to games through
:mod:`engine.core` and :mod:`engine.registry` only, so a new game is one package
under ``engine/games/`` and nothing else changes.
"""

# 1.1.0 (2026-11-28): Borneo's attacker must keep a card of the attacked company (rulings).
ENGINE_VERSION = "1.1.0"
