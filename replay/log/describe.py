"""Words for a verdict: what the table held at the move, the clause's sentence and translation, and the
readings applied by default to the rulings a log leaves out.

The clause texts and the rulings' history come from an :class:`~replay.engine.edition.Edition`
(plain data), not the corpus models: the words of a refusal need neither pydantic nor PyYAML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from replay.engine import cards as C
from replay.engine.game import Move, Table

if TYPE_CHECKING:
    from replay.engine.edition import Edition

PENDING = "(translation not yet written)"


def comment_text(comment: str) -> str:
    """A move's comment as one quoted line, its line breaks and control characters made spaces (safe to print)."""
    text = "".join(ch if ch.isprintable() else " " for ch in comment)
    return "“" + " ".join(text.split()) + "”"


def face_of(move: dict[str, Any]) -> str:
    """The card a log entry names, as it is printed (`` Q♠``, with its leading space; empty when none)."""
    from replay.draw.svg import SUIT_SYMBOL, card_text  # only when a move is shown (the drawing's module is not small)

    card = move.get("card")
    return f" {card_text(card)[0]}" if isinstance(card, str) and len(card) == 2 and card[1] in SUIT_SYMBOL else ""


def short_move(move: dict[str, Any]) -> str:
    """A log entry in a few characters: ``p6→K2 Q♠``, ``deal``, ``fill p3→p7 5♥ ×2``."""
    t = move.get("type", "?")
    if "from" not in move and "to" not in move:
        return str(t)
    face = face_of(move)
    count = move.get("count", 1)
    verb = "" if t == "move" else f"{t} "
    return f"{verb}{move.get('from', '?')}→{move.get('to', '?')}{face}" + (f" ×{count}" if count != 1 else "")


def _pile(t: Table, i: int) -> str:
    pile = t.piles[i]
    name = t.name(i)
    if i == t.game.stock:
        return f"{name}: {len(pile)} card{'s' if len(pile) != 1 else ''}" + (f", next {C.code(pile[-1])}" if pile else "")
    if not pile:
        return f"{name}: empty"
    return f"{name}: {C.code(pile[-1])} on top ({len(pile)} card{'s' if len(pile) != 1 else ''})"


def dealt(t: Table) -> str:
    """``3 rounds dealt``, or the game's own words for what its deals have laid out (its option ``dealt``: in
    Napoleon's Square the square, then cards turned one by one)."""
    words = t.game.options.get("dealt")
    return words(t) if words is not None else f"{t.rounds} round{'s' if t.rounds != 1 else ''} dealt"


def held(t: Table, m: Move) -> str:
    """The relevant piles at a move: source and target (top card and size), foundation tops, stock, pass."""
    g = t.game
    parts = []
    for i in dict.fromkeys(x for x in (m.src, m.dst) if x >= 0):
        parts.append(_pile(t, i))
    tops = []
    for f in g.foundations:
        top = t.top(f)
        tops.append(f"{t.name(f)} {C.code(top) if top >= 0 else '-'}")
    parts.append("foundations " + " ".join(tops))
    if g.stock not in (m.src, m.dst):
        parts.append(_pile(t, g.stock))
    for role in ("waste", "reserve"):
        for i in g.by_role.get(role, ()):
            if i not in (m.src, m.dst):
                parts.append(_pile(t, i))
    parts.append(f"pass {t.passes}, {dealt(t)}")
    state = {k: v for k, v in t.vars.items() if not k.startswith("_") and v not in (None, 0, [], {})}
    if state:
        parts.append(", ".join(f"{k}={v}" for k, v in sorted(state.items())))
    return "; ".join(parts)


def clause_text(clause: str, edition: Edition | None = None) -> tuple[str | None, str | None, str | None, str | None]:
    """``(original, translation, verbatim, normalized)`` of a clause, from ``edition`` (None: the default).

    ``original`` is the diplomatic text (the verbatim source with the recorded corrections of
    OCR and spelling applied; equal to the verbatim where there are none).  A translation still
    to be written reads :data:`PENDING`.
    """
    from replay.corpus.edition import default_edition

    c = (edition or default_edition()).clauses.get(clause)
    if c is None:
        return None, None, None, None
    translation = c.translation if c.translation.strip().upper() != "TODO" else PENDING
    return c.original, translation, c.verbatim, c.normalized


def defaults_applied(game_id: str, rulings: Mapping[str, str], given: Mapping[str, str],
                     edition: Edition | None = None) -> list[dict[str, Any]]:
    """For each ruling that applies (``rulings``, resolved) and that the log does not name (``given``): the reading
    applied by default and its history (:func:`default_note`)."""
    missing = [(name, reading) for name, reading in rulings.items() if name not in given]
    if not missing:
        return []
    from replay.corpus.edition import default_edition

    edition = edition or default_edition()
    return [default_note(game_id, name, reading, edition) for name, reading in missing]


def default_note(game: str, ruling: str, reading: str, edition: Edition) -> dict[str, Any]:
    """What ``replay validate`` says of a ruling a log leaves out, read with its default ``reading``: since which
    version that reading is the default, and, when the ruling or its default came later than the first edition,
    what an older archive read instead (``before_the_ruling``, ``earlier_defaults``), as the edition's record of
    changes has it (``corpus/changes.yaml``)."""
    note: dict[str, Any] = {"ruling": ruling, "reading": reading}
    h = edition.history_of(game, ruling)
    if h is None:
        return note
    note["default_since"] = h.default_since
    if h.default_since_commit:
        note["default_since_commit"] = h.default_since_commit
    if h.earlier_defaults:
        note["earlier_defaults"] = [{"reading": e.reading, "until": e.until} for e in h.earlier_defaults]
    if h.before is not None:
        note["ruling_since"] = h.introduced
        note["before_the_ruling"] = h.before
    return note


def archive(edition: Edition | None = None) -> str | None:
    """The version of the archive whose defaults a log is read with (``corpus/changes.yaml``, through the edition)."""
    from replay.corpus.edition import default_edition

    return (edition or default_edition()).archive
