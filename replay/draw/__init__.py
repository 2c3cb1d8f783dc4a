"""Drawing, below everything that draws: the SVG of layouts and tables and the text of a card
(:mod:`replay.draw.svg`), shared by the site (:mod:`replay.site`) and the game viewer (:mod:`replay.view`).

It takes the engine's plain data (a :class:`~replay.engine.edition.LayoutPlan`, pile names, roles and
grid positions, card codes), never the corpus models.
"""
