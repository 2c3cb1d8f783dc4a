"""The generic rules engine: cards, piles, layout geometry, rulings, the clause registry.

Nothing in this package names a game; games live in :mod:`replay.games`.
"""
