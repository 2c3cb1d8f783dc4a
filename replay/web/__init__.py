"""The rules site's Play page: the engine itself, run in the browser on Pyodide.

:mod:`replay.web.bridge` is the Python the page's JavaScript calls (JSON text in, JSON text out): a
game is the terminal's session (:class:`replay.play.session.Session`) reading its log with the plain
reader (:mod:`replay.log.plain`), every move judged as ``replay validate`` judges it, and the table
drawn by the site's own drawing code (:mod:`replay.draw.svg`).  The JavaScript draws what it is given,
takes clicks and calls the bridge; it decides no rule.

:mod:`replay.web.hint` is the strong player's hint: the nested search of :mod:`replay.solver.nested`, in
Python, from the position on the table, run by the page's Web Worker (``static/play-worker.js``) on a
Pyodide of its own, so that the page stays responsive and the search can be stopped.

:data:`ENTRIES` are the modules the page's scripts call.  :data:`SHIPPED` is every module the page loads,
and all it loads of ``replay`` (the game modules are the catalog's, :data:`replay.games.catalog.MODULES`):
the site build packs exactly these (:mod:`replay.site.play`), and ``tests/test_layers.py`` plays every game
and asks for a hint through the entries with only these on the path and pydantic and PyYAML blocked.
:data:`NOT_REACHED` are the modules the shipped ones import only where the page never goes (the default
corpus, which an installed edition replaces; ``replay validate``'s reader, which the plain one replaces;
the C search core, which the hint does not ask for).
"""

from __future__ import annotations

from replay.games.catalog import MODULES as _GAMES

#: the modules the page's scripts import: the page's (play.js) and its worker's (play-worker.js)
ENTRIES = ("replay.web.bridge", "replay.web.hint")

#: the game modules are the catalog's (a game added to it is shipped with it)
SHIPPED = tuple(sorted({
    "replay",
    "replay.corpus",
    "replay.corpus.edition",
    "replay.draw",
    "replay.draw.svg",
    "replay.engine",
    "replay.engine.cards",
    "replay.engine.common",
    "replay.engine.edition",
    "replay.engine.errors",
    "replay.engine.game",
    "replay.engine.kernel",
    "replay.engine.layout",
    "replay.engine.proofs",
    "replay.engine.registry",
    "replay.engine.rulings",
    "replay.engine.shuffle",
    "replay.games",
    "replay.games.catalog",
    "replay.log",
    "replay.log.check",
    "replay.log.describe",
    "replay.log.fast",
    "replay.log.format",
    "replay.log.locate",
    "replay.log.names",
    "replay.log.plain",
    "replay.log.play",
    "replay.log.report",
    "replay.log.wording",
    "replay.play",
    "replay.play.moves",
    "replay.play.session",
    "replay.play.shortform",
    "replay.solver",
    "replay.solver.nested",
    "replay.solver.search",
    "replay.web",
    "replay.web.bridge",
    "replay.web.calls",
    "replay.web.hint",
    *_GAMES.values(),
}))

#: imported by a shipped module only on a path the page never takes (see the module's docstring)
NOT_REACHED = (
    "replay.corpus.files",  # the default corpus's cache: an installed edition comes first
    "replay.corpus.loader",  # the default corpus itself, on a cache miss
    "replay.corpus.history",  # the record of changes replayed when an edition is made from the corpus (a miss)
    "replay.fsio",  # writing that cache
    "replay.log.validate",  # the session's default reader; the page gives it the plain one
    "replay.corpus.models",  # named for the type checker only, by replay.corpus.edition
    # the C search core (a library built at install): the hint searches in Python (fast=False), and the
    # checked replay (replay.log.fast) finds it missing and replays every log with the engine
    "replay.fastcore",
    "replay.fastcore.nested",  # its nested search, asked for by replay.solver.nested only when fast
)
