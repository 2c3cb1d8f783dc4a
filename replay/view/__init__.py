"""Seeing and analysing one game: the replay viewer and the position analysis.

* :mod:`replay.view.model` replays a log step by step (the table after every move, the move
  refused and the clause it breaks);
* :mod:`replay.view.render` turns that into one HTML fragment (the table drawn as SVG by
  :mod:`replay.draw.svg` at every step, a slider, the keys, the move list), which the site's
  example pages embed and ``replay view`` wraps in a self-contained page;
* :mod:`replay.view.analyse` asks the solver, position by position, whether the game could
  still be won (``replay analyse``);
* :mod:`replay.view.commands` holds the two commands.
"""
