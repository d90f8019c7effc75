"""The ``monsoon`` command (``workers.cli:main``): games, play, replay, new-bot and bench.

:mod:`workers.cli.commands` holds the commands; :mod:`workers.cli.bots` turns a ``--bot`` into
the program to start. Matches are played by :func:`workers.matches.runner.run_match`, the same
loop the ladder's workers run.
"""

from workers.cli.commands import main

__all__ = ["main"]
