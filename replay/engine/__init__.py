"""The generic rules engine: cards, piles, layout geometry, rulings, the clause registry.

Nothing in this package names a game; games live in :mod:`replay.games`.  It takes the corpus as
plain data (:mod:`replay.engine.edition`) and imports nothing of ``replay`` outside itself.
"""
