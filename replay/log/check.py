"""A parsed log replayed against the rules: the verdict, and at the first illegal move the clause it breaks.

This is the part of :mod:`replay.log.validate` that needs no pydantic: it takes the log once read,
as any record with the log's fields (``game``, ``variants``, ``rulings``, ``deck``, ``moves`` whose
entries have ``type``, ``from_``, ``to``, ``card`` and ``count``, ``result``): the models'
:class:`~replay.log.models.GameLog` (``replay validate``) or the plain reader's
:class:`~replay.log.plain.PlainLog` (the browser, where pydantic is not).  Both readers end here, so
a log gets the same verdict, worded the same way, whichever read it.

Game instances and the engine moves of known log entries are cached per process,
so validating many logs of one game costs little more than replaying their moves.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from replay.engine import cards as C
from replay.engine.errors import BadCombination, IllegalMove, InvalidDeck, MoveMismatch, UnknownName
from replay.engine.game import Game, Move, Table, misnamed_card
from replay.log.describe import archive, clause_text, defaults_applied, held
from replay.log.fast import accepted
from replay.log.format import MAX_BYTES
from replay.log.report import CODES, VERDICTS, Problem, Report

if TYPE_CHECKING:
    from replay.log.locate import Index



class Parsed(Protocol):
    """A parsed log: the models' :class:`~replay.log.models.GameLog` (``replay validate``) or the plain
    reader's :class:`~replay.log.plain.PlainLog` (the browser); its moves have ``type``, ``from_``, ``to``,
    ``card`` and ``count`` as their type has them."""

    @property
    def game(self) -> str: ...
    @property
    def variants(self) -> list[str]: ...
    @property
    def rulings(self) -> dict[str, str]: ...
    @property
    def deck(self) -> list[str]: ...
    @property
    def moves(self) -> Sequence[Any]: ...
    @property
    def result(self) -> str | None: ...

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


def _deck_problem(game: Game, deck: list[int], e: InvalidDeck, given: Mapping[str, str] | None = None) -> Bad:
    """Point at the offending card where there is one: the first extra copy of a card, in dealing order.  A deck
    of the wrong size that an earlier default of a ruling the log leaves out (``given``: the log's rulings) deals
    is said to be one, in the same line (a log of an older archive)."""
    want = game.expected_deck()
    if given is not None and len(deck) != sum(want.values()):
        older = _older_default_deals(game, given, len(deck))
        if older:
            return Bad("invalid-deck", older, ["deck"])
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


def _older_default_deals(game: Game, given: Mapping[str, str], size: int) -> str | None:
    """``the deck has 104 cards, as foundations=aces-and-kings deals, the default before 0.2.0; …``: the first
    ruling the log leaves out whose reading before the present default deals a deck of ``size`` (the edition's
    record of changes, corpus/changes.yaml), or None."""
    from replay.corpus.edition import default_edition

    edition = default_edition()
    now = sum(game.expected_deck().values())
    for name, reading in sorted(game.rulings.items()):
        h = None if name in given else edition.history_of(game.id, name)
        if h is None:
            continue
        before = [(x.reading, x.until) for x in reversed(h.earlier_defaults)]
        if h.before is not None and h.before != reading:
            before.append((h.before, h.introduced))
        for old, until in before:
            try:
                then = instance(game.id, sorted(game.variants), {**given, name: old}).game
            except Bad:
                continue
            if sum(then.expected_deck().values()) == size:
                return (f"the deck has {size} cards, as {name}={old} deals, the default before {until}; the default "
                        f"now, {reading}, deals {now}: a log of an older archive names its reading in its rulings "
                        f"(\"{name}\": \"{old}\")")
    return None


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


def engine_moves(inst: Instance, log: Parsed) -> list[Move]:
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
            key = (t, s.from_, s.to, s.card, s.count)
        else:
            key = (t, s.from_, s.to, s.card, 1)
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

    def __init__(self, log: Parsed | None, name: str, raw: bytes | None = None) -> None:
        self.log, self.name, self.raw = log, name, raw
        self._index: Index | None = None
        self.room = REPORT_SLACK  #: bytes of report text --lenient may still add (:func:`_keep`)
        self.bare_room = 0  #: of which this much is kept for violations without their quoted clause and table

    @property
    def index(self) -> Index | None:
        """Places in the raw text (decoded and indexed once, when a problem is first reported)."""
        if self._index is None and self.raw is not None:
            from replay.log.locate import Index  # places are found only for a problem

            raw = self.raw[3:] if self.raw[:3] == BOM else self.raw
            self._index = Index(raw.decode("utf-8", errors="replace"))
        return self._index

    def place(self, p: Problem, path: list[str | int]) -> Problem:
        from replay.log.locate import format_path

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
        assert self.log is not None
        from replay.log.names import printable_json

        return printable_json(json.dumps(entry_of(self.log.moves[i]), ensure_ascii=False, separators=(", ", ": ")))


def entry_of(step: Any) -> dict[str, Any]:
    """A move of a parsed log as the log writes it: the fields a model was given, by their JSON names (a
    plain reader's entry is that already)."""
    dump = getattr(step, "model_dump", None)
    return dump(by_alias=True, exclude_unset=True) if dump is not None else dict(step.entry)


def malformed(name: str, bad: Bad, replay: Replay | None = None, line: int | None = None,
              col: int | None = None) -> Report:
    r = Report(file=name)
    p = Problem(bad.code, bad.message)
    if replay is not None:
        replay.place(p, bad.path)
    else:
        from replay.log.locate import format_path

        p.path = format_path(bad.path)
        p.line, p.column = line, col
    r.add(p)
    return r


class Unreadable(Exception):
    """Bytes a reader could not take as a log: the first problem, with its line and column when it is one of
    JSON syntax (else None: the place is found from the problem's path in the text)."""

    def __init__(self, bad: Bad, line: int | None = None, column: int | None = None) -> None:
        super().__init__(bad.message)
        self.bad, self.line, self.column = bad, line, column


#: a reader: a log's bytes (no byte order mark) as a parsed log, or :class:`Unreadable`
Reader = Callable[[bytes], Parsed]
#: how many keys a reader's parsed log holds, counted over all its objects (each object's distinct keys);
#: None when the log holds a value the count cannot vouch for (see :func:`strict_unless_counted`)
KeyCount = Callable[[Parsed], "int | None"]


def strict_unless_counted(body: bytes, log: Parsed, keys: KeyCount | None) -> tuple[Bad, int | None, int | None] | None:
    """:func:`strict_json` of ``body``, or None without that second parse when the keys of the parsed log
    show that it would find nothing.

    Every colon of a JSON text outside its strings stands between a key and its value, so a text has at
    least as many colons as keys, and more when a key is given twice in one object (the reader keeps one)
    or a string holds a colon.  ``keys(log)`` counts the distinct keys of each object the reader kept, at
    most the keys of the text: when the text's colons are exactly that many, no object gives a key twice.
    ``NaN``, ``Infinity`` and a number past a double can only reach a parsed log as a float (every other
    value the models take is a string, an integer, a boolean or a list or object of those), and a reader's
    count declines a float (None).  Whenever the count does not vouch for the text, it is parsed again.
    """
    if keys is not None:
        held = keys(log)
        if held is not None and body.count(b":") == held:
            return None
    return strict_json(body)


def parsed(data: bytes, read: Reader, keys: KeyCount | None = None) -> Parsed:
    """``data`` read by ``read`` and checked as strict JSON; raises :class:`Bad`."""
    if len(data) > MAX_BYTES:
        raise too_large()
    if data[:3] == BOM:
        data = data[3:]
    try:
        log = read(data)
    except Unreadable as u:
        raise u.bad from None
    strict = strict_unless_counted(data, log, keys)
    if strict is not None:
        raise strict[0]
    return log


def judged(data: bytes, name: str, read: Reader, *, lenient: bool = False, until: int | None = None,
           rulings: Mapping[str, str] | None = None, size: int | None = None, keys: KeyCount | None = None) -> Report:
    """The verdict on a log given as bytes, read by ``read`` (never raises on bad input).

    ``size`` is the file's size when known (``data`` holds at most one byte more than the limit); ``keys``
    counts the keys of what ``read`` returns, sparing the second parse of :func:`strict_unless_counted`.
    """
    try:
        if len(data) > MAX_BYTES:
            return malformed(name, too_large(size))
        body = data[3:] if data[:3] == BOM else data
        try:
            log = read(body)
        except Unreadable as u:
            if u.line is None:
                return malformed(name, u.bad, Replay(None, name, data))
            return malformed(name, u.bad, None, u.line, u.column)
        strict = strict_unless_counted(body, log, keys)
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



def check_log(log: Parsed, name: str = "<log>", raw: bytes | None = None, *, lenient: bool = False,
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
        wrong = _deck_problem(game, deck, e, log.rulings if rulings is None else rulings)
        report.add(rp.place(Problem(wrong.code, wrong.message), wrong.path))
        return report
    try:
        moves = engine_moves(inst, log)
    except Bad as bad:
        report.add(rp.place(Problem(bad.code, bad.message), bad.path))
        return report
    if until is not None and until < len(moves):
        moves = moves[:until]
    claim = log.result if until is None or until >= len(log.moves) else None  # the result claim to check
    outcome = accepted(game, table, moves)  # the fast core's acceptance (replay.log.fast), or None
    if outcome is not None and claim in (None, outcome):
        report.replayed = len(moves)
        report.outcome = outcome
        return report
    table = _replay(rp, report, table, moves, lenient)
    if report.verdict == "valid" or lenient:
        report.outcome = table.outcome()
        if claim is not None and claim != report.outcome:
            report.add(rp.place(Problem("false-result", _false_result(claim, report.outcome, len(moves),
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


def replay_to(log: Parsed, step: int | None, rulings: Mapping[str, str] | None = None
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
        raise _deck_problem(inst.game, deck, e, log.rulings if rulings is None else rulings) from None
    moves = engine_moves(inst, log)
    n = len(moves) if step is None else max(0, min(step, len(moves)))
    report = Report(file="", game=inst.game.id, moves=len(moves))
    rp = Replay(log, "")
    _replay(rp, report, table, moves[:n], lenient=False)
    return inst, table, report.replayed, report



__all__ = ["BOM", "Bad", "Instance", "KeyCount", "MAX_SNAPSHOTS", "Parsed", "REPORT_PER_BYTE", "REPORT_SLACK", "Reader", "Replay",
           "Unreadable", "check_log", "engine_moves", "entry_of", "instance", "internal_error", "judged", "malformed",
           "parsed", "replay_to", "strict_json", "strict_unless_counted", "too_large", "unknown"]
