"""A ladder match from the queue to its consequences, in one package.

* :mod:`ladder.lifecycle.types`: the match spec a worker plays and the result it hands back,
  typed and shared by both sides (no Django: the worker builds a result without the ORM).
* :mod:`ladder.lifecycle.queue`: ids handed to the workers after commit, by Celery task name.
* :mod:`ladder.lifecycle.flow`: claim, spec, record, and what happens when a match is over,
  read top to bottom (``docs/workers.md`` draws it).
"""
