"""Built-in and reference bots.

A policy is ``policy(observation, legal_actions, rng) -> action`` (see
:data:`engine.match.Policy`): it sees exactly what a sandboxed bot sees.
"""
