"""Reinforcement-learning adapters over the engine (PettingZoo), with their own dependencies.

They live outside ``engine/``, which imports only the standard library, and need the ``rl``
extra (``pip install -e '.[rl]'``; ``dev`` includes it).
"""
