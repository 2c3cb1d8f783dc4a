"""Words for a verdict: what the table held at the move, the clause's sentence and translation, and the
readings applied by default to the rulings a log leaves out."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from replay.engine import cards as C
from replay.engine.game import Move, Table

PENDING = "(translation not yet written)"


def comment_text(comment: str) -> str:
    """A move's comment as one quoted line, its line breaks and control characters made spaces (safe to print)."""
    text = "".join(ch if ch.isprintable() else " " for ch in comment)
    return "“" + " ".join(text.split()) + "”"


def _pile(t: Table, i: int) -> str:
    pile = t.piles[i]
    name = t.name(i)
    if i == t.game.stock:
        return f"{name}: {len(pile)} card{'s' if len(pile) != 1 else ''}" + (f", next {C.code(pile[-1])}" if pile else "")
    if not pile:
        return f"{name}: empty"
    return f"{name}: {C.code(pile[-1])} on top ({len(pile)} card{'s' if len(pile) != 1 else ''})"


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
    parts.append(f"pass {t.passes}, {t.rounds} round{'s' if t.rounds != 1 else ''} dealt")
    state = {k: v for k, v in t.vars.items() if not k.startswith("_") and v not in (None, 0, [], {})}
    if state:
        parts.append(", ".join(f"{k}={v}" for k, v in sorted(state.items())))
    return "; ".join(parts)


@lru_cache(maxsize=None)
def clause_text(clause: str) -> tuple[str | None, str | None, str | None, str | None]:
    """``(original, translation, verbatim, normalized)`` of a clause, from the corpus.

    ``original`` is the diplomatic text (the verbatim source with the recorded corrections of
    OCR and spelling applied; equal to the verbatim where there are none).  A translation still
    to be written reads :data:`PENDING`.
    """
    from replay.corpus.loader import default_corpus

    corpus = default_corpus()
    c = corpus.clauses.get(clause)
    if c is None:
        return None, None, None, None
    try:
        original = corpus.diplomatic(clause)
    except (KeyError, IndexError):
        original = c.verbatim
    translation = c.translation if c.translation.strip().upper() != "TODO" else PENDING
    return original, translation, c.verbatim, c.normalized


def defaults_applied(game_id: str, rulings: Mapping[str, str], given: Mapping[str, str]) -> list[dict[str, Any]]:
    """For each ruling that applies (``rulings``, resolved) and that the log does not name (``given``): the reading
    applied by default and its history (:func:`replay.corpus.history.default_note`: since which version it is the
    default, and what an older archive read where the ruling or its default came later)."""
    missing = [(name, reading) for name, reading in rulings.items() if name not in given]
    if not missing:
        return []
    from replay.corpus.history import default_note

    return [default_note(game_id, name, reading) for name, reading in missing]


def archive() -> str | None:
    """The version of the archive whose defaults a log is read with (``corpus/changes.yaml``)."""
    from replay.corpus.history import archive_version

    return archive_version()

