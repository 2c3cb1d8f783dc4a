"""What the Play page's JavaScript calls: one game at a time, JSON text in and out.

The page installs the site's edition (:func:`start`), then deals a game (:func:`new_game`) or continues
a log (:func:`open_log`).  The game is a :class:`~replay.play.session.Session`, the one ``replay play``
runs in a terminal: a line (:func:`send`) is what a player would type there (a number from the list,
a move in the short form, ``deal``, ``undo``, ``note TEXT``), and a click on a container then on another
(:func:`between`) is that move in the short form.  :func:`redo` plays again what ``undo`` took back (until
another change), and :func:`follow` plays a move given as a log entry (the hint's, :mod:`replay.web.hint`)
when it is one of the legal moves, judged as any other.  Every change is judged by the plain reader and the
validator's replay, as ``replay validate`` judges the file; a refusal is its text, and the problem
behind it (the clause broken, its diplomatic text and translation) for the page to link.

Every answer is the whole state (:func:`state`): the table drawn for the page's width (:func:`view`),
the moves made, the legal moves numbered as the terminal numbers them, where the game stands in the
terminal's words, and the log (``replay-log/1``, every ruling written out) to download.

No call raises: an argument of the wrong kind (a request that is not a JSON object, a seed that is not a
whole number, ``Infinity`` or ``1.5`` included, variants that are not a list of names, rulings that are not
names to readings, a text with a lone surrogate, a number that is not one, a comment that is not text) is
answered ``{"ok": false, "error": [one line naming the call and the argument]}``, and so is any other
failure (:func:`replay.web.calls.answers`); the game on the page is left as it was.  tests/test_web_bridge.py's
``test_no_call_raises_on_a_malformed_argument`` asks every call with each of them.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any

from replay.draw.svg import fitted, fold, table_svg
from replay.engine import edition as E
from replay.log import plain
from replay.log.check import Bad, instance
from replay.log.play import dumps, in_order, new_log
from replay.log.report import report_lines
from replay.play.moves import not_now, short_form, verdict
from replay.play.session import Session
from replay.web.calls import Refused, answers as _answers, error as _error, json_object as _object, text as _text
from replay.web.calls import whole as _whole

#: what ``meta.source`` says of a game dealt on the page
SOURCE = "the rules site's Play page"

_game: dict[str, Any] = {}  # the session, the seed, the file name
_width = [800.0]

@_answers
def start(edition: str) -> str:
    """Install the edition (``replay-edition/1`` JSON text, as the site build writes it) for every game."""
    E.use(E.Edition.from_json(_object(edition, "edition")))
    return json.dumps({"ok": True})


@_answers
def new_game(request: str) -> str:
    """Deal a game: ``{"game", "variants": [...], "rulings": {name: reading}, "seed": N or null, "width": px}``.

    The names are checked as ``replay play`` checks them (an unknown one: its words, and no game); without
    a seed one is drawn; either way it is recorded in ``meta.seed``.  ``width``: as for :func:`view`.
    """
    r = _object(request, "request")
    seed = r.get("seed")
    if seed is None or seed == "":
        import secrets

        seed = secrets.randbelow(2**32)
    seed = _whole(seed, "seed")
    if not 0 <= seed <= 2**64 - 1:
        return _error(["the seed must be from 0 to 2^64 - 1: the shuffle's state has 64 bits"])
    gid, variants, rulings = r.get("game"), r.get("variants") or [], r.get("rulings") or {}
    if not isinstance(gid, str):
        raise Refused(f"the request must name a game (\"game\": an ID), not {gid!r}")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise Refused(f"the variants must be a list of names, not {variants!r}")
    if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
        raise Refused(f"the rulings must map names to readings, not {rulings!r}")
    inst = instance(gid, [_text(v, "variant") for v in variants],
                    {_text(k, "ruling"): _text(v, "reading") for k, v in rulings.items()})
    _wide(r.get("width"))
    g = inst.game
    log = new_log(g, g.deck_from_seed(seed), meta={"source": f"{SOURCE} --seed {seed}", "seed": seed})
    forms = "-".join([g.id, *sorted(g.variants)])
    _begin(Session(f"{forms}-seed-{seed}.json", log, inst, _saved, reader=plain), seed)
    return state()


@_answers
def open_log(text: str, name: str = "log.json", width: float | None = None) -> str:
    """Continue the log ``text`` (a file's contents): refused, in ``replay validate``'s words, unless it is
    a legal log (a log that breaks the rules is not continued, as in ``replay play``)."""
    name = _text(name, "file name") or "log.json"
    data = _text(text, f"log {name}").encode("utf-8")
    _wide(width)
    report = plain.check_bytes(data, name)
    if not report.ok:
        lines = report_lines(report)
        if report.first is not None and report.first.move is not None:
            lines.append(f"{name}: the log breaks the rules at move {report.first.move}; the Play page, like "
                         "replay play, continues only a legal log")
        return _error(lines, _problem(report))
    log = json.loads(text.lstrip("\ufeff"))
    log["moves"] = [in_order(m) for m in log["moves"]]
    inst = instance(log["game"], log["variants"], log["rulings"])
    meta = log.get("meta") if isinstance(log.get("meta"), dict) else {}
    seed = meta.get("seed") if isinstance(meta.get("seed"), int) else None
    _begin(Session(name, log, inst, _saved, reader=plain), seed)
    return state()


@_answers
def send(line: str) -> str:
    """A line as ``replay play`` takes it; the state after it, with the answer (``reply``).  A move taken back
    by ``undo`` can be played again by :func:`redo` until another change is made."""
    if not isinstance(line, str):
        raise Refused(f"the line must be text, not {type(line).__name__}")
    line = _text(line, "line")
    s = _session()
    before = list(s.moves)
    reply = s.handle(line)
    if s.moves != before:
        undone = line.strip().casefold() == "undo" and s.moves == before[:-1]
        _game["redo"] = [*_game["redo"], before[-1]] if undone else []
    problem = _problem(s.refusal) if reply.refused and s.refusal is not None else None
    return state({"out": reply.out, "refused": reply.refused, "problem": problem})


@_answers
def redo() -> str:
    """Play again the move the last ``undo`` took back (judged again, as any move is)."""
    s = _session()
    if not _game["redo"]:
        return state({"out": [], "refused": ["refused: nothing to redo"], "problem": None})
    step = _game["redo"][-1]
    refused = s.play(step)
    if refused:
        return state({"out": [], "refused": refused, "problem": _problem(s.refusal)})
    _game["redo"] = _game["redo"][:-1]
    n = len(s.moves)
    return state({"out": [f"redone: move {n}, {short_form(step)}"], "refused": [], "problem": None})


@_answers
def follow(step: str, comment: str = "") -> str:
    """The move of the log entry ``step`` (JSON text: the hint's next move) if it is one of the legal moves now,
    played by its number; else refused, and nothing is played."""
    want = {k: v for k, v in _object(step, "move").items() if k != "comment"}
    comment = _text(comment, "comment")
    s = _session()
    for c in s.legal:
        if {k: v for k, v in c.step.items() if k != "comment"} == want:
            return pick(c.number, comment)
    return state({"out": [], "refused": [f"refused: {short_form(want)} is not a legal move here; nothing was played"],
                  "problem": None})


@_answers
def between(src: str, dst: str, comment: str = "") -> str:
    """The move from container ``src`` to container ``dst`` (a click on each), as the short form ``src dst``
    reads it: the type and the card of the one legal move between them, else a plain move (for the
    rules to judge)."""
    src, dst, comment = _text(src, "source"), _text(dst, "target"), _text(comment, "comment")
    if not src.strip() or not dst.strip() or any(c.isspace() or c == "#" for c in src.strip() + dst.strip()):
        raise Refused(f"a move between containers names two containers, not {src!r} and {dst!r}")
    return send(f"{src.strip()} {dst.strip()}" + (f" # {comment}" if comment.strip() else ""))


@_answers
def pick(number: int, comment: str = "") -> str:
    """Legal move ``number`` of the list."""
    n, comment = _whole(number, "move's number"), _text(comment, "comment")
    return send(f"{n}" + (f" # {comment}" if comment.strip() else ""))


@_answers
def view(width: float) -> str:
    """The state with the table drawn ``width`` CSS pixels wide (kept for the answers that follow)."""
    _wide(width)
    return state()


@_answers
def state(reply: dict[str, Any] | None = None) -> str:
    """The whole state of the game on the page, as JSON text (see the module)."""
    s = _session()
    t, game = s.table, s.table.game
    lay = game.layout
    last = s.moves[-1] if s.moves else None
    metrics, across = fitted(_width[0], lay.cols)
    rows, cols = fold(lay.rows, lay.cols, across)
    snap = t.snapshot()
    n = len(s.moves)
    svg = table_svg(lay.names, lay.roles, rows, cols, snap["piles"], foundation_suits=snap["foundation_suits"],
                    src=last.get("from") if last else None, dst=last.get("to") if last else None,
                    label=f"the table after move {n}" if n else "the table before the first move", metrics=metrics)
    takes_no_pile = [mtype for mtype, src_role, _ in game.book.entries if src_role is None]
    out = {
        "ok": True,
        "game": game.id,
        "variants": sorted(game.variants),
        "rulings": dict(sorted(game.rulings.items())),
        "seed": _game["seed"],
        "name": s.name,
        "svg": svg,
        "made": [{"n": i + 1, "short": short_form(m), "comment": m.get("comment")} for i, m in enumerate(s.moves)],
        "legal": [{"number": c.number, "short": c.short, "type": c.step["type"], "from": c.step.get("from"),
                   "to": c.step.get("to")} for c in s.legal],
        "verdict": verdict(t, s.legal),
        "not_now": [asdict(x) for x in not_now(t, s.legal)],
        "outcome": t.outcome(),
        "bare": list(dict.fromkeys(takes_no_pile)),
        "status": f"{n} move{'s' if n != 1 else ''}, {t.outcome()}",
        "redo": len(_game["redo"]),
        "log": dumps(s.written()),
    }
    if reply is not None:
        out["reply"] = reply
    return json.dumps(out, ensure_ascii=False)


# --------------------------------------------------------------------------- inside


def _wide(width: Any) -> None:
    if isinstance(width, (int, float)) and not isinstance(width, bool) and math.isfinite(width) and width > 0:
        _width[0] = max(160.0, float(width))


def _begin(session: Session, seed: int | None) -> None:
    _game.clear()
    _game.update(session=session, seed=seed, redo=[])


def _saved(log: dict[str, Any]) -> None:
    """The session saves after every change: the page asks for the log when it needs it (:func:`state`)."""


def _session() -> Session:
    if "session" not in _game:
        raise Refused("no game: new_game() or open_log() first")
    session: Session = _game["session"]
    return session


def _problem(report: Any) -> dict[str, Any] | None:
    """The first problem of a verdict, with what the page needs to link its clause (the clause's game)."""
    p = report.first if report is not None else None
    if p is None:
        return None
    from replay.corpus.edition import default_edition

    out = {k: v for k, v in asdict(p).items() if v is not None and k != "snapshot"}
    c = default_edition().clauses.get(p.clause) if p.clause else None
    if c is not None:
        out["clause_game"], out["language"] = c.game, c.language
    return out


__all__ = ["start", "new_game", "open_log", "send", "redo", "follow", "between", "pick", "view", "state"]
