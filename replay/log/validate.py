"""Replay a log against the rules: the verdict, and at the first illegal move the clause it breaks.

The path of a log::

    bytes --size, UTF-8, JSON, models--> GameLog --game, variants, rulings--> Game
          --deck--> Table --each move: names to indices, Table.apply--> outcome, result claim

Anything wrong before the replay makes the log *malformed* (one problem, one line);
an illegal move, a wrong card or a false result claim makes it *illegal*.  Nothing
here raises on bad input: every function returns a :class:`~replay.log.report.Report`.

Game instances and the engine moves of known log entries are cached per process,
so validating many logs of one game costs little more than replaying their moves.
"""

from __future__ import annotations

import re
from collections import Counter
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from pydantic import ValidationError

from replay.engine import cards as C
from replay.engine.errors import BadCombination, IllegalMove, InvalidDeck, MoveMismatch, ReplayError, UnknownName
from replay.engine.game import Game, Move, Table, misnamed_card
from replay.log.describe import archive, clause_text, defaults_applied, held
from replay.log.locate import Index, format_path
from replay.log.models import (MAX_BYTES, MAX_COMMENT, MAX_DEPTH, MAX_MOVES, MAX_NAME, MOVE_MODELS, MOVE_TYPES,
                               GameLog)
from replay.log.report import CODES, VERDICTS, Problem, Report

BOM = b"\xef\xbb\xbf"
_CARD = {C.code(i): i for i in range(52)}


class Bad(Exception):
    """A malformed log (internal: becomes a :class:`Problem`)."""

    def __init__(self, code: str, message: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.code, self.message, self.path = code, message, list(path)


# --------------------------------------------------------------------------- game instances


@dataclass
class Instance:
    """A game instance with what the validator needs at hand."""

    game: Game
    index: dict[str, int]
    types: frozenset[str]
    moves: dict[Any, Move] = field(default_factory=dict)  #: log entry key -> engine move


_INSTANCES: dict[tuple, Instance] = {}
_MOVE_CACHE_LIMIT = 200_000
#: --lenient: the first this many violations of a log carry a snapshot of the whole table; the rest
#: are counted in Report.snapshots_omitted (a snapshot is ~100 times the size of the rest of a problem)
MAX_SNAPSHOTS = 100
#: --lenient: a report is kept within this many bytes of text per byte of the log (plus REPORT_SLACK): past
#: it, violations lose their quoted clause, table and snapshot, and then are only counted (Report.cut_at)
REPORT_PER_BYTE = 8
REPORT_SLACK = 2 * 1024 * 1024


def instance(game_id: str, variants: Sequence[str], rulings: Mapping[str, str]) -> Instance:
    """The (cached) instance of a game; raises :class:`Bad` naming the offending field."""
    key = (game_id, tuple(variants), tuple(sorted(rulings.items())))
    inst = _INSTANCES.get(key)
    if inst is None:
        inst = _resolve(game_id, list(variants), dict(rulings))
        if len(_INSTANCES) > 1000:
            _INSTANCES.clear()
        _INSTANCES[key] = inst
    return inst


def _resolve(game_id: str, variants: list[str], rulings: dict[str, str]) -> Instance:
    from replay.games.catalog import create, module, rulings_for

    try:
        mod = module(game_id)
    except UnknownName as e:
        raise Bad("unknown-game", unknown("game", game_id, e.known), ["game"]) from None
    for i, v in enumerate(variants):
        if v not in mod.VARIANTS:
            known = list(mod.VARIANTS)
            msg = unknown("variant", v, known, f" of {game_id}") if known else \
                f"unknown variant {_short(v)}: {game_id} has no variants"
            raise Bad("unknown-variant", msg, ["variants", i])
    if len(set(variants)) != len(variants):
        dup = next(v for v in variants if variants.count(v) > 1)
        raise Bad("bad-combination", f"variant {dup!r} is named twice", ["variants", len(variants) - 1 -
                                                                           variants[::-1].index(dup)])
    defs = rulings_for(game_id)
    vset = frozenset(variants)
    for name, reading in rulings.items():
        if name not in defs:
            raise Bad("unknown-ruling", unknown("ruling", name, sorted(defs), f" of {game_id}"), ["rulings", name])
        if reading not in defs[name].readings:
            raise Bad("unknown-reading", unknown("reading", reading, defs[name].readings, f" of ruling {name!r}"),
                      ["rulings", name])
        if not defs[name].applies(vset):
            need = " or ".join(defs[name].variants)
            raise Bad("bad-combination", f"ruling {name!r} applies only with the variant {need}", ["rulings", name])
    try:
        game = create(game_id, variants, rulings)
    except BadCombination as e:
        raise Bad("bad-combination", e.one_line(), ["variants"]) from None
    except UnknownName as e:  # pragma: no cover - checked above
        raise Bad("schema", e.one_line(), []) from None
    lay = game.layout
    return Instance(game, {n: i for i, n in enumerate(lay.names)}, frozenset(game.book.types))


# --------------------------------------------------------------------------- parsing


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, (list, tuple)):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _short(v: Any, n: int = 40) -> str:
    text = repr(v) if not isinstance(v, (dict, list)) else _json_type(v)
    return text if len(text) <= n else text[: n - 1] + "…"


_EXPECTED = {
    "string_type": "a string", "int_type": "an integer", "list_type": "an array", "dict_type": "an object",
    "model_type": "an object", "model_attributes_type": "an object", "bool_type": "a boolean",
    "int_from_float": "an integer", "literal_error": None,
}
_LINE_COL = re.compile(r"at line (\d+) column (\d+)")


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_DIGITS = re.compile(r"-?[0-9]+")


def _json_detail(msg: str, data: bytes, line: int | None, col: int | None) -> tuple[str, int] | None:
    """A plainer message than the parser's for what it refuses in valid-looking JSON (lone surrogates,
    integers past its limit), with the column where it begins; or None."""
    if line is None or col is None:
        return None
    lines = data.split(b"\n")
    if line > len(lines):
        return None
    text = lines[line - 1].decode("utf-8", errors="replace")
    if "surrogate" in msg or "hex escape" in msg:
        near = list(_SURROGATE.finditer(text, max(0, col - 13), col + 6))
        if near:
            return (f"not valid JSON: lone surrogate {near[-1].group()}: an escaped UTF-16 surrogate must be one of "
                    "a pair (a high \\ud800-\\udbff, then a low \\udc00-\\udfff)", near[-1].start() + 1)
    if "number out of range" in msg:
        start = col - 1
        while start > 0 and text[start - 1] in "0123456789-":
            start -= 1
        m = _DIGITS.match(text, start)
        if m and len(m.group().lstrip("-")) > 20:
            return (f"integer too large: {len(m.group().lstrip('-')):,} digits (this reader takes numbers up to "
                    "about 1.8e308)", start + 1)
    return None


def _aliases(model: Any) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def _fields(path: list[str | int]) -> list[str]:
    """The keys allowed at ``path`` (for suggesting a misspelt key)."""
    if not path:
        return [f.alias or n for n, f in GameLog.model_fields.items()]
    if path[0] == "moves" and len(path) == 2:
        return sorted({(f.alias or n) for m in MOVE_MODELS.values() for n, f in m.model_fields.items()})
    return []


def _from_validation(err: ValidationError, data: bytes) -> tuple[Bad, int | None, int | None]:
    """The first problem pydantic found, as a :class:`Bad` (with line/column for JSON syntax errors)."""
    errors = err.errors(include_url=False, include_context=True)
    e = errors[0]
    more = len(errors) - 1
    t = e["type"]
    loc = list(e["loc"])
    inp = e.get("input")
    if t == "json_invalid":
        msg = str(e.get("ctx", {}).get("error", e["msg"]))
        m = _LINE_COL.search(msg)
        line, col = (int(m.group(1)), max(1, int(m.group(2)))) if m else (None, None)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as u:
            before = data[: u.start]
            line = before.count(b"\n") + 1
            col = u.start - (before.rfind(b"\n") + 1) + 1
            return Bad("not-utf8", f"not UTF-8: byte 0x{data[u.start]:02x} at offset {u.start} ({u.reason})"), line, col
        if "recursion limit" in msg:
            return Bad("too-deep", f"nested deeper than {MAX_DEPTH} levels (the limit of the format)"), line, col
        better = _json_detail(msg, data, line, col)
        if better:
            return Bad("json-syntax", better[0]), line, better[1]
        msg = _LINE_COL.sub("", msg).strip()
        return Bad("json-syntax", f"not valid JSON: {msg}"), line, col
    # strip the union tag pydantic inserts after a move's index
    mtype = None
    if len(loc) >= 3 and loc[0] == "moves" and loc[2] in MOVE_TYPES:
        mtype = str(loc[2])
        del loc[2]
    code, msg, path = "schema", str(e["msg"]), loc
    if t == "missing":
        path = loc[:-1]
        msg = f"the field {loc[-1]!r} is missing"
    elif t == "extra_forbidden":
        from difflib import get_close_matches

        key = str(loc[-1])
        owners = [t for t, m in MOVE_MODELS.items() if key in _aliases(m)] if mtype and len(loc) == 3 else []
        if owners:
            names = [repr(t) for t in owners]
            both = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            msg = f"{key!r} is not a field of a {mtype!r} move (it belongs to {both})"
        else:
            fields = _aliases(MOVE_MODELS[mtype]) if mtype and len(loc) == 3 else _fields(loc[:-1])
            close = get_close_matches(key, fields, n=1)
            msg = f"unknown field {loc[-1]!r}" + (f"; did you mean {close[0]!r}?" if close else "")
    elif t == "union_tag_invalid":
        tag = e.get("ctx", {}).get("tag", inp)
        code, msg = "unknown-move-type", UnknownName("move type", tag, list(MOVE_TYPES)).one_line()
    elif t == "union_tag_not_found":
        msg = "a move needs a 'type' (" + ", ".join(MOVE_TYPES) + ")"
    elif t == "string_pattern_mismatch" and (loc[:1] == ["deck"] or loc[-1:] == ["card"]):
        code, msg = "bad-card", C.CardCodeError(inp, C.suggest(inp) if isinstance(inp, str) else None).one_line()
    elif t == "too_long" and loc == ["moves"]:
        code, msg = "too-many-moves", f"the log has {len(inp) if isinstance(inp, list) else 'too many'} moves; " \
                                      f"the limit is {MAX_MOVES}"
    elif t == "too_long" and loc == ["deck"]:
        code, msg = "invalid-deck", f"the deck has {len(inp) if isinstance(inp, list) else 'too many'} cards; " \
                                    f"two packs hold {C.DECK_SIZE}"
    elif t == "literal_error":
        expected = e.get("ctx", {}).get("expected", "")
        what = "format" if loc == ["format"] else "value"
        msg = f"{_short(inp)} is not a valid {what}; expected {expected}"
    elif t in _EXPECTED:
        msg = f"expected {_EXPECTED[t]}, got {_json_type(inp)}"
    elif t in ("string_too_short", "string_too_long"):
        longest = MAX_COMMENT if loc[-1:] == ["comment"] else MAX_NAME
        msg = f"{_short(inp)} must be 1 to {e.get('ctx', {}).get('max_length', longest)} characters"
    elif t in ("greater_than_equal", "less_than_equal"):
        msg = f"{_short(inp)}: {e['msg'].lower()}"
    if more:
        msg += f" (and {more} more problem{'s' if more > 1 else ''})"
    return Bad(code, msg, path), None, None


def parse(data: bytes) -> GameLog:
    """Parse a log's bytes into the models; raises :class:`Bad`."""
    if len(data) > MAX_BYTES:
        raise too_large()
    if data[:3] == BOM:
        data = data[3:]
    try:
        log = GameLog.model_validate_json(data)
    except ValidationError as err:
        bad, _, _ = _from_validation(err, data)
        raise bad from None
    strict = strict_json(data)
    if strict is not None:
        raise strict[0]
    return log


def too_large(size: int | None = None) -> Bad:
    """The file is over the limit (its size when known: a file read in part only knows it is larger)."""
    if size is None:
        return Bad("too-large", f"the file is larger than the {MAX_BYTES:,}-byte limit")
    return Bad("too-large", f"the file has {size:,} bytes, more than the {MAX_BYTES:,}-byte limit")


def _strict_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > 1 and len({k for k, _ in pairs}) < len(pairs):
        raise ValueError("duplicate key")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _finite(text: str) -> float:
    x = float(text)
    if x in (float("inf"), float("-inf")):
        raise ValueError(text)
    return x


def strict_json(body: bytes) -> tuple[Bad, int | None, int | None] | None:
    """What the fast parser lets through but RFC 8259 JSON does not have: a key given twice in one
    object, ``NaN`` / ``Infinity`` / ``-Infinity``, a number too large for a double (``1e999``).

    One pass of the standard library's C parser (its hooks raise on the first such thing); only
    then is the text walked to say what and where.  Returns the problem with line and column, or None.
    """
    import json

    try:
        json.loads(body, object_pairs_hook=_strict_hook, parse_constant=_no_constant, parse_float=_finite)
        return None
    except (ValueError, RecursionError):
        pass
    from replay.log.locate import Index, format_path, not_strict

    text = body.decode("utf-8", errors="replace")
    found = not_strict(text)
    if found is None:
        return None
    kind, token, offset, path = found
    line, col = Index(text).line_col(offset)
    if kind == "duplicate":
        bad = Bad("json-syntax", f"the key {token} is given twice in one object; JSON keys must be unique", path)
    elif kind == "overflow":
        bad = Bad("json-syntax", f"not valid JSON here: {token} overflows a double (the largest is about 1.8e308)",
                  path)
    else:
        bad = Bad("json-syntax", f"not valid JSON: {token} is not a JSON number (RFC 8259 has no NaN or Infinity)",
                  path)
    return bad, line, col


# --------------------------------------------------------------------------- replay


def _deck_problem(game: Game, deck: list[int], e: InvalidDeck) -> Bad:
    """Point at the offending card where there is one: the first extra copy of a card, in dealing order."""
    want = game.expected_deck()
    if len(deck) == sum(want.values()):
        seen: Counter[int] = Counter()
        for i, card in enumerate(deck):
            seen[card] += 1
            if seen[card] > want[card]:
                total = deck.count(card)
                extra = " (its base card is already on the table)" if card in game.setup.bases.values() else ""
                return Bad("invalid-deck", f"{C.code(card)} appears {total} times; two packs give {want[card]}"
                           f"{extra}", ["deck", i])
    return Bad("invalid-deck", e.one_line(), ["deck"])


def unknown(kind: str, value: object, known: Sequence[str], where: str = "") -> str:
    """``unknown pile 'p13' in layout zk-snake; did you mean 'p3'?`` (or the list of known names)."""
    from difflib import get_close_matches

    msg = f"unknown {kind} {_short(value)}{where}"
    close = get_close_matches(value, list(known), n=1) if isinstance(value, str) else []
    if close:
        return msg + f"; did you mean {close[0]!r}?"
    if known:
        return msg + f" (known: {', '.join(known)})"
    return msg


def engine_moves(inst: Instance, log: GameLog) -> list[Move]:
    """Engine moves of the log's entries; raises :class:`Bad` on an unknown move type or pile."""
    cache = inst.moves
    if len(cache) > _MOVE_CACHE_LIMIT:
        cache.clear()
    out: list[Move] = []
    append = out.append
    for i, s in enumerate(log.moves):
        t = s.type
        if t == "deal" or t == "redeal":
            key: Any = t
        elif t == "move":
            key = (t, s.from_, s.to, s.card, s.count)  # type: ignore[union-attr]
        else:
            key = (t, s.from_, s.to, s.card, 1)  # type: ignore[union-attr]
        m = cache.get(key)
        if m is None:
            m = _build(inst, i, key)
            cache[key] = m
        append(m)
    return out


def _build(inst: Instance, i: int, key: Any) -> Move:
    t = key if isinstance(key, str) else key[0]
    if t not in inst.types:
        known = sorted(inst.types)
        raise Bad("unknown-move-type",
                  f"{inst.game.id}{_form(inst.game)} has no {t!r} move (its moves: {', '.join(known)})",
                  ["moves", i, "type"])
    if isinstance(key, str):
        return Move(t)
    _, src, dst, card, count = key
    names = list(inst.index)
    for field_, name in (("from", src), ("to", dst)):
        if name not in inst.index:
            raise Bad("unknown-pile", unknown("pile", name, names, f" in layout {inst.game.layout.spec.id}"),
                      ["moves", i, field_])
    return Move(t, inst.index[src], inst.index[dst], _CARD[card] if card is not None else -1, count)


def _form(game: Game) -> str:
    return f" ({'+'.join(sorted(game.variants))})" if game.variants else ""


class Replay:
    """A log being checked, with its raw text, to place problems (line, column) and quote moves as written.

    ``log`` is None when the bytes did not parse; the raw text is decoded only when a problem is reported.
    """

    def __init__(self, log: GameLog | None, name: str, raw: bytes | None = None) -> None:
        self.log, self.name, self.raw = log, name, raw
        self._index: Index | None = None
        self.room = REPORT_SLACK  #: bytes of report text --lenient may still add (:func:`_keep`)
        self.bare_room = 0  #: of which this much is kept for violations without their quoted clause and table

    @property
    def index(self) -> Index | None:
        """Places in the raw text (decoded and indexed once, when a problem is first reported)."""
        if self._index is None and self.raw is not None:
            raw = self.raw[3:] if self.raw[:3] == BOM else self.raw
            self._index = Index(raw.decode("utf-8", errors="replace"))
        return self._index

    def place(self, p: Problem, path: list[str | int]) -> Problem:
        p.path = format_path(path)
        if self.index is not None:
            lc = self.index.locate(path)
            if lc:
                p.line, p.column = lc
        return p

    def written(self, i: int) -> str:
        if self.index is not None:
            w = self.index.as_written(["moves", i])
            if w:
                return w
        import json

        assert self.log is not None
        from replay.log.names import printable_json

        return printable_json(json.dumps(self.log.moves[i].model_dump(by_alias=True, exclude_unset=True),
                                         ensure_ascii=False, separators=(", ", ": ")))


def malformed(name: str, bad: Bad, replay: Replay | None = None, line: int | None = None,
              col: int | None = None) -> Report:
    r = Report(file=name)
    p = Problem(bad.code, bad.message)
    if replay is not None:
        replay.place(p, bad.path)
    else:
        p.path = format_path(bad.path)
        p.line, p.column = line, col
    r.add(p)
    return r


def check_bytes(data: bytes, name: str = "<log>", *, lenient: bool = False, until: int | None = None,
                rulings: Mapping[str, str] | None = None, size: int | None = None) -> Report:
    """The verdict on a log given as bytes (never raises on bad input).

    ``size`` is the file's size when known (``data`` holds at most one byte more than the limit).
    """
    try:
        if len(data) > MAX_BYTES:
            return malformed(name, too_large(size))
        body = data[3:] if data[:3] == BOM else data
        try:
            log = GameLog.model_validate_json(body)
        except ValidationError as err:
            bad, line, col = _from_validation(err, body)
            if line is None:
                return malformed(name, bad, Replay(None, name, data))
            return malformed(name, bad, None, line, col)
        strict = strict_json(body)
        if strict is not None:
            return malformed(name, strict[0], None, strict[1], strict[2])
        return check_log(log, name, data, lenient=lenient, until=until, rulings=rulings)
    except Exception as e:  # noqa: BLE001 - the command line must never show a traceback
        return internal_error(name, e)


def internal_error(name: str, e: BaseException) -> Report:
    r = Report(file=name)
    r.add(Problem("internal-error", f"the validator failed: {type(e).__name__}: {' '.join(str(e).split())[:300]} "
                                    "(please report this with the log)"))
    return r


def check_log(log: GameLog, name: str = "<log>", raw: bytes | None = None, *, lenient: bool = False,
              until: int | None = None, rulings: Mapping[str, str] | None = None) -> Report:
    """The verdict on a parsed log.  ``rulings`` replaces the log's own rulings (for --all-readings)."""
    rp = Replay(log, name, raw)
    rp.room = REPORT_SLACK + REPORT_PER_BYTE * (len(raw) if raw is not None else 60 * len(log.moves))
    rp.bare_room = rp.room // 2
    try:
        inst = instance(log.game, log.variants, log.rulings if rulings is None else rulings)
    except Bad as bad:
        return malformed(name, bad, rp)
    game = inst.game
    report = Report(file=name, game=game.id, variants=sorted(game.variants), rulings=report_rulings(game),
                    moves=len(log.moves), claimed=log.result, until=until, archive=archive(),
                    defaulted=defaults_applied(game.id, report_rulings(game), log.rulings if rulings is None else rulings))
    card = _CARD
    deck = [card[c] for c in log.deck]
    try:
        table = game.new_table(deck)
    except InvalidDeck as e:
        wrong = _deck_problem(game, deck, e)
        report.add(rp.place(Problem(wrong.code, wrong.message), wrong.path))
        return report
    try:
        moves = engine_moves(inst, log)
    except Bad as bad:
        report.add(rp.place(Problem(bad.code, bad.message), bad.path))
        return report
    if until is not None and until < len(moves):
        moves = moves[:until]
    table = _replay(rp, report, table, moves, lenient)
    if report.verdict == "valid" or lenient:
        report.outcome = table.outcome()
        if log.result is not None and (until is None or until >= len(log.moves)) and log.result != report.outcome:
            report.add(rp.place(Problem("false-result", _false_result(log.result, report.outcome, len(moves),
                                                                      table)), ["result"]))
    return report


def report_rulings(game: Game) -> dict[str, str]:
    """Every ruling that applies to the instance, with its reading, in name order (as reports list them)."""
    return dict(sorted(game.rulings.items()))


def _false_result(claimed: str, actual: str, n: int, table: Table | None = None) -> str:
    why = {"won": "every card is on the foundations", "lost": "no legal move is left",
           "unfinished": "legal moves remain"}[actual]
    if actual == "unfinished" and table is not None:
        from replay.engine.common import moves_text

        why = f"legal moves remain: {moves_text(table, table.game.legal_moves(table))}"
    return f"the log claims {claimed!r} but after its {n} moves the game is {actual} ({why})"


def _replay(rp: Replay, report: Report, t: Table, moves: list[Move], lenient: bool) -> Table:
    """Apply the moves; record violations.  Returns the table after the last move replayed."""
    step = t.game.step  # what Table.apply calls, without the extra call per move
    i = 0
    n = len(moves)
    while i < n:
        try:
            for i in range(i, n):
                step(t, moves[i])
            i = n
            break
        except IllegalMove as e:
            wrong = misnamed_card(t, moves[i])
            if wrong:  # the log has drifted from the table: say so first, then what the move would break
                code, reason, clause = "card-mismatch", (f"{wrong}; as written the move would also break "
                                                         f"{e.clause}: {e.reason}"), e.clause
            else:
                code, reason, clause = "illegal-move", e.reason, e.clause
        except MoveMismatch as e:
            code, reason, clause = "card-mismatch", e.one_line(), None
        if lenient and report.omitted:  # past the report's room: counted, not described
            report.omitted += 1
            t, _ = _carry_out(t, moves[i], code == "card-mismatch" and clause is None)
            i += 1
            continue
        p = _violation(rp, t, moves[i], i, code, reason, clause, report)
        if not lenient:
            report.add(p)
            report.replayed = i
            return t
        t, p.carried_out = _carry_out(t, moves[i], p.code == "card-mismatch" and p.clause is None)
        _keep(rp, report, p)
        i += 1
    report.replayed = n
    return t


def _keep(rp: Replay, report: Report, p: Problem) -> None:
    """--lenient: add ``p`` to the report within the report's room (:data:`REPORT_PER_BYTE`): whole while it
    fits, then without its quoted clause, table and snapshot, then only counted (``Report.omitted``, from the
    move ``Report.cut_at`` on), so that a log of many thousand violations cannot make a report of hundreds
    of megabytes.  The verdict is the same either way."""
    size = _size(p)
    if size > rp.room - rp.bare_room:  # the second half of the room is for violations without their texts
        p.diplomatic = p.translation = p.held = None
        p.snapshot = None
        size = _size(p)
        report.details_omitted += 1
    if size > rp.room:
        report.details_omitted -= 1
        report.cut_at, report.omitted = p.move, 1
        if VERDICTS.index(CODES[p.code]) > VERDICTS.index(report.verdict):
            report.verdict = CODES[p.code]
        return
    rp.room -= size
    if p.snapshot is None:
        report.snapshots_omitted += 1
    report.add(p)


def _size(p: Problem) -> int:
    """About how many bytes ``p`` takes in a report, in its JSON (its texts, keys and indentation; a snapshot
    as its JSON); the text report takes less."""
    n = 600 + sum(len(x.encode()) for x in (p.message, p.written, p.diplomatic, p.translation, p.held, p.path) if x)
    if p.snapshot is not None:
        n += len(json.dumps(p.snapshot))
    return n


def _carry_out(t: Table, m: Move, legal_but_misnamed: bool) -> tuple[Table, bool]:
    """--lenient: make the move as recorded when the table allows it physically, else skip it."""
    if legal_but_misnamed:
        t.push(m)
        return t, True
    if m.type == "deal" and not t.piles[t.game.stock]:
        return t, False  # nothing to deal: making it would only count a round that never was
    trial = t.copy()
    try:
        if m.src >= 0 and len(trial.piles[m.src]) < m.count:
            return t, False
        t.game.perform(trial, m)
    except (KeyError, IndexError, ValueError, TypeError):
        return t, False
    return trial, True


def _violation(rp: Replay, t: Table, m: Move, i: int, code: str, reason: str, clause: str | None,
               report: Report) -> Problem:
    p = Problem(code, reason, move=i, clause=clause)
    rp.place(p, ["moves", i])
    p.written = rp.written(i)
    if clause:
        p.diplomatic, p.translation, _, _ = clause_text(clause)
    try:
        p.held = held(t, m)
        if len(report.problems) < MAX_SNAPSHOTS:
            p.snapshot = t.snapshot()
    except Exception:  # noqa: BLE001 - a description must never hide the verdict
        pass
    return p


# --------------------------------------------------------------------------- convenience


def check_file(path: str, *, lenient: bool = False, until: int | None = None,
               rulings: Mapping[str, str] | None = None) -> Report:
    """Read and check one file; unreadable files give an ``io-error`` report."""
    import os
    import stat

    from replay.log.names import shown

    name = shown(path)
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(21, "is a directory")
            data = fh.read(MAX_BYTES + 1)
    except OSError as e:
        r = Report(file=name)
        r.add(Problem("io-error", f"cannot read: {e.strerror or e}"))
        return r
    size = st.st_size if stat.S_ISREG(st.st_mode) and st.st_size > MAX_BYTES else None
    return check_bytes(data, name, lenient=lenient, until=until, rulings=rulings, size=size)


def replay_to(log: GameLog, step: int | None, rulings: Mapping[str, str] | None = None
              ) -> tuple[Instance, Table, int, Report]:
    """Replay ``log`` up to ``step`` moves (all when None), stopping before an illegal move.

    Returns the instance, the table, how many moves were made and the report so far.
    Raises :class:`Bad` when the log is malformed.
    """
    inst = instance(log.game, log.variants, log.rulings if rulings is None else rulings)
    deck = [_CARD[c] for c in log.deck]
    try:
        table = inst.game.new_table(deck)
    except InvalidDeck as e:
        raise _deck_problem(inst.game, deck, e) from None
    moves = engine_moves(inst, log)
    n = len(moves) if step is None else max(0, min(step, len(moves)))
    report = Report(file="", game=inst.game.id, moves=len(moves))
    rp = Replay(log, "")
    _replay(rp, report, table, moves[:n], lenient=False)
    return inst, table, report.replayed, report


__all__ = ["Bad", "Instance", "Report", "Problem", "check_bytes", "check_file", "check_log", "engine_moves", "instance",
           "parse", "replay_to", "ReplayError"]
