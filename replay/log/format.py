"""The log format ``replay-log/1`` as plain data: its name, its limits and the fields of each move type.

The pydantic models (:mod:`replay.log.models`) take their limits from here, and a test holds them
to the same fields; the readers that need no pydantic (:mod:`replay.log.plain`, the browser's) and
the writers (:mod:`replay.log.play`) read them here, so that nothing on their path imports pydantic.
"""

from __future__ import annotations

FORMAT = "replay-log/1"

#: a log file larger than this is refused before it is parsed
MAX_BYTES = 5_000_000
#: a log with more moves than this is refused
MAX_MOVES = 100_000
#: JSON nested deeper than this is refused (the limit of the JSON parser, pydantic-core's jiter)
MAX_DEPTH = 200
#: longest pile name, game, variant, ruling or reading name accepted
MAX_NAME = 64
#: longest comment on a move, in characters (a paragraph of a notebook; 100,000 moves with comments this long
#: would pass :data:`MAX_BYTES`, which still bounds the whole file)
MAX_COMMENT = 2000
#: most cards a deck (two packs) or a move may hold
MAX_CARDS = 104

CARD_PATTERN = r"^[A2-9TJQK][SHDC]$"

#: the claims a log may make about its end
RESULTS = ("won", "lost", "unfinished")

#: every move type of the format and its fields, as a log writes them, in the models' order
MOVE_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("comment", "type"),
    "redeal": ("comment", "type"),
    "move": ("comment", "type", "from", "to", "card", "count"),
    "fill": ("comment", "type", "from", "to", "card"),
    "tuck": ("comment", "type", "from", "to", "card"),
}
MOVE_TYPES = tuple(MOVE_FIELDS)

#: the fields of a log, in the models' order, and those it must have
LOG_FIELDS = ("format", "game", "variants", "rulings", "deck", "moves", "result", "meta")
LOG_REQUIRED = ("format", "game", "variants", "rulings", "deck", "moves")
#: the keys of ``meta`` that are strings when present (any other key is free)
META_STRINGS = ("player", "date", "source", "notes")

__all__ = ["FORMAT", "MAX_BYTES", "MAX_MOVES", "MAX_DEPTH", "MAX_NAME", "MAX_COMMENT", "MAX_CARDS", "CARD_PATTERN",
           "RESULTS", "MOVE_FIELDS", "MOVE_TYPES", "LOG_FIELDS", "LOG_REQUIRED", "META_STRINGS"]
