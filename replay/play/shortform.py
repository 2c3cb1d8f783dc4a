"""A move as a person types it: ``p6 K2``, ``p6 K2 QS``, ``p6 → K2  QS``, ``tuck exiles p5``, ``deal``.

The grammar, in words: an optional move type (``move``, ``deal``, ``redeal``, ``fill``, ``tuck``, as
the game has them), then for a move that takes cards the pile it comes from and the pile it goes
to (an arrow ``→`` or ``->`` between them is allowed, so that the short form :mod:`replay.play.moves`
prints can be typed back), then optionally the card moved and ``×N`` (or ``xN``) for several
cards; anything after ``#`` is a comment on the move.  Pile names and cards may be typed in any
case, and a card as ``10H``, ``Q♠`` or ``qs``.

:func:`parse_short` gives the log entry.  It does not judge the move: when the type is not
typed it takes that of the legal move with the same piles (and card), else ``move``; when the
card is not typed it takes the card of that legal move.  Whether the entry is legal is for the
validator to say, with its own messages.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from replay.engine import cards as C
from replay.engine.game import Game
from replay.log.format import MOVE_TYPES
from replay.play.moves import Choice

_COUNT = re.compile(r"^[x×*](\d+)$", re.IGNORECASE)



class ShortFormError(ValueError):
    """Text that is not a move in the short form (the message says what is expected)."""


def example(game: Game, legal: Sequence[Choice] = ()) -> str:
    """A move in the short form in this game's own pile names: the first legal move that takes piles, else a
    pile of the table and a foundation (``p7 K3`` in zwarta-kolumna, ``b2 A1`` in printex-frame)."""
    for c in legal:
        if "from" in c.step:
            return f"{c.step['from']} {c.step['to']}"
    names = game.layout.names
    tableau = game.by_role.get("tableau", ())
    src = names[tableau[0]] if tableau else names[0]
    dst = names[game.foundations[0]] if game.foundations else names[-1]
    return f"{src} {dst}"


def usage(game: Game, legal: Sequence[Choice] = ()) -> str:
    """What a move in the short form looks like, with this game's pile names."""
    e = example(game, legal)
    return f"type a move as FROM TO [CARD] [×N], e.g. '{e}', or a move type such as '{_no_piles(game)}'"


def _no_piles(game: Game) -> str:
    types = [t for t, src_role, _ in game.book.entries if src_role is None]
    return types[0] if types else game.book.types[0]


def _pile(game: Game, word: str) -> str:
    """The layout's spelling of a pile name typed in any case (unknown names are kept as typed)."""
    names = game.layout.names
    if word in names:
        return word
    folded = [n for n in names if n.casefold() == word.casefold()]
    return folded[0] if len(folded) == 1 else word


def _card(word: str) -> str:
    return C.suggest(word) or word.upper()


def parse_short(text: str, game: Game, legal: Sequence[Choice] = ()) -> dict[str, Any]:
    """The log entry ``text`` stands for (see the module's grammar); raises :class:`ShortFormError`."""
    text, hash_, comment = text.partition("#")
    words = text.replace("→", " ").replace("->", " ").split()
    if not words:
        raise ShortFormError(usage(game, legal))
    types = game.book.types
    mtype: str | None = None
    if words[0].casefold() in types or _foreign_type(game, words):
        mtype = words.pop(0).casefold()
        if mtype not in MOVE_TYPES:  # no move of any game: say this game's, not every type the format has
            raise ShortFormError(f"'{mtype}' is neither a move of {game.id} (its moves: {', '.join(types)}) nor "
                                 "one of its piles; " + usage(game, legal))
    step: dict[str, Any] = {"type": mtype or "move"}
    takes_piles = {t for t, src_role, _ in game.book.entries if src_role is not None}
    if mtype is not None and mtype in types and mtype not in takes_piles:
        if words:
            raise ShortFormError(f"'{mtype}' takes no piles; type just '{mtype}'")
    else:
        count = None
        if words and _COUNT.match(words[-1]):
            count = int(_COUNT.match(words.pop())[1])  # type: ignore[index]
        if len(words) not in (2, 3):
            raise ShortFormError(usage(game, legal) if mtype is None else
                                 f"'{mtype}' takes FROM TO [CARD], e.g. '{mtype} {example(game, legal)}'")
        step["from"], step["to"] = _pile(game, words[0]), _pile(game, words[1])
        if len(words) == 3:
            step["card"] = _card(words[2])
        if count is not None:
            step["count"] = count
        _complete(step, mtype is not None, legal)
    if hash_ and comment.strip():
        step["comment"] = comment.strip()
    return step


def _foreign_type(game: Game, words: list[str]) -> bool:
    """Whether the first word names a move type this game does not have (``tuck exiles p5`` in
    zwarta-kolumna): a word of letters that is no pile of the layout, before two or more words that are
    not a card.  The entry then carries that type, and the validator says the game has no such move."""
    first = words[0]
    if not first.isalpha() or not first.isascii() or _pile(game, first) in game.layout.names:
        return False
    rest = [w for w in words[1:] if not _COUNT.match(w)]
    return len(rest) == 3 or (len(rest) == 2 and C.suggest(rest[1]) is None)


def _complete(step: dict[str, Any], typed: bool, legal: Sequence[Choice]) -> None:
    """Take the type, card and count the person left out from the one legal move that fits what was typed."""
    fits = [s for c in legal for s in (c.step, *c.alike)
            if s.get("from") == step["from"] and s.get("to") == step["to"]
            and (not typed or s["type"] == step["type"])
            and ("card" not in step or s.get("card") == step["card"])
            and ("count" not in step or s.get("count", 1) == step["count"])]
    if len(fits) != 1:
        return
    for key in ("type", "card", "count"):
        if key in fits[0]:
            step[key] = fits[0][key]
