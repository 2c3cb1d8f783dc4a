"""Seeing one game: the replay viewer.

* :mod:`replay.view.model` replays a log step by step (the table after every move, the move
  refused and the clause it breaks);
* :mod:`replay.view.render` turns that into one HTML fragment (the table drawn as SVG by
  :mod:`replay.draw.svg` at every step, a slider, the keys, the move list, and the verdicts of
  :mod:`replay.solver.analyse` when given), which the site's example pages embed and
  ``replay view`` (:mod:`replay.cli.view`) wraps in a self-contained page.
"""
