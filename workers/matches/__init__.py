"""Where a match is played, end to end: the one home of match running on a worker.

In the order a ladder match goes through it:

* :mod:`workers.matches.tasks`: the Celery tasks (``monsoon.run_match``,
  ``monsoon.validate_bot_version``): an id in, the row claimed with a conditional update, the
  lease renewed while playing, the result recorded once through ``ladder.lifecycle.flow`` (whose
  typed ``MatchSpec`` and ``MatchResult``, ``ladder.lifecycle.types``, both sides share).
* :mod:`workers.matches.records`: what a running match publishes for live spectators.
* :mod:`workers.matches.job`: a spec becomes bot programs (artifacts from the worker's cache)
  and a launcher (the sandbox), then an outcome.
* :mod:`workers.matches.runner`: the protocol loop that plays the match against the engine.
* :mod:`workers.matches.protocol`: the JSON-lines messages of the bot protocol.
* :mod:`workers.matches.validation`: the smoke match of a new bot version.
* :mod:`workers.matches.reference`: the reference bots as programs.

How a bot process is started and confined is :mod:`workers.launch` and :mod:`workers.sandbox`;
the ``monsoon`` command line is :mod:`workers.cli`.
"""
