"""The ``monsoon`` command (``workers.cli:main``): games, play, replay, new-bot, bench, and the
ladder's login, submit, status and logs.

:mod:`workers.cli.commands` holds the commands; :mod:`workers.cli.bots` turns a ``--bot`` into
the program to start; :mod:`workers.cli.remote` is the REST API client (standard library only:
the command ships in the bot authors' kit, ``bots.kit``). Matches are played by
:func:`workers.matches.runner.run_match`, the same loop the ladder's workers run.
"""

from workers.cli.commands import main

__all__ = ["main"]
