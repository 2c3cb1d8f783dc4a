"""The games of the corpus, one module per game, and the catalog that makes instances of them.

A game instance is game + variants + rulings::

    from replay.games import create
    game = create("zwarta-kolumna", variants=["chaldejski"], rulings={"side-reach": "adjacent"})
    table = game.new_table(game.deck_from_seed(7))
    table.apply(table.legal_moves()[0])
"""

from replay.games.catalog import GameModule, catalog, create, rulings_for

__all__ = ["GameModule", "catalog", "create", "rulings_for"]
