"""A log read without pydantic: the reader of the browser's Play page, where pydantic is not.

It takes and refuses what the models of :mod:`replay.log.models` take and refuse, in the same order,
and reports what it refuses in their terms (``type``, ``loc``, ``input``, ``ctx``), so that
:func:`replay.log.wording.first_problem` words it as it words theirs: the same code, place and words
(only a JSON syntax error is worded by Python's parser rather than pydantic's).  The log once read is
replayed by :mod:`replay.log.check`, as ``replay validate`` replays it; a test holds the two readers
to the same verdicts over the example logs and thousands of mutated ones.

:func:`parse` and :func:`check_bytes` are those of :mod:`replay.log.validate`, with this reader.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from replay.log.check import Unreadable, judged, parsed
from replay.log.format import (FORMAT, LOG_FIELDS, LOG_REQUIRED, MAX_CARDS, MAX_COMMENT, MAX_DEPTH, MAX_MOVES,
                               MAX_NAME, META_STRINGS, MOVE_FIELDS, RESULTS)
from replay.log.report import Report
from replay.log.wording import first_problem

_CARD = re.compile(r"[A2-9TJQK][SHDC]")
#: the longest integer Python's int() and pydantic's parser read (``sys.get_int_max_str_digits``)
MAX_DIGITS = 4300


@dataclass(frozen=True)
class PlainStep:
    """A move of a log: its fields (None where it has none) and the entry as the log writes it."""

    type: str
    from_: str | None
    to: str | None
    card: str | None
    count: int
    comment: str | None
    entry: dict[str, Any]


@dataclass(frozen=True)
class PlainLog:
    """A log read by :func:`parse`: the fields of :class:`~replay.log.models.GameLog`, as plain data."""

    format: str
    game: str
    variants: list[str]
    rulings: dict[str, str]
    deck: list[str]
    moves: list[PlainStep]
    result: str | None
    meta: dict[str, Any] | None


def parse(data: bytes) -> PlainLog:
    """A log's bytes as a :class:`PlainLog`; raises :class:`~replay.log.check.Bad` (see the module)."""
    log = parsed(data, read)
    assert isinstance(log, PlainLog)
    return log


def check_bytes(data: bytes, name: str = "<log>", *, lenient: bool = False, until: int | None = None,
                rulings: Mapping[str, str] | None = None, size: int | None = None) -> Report:
    """The verdict on a log given as bytes, as :func:`replay.log.validate.check_bytes` gives it (never raises)."""
    return judged(data, name, read, lenient=lenient, until=until, rulings=rulings, size=size)


def read(body: bytes) -> PlainLog:
    """The log in ``body`` (no byte order mark); raises :class:`~replay.log.check.Unreadable`."""
    value = _json(body)
    errors = _log_errors(value)
    if errors:
        raise Unreadable(*first_problem(errors, body))
    steps = [_step(m) for m in value["moves"]]
    return PlainLog(value["format"], value["game"], list(value["variants"]), dict(value["rulings"]),
                    list(value["deck"]), steps, value.get("result"), value.get("meta"))


def _step(m: dict[str, Any]) -> PlainStep:
    fields = MOVE_FIELDS[m["type"]]
    return PlainStep(m["type"], m.get("from"), m.get("to"), m.get("card"), m.get("count", 1), m.get("comment"),
                     {k: m[k] for k in fields if k in m})


# --------------------------------------------------------------------------- JSON

#: what the text is made of, for finding what Python's parser takes and pydantic's refuses
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}:,]|-?[0-9][0-9.eE+-]*|[A-Za-z]+|-|\S', re.DOTALL)
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)


def _json(body: bytes) -> Any:
    """The JSON value of ``body``; raises :class:`Unreadable` as pydantic's parser would refuse it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(*first_problem([_invalid("invalid UTF-8", 1, 1)], body)) from None
    trouble = _trouble(text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        if trouble is not None and trouble[0] < e.pos:
            raise _unreadable(text, body, trouble) from None
        if e.msg.startswith("Invalid control character"):  # pydantic's parser: just past it, counted from 0
            raise _unreadable(text, body, (e.pos + 1, "control character (\\u0000-\\u001F) found while parsing a "
                                          "string"), after=True) from None
        raise Unreadable(*first_problem([_invalid(e.msg, e.lineno, e.colno)], body)) from None
    except (RecursionError, ValueError):  # nested past Python's own limit, or an integer past int()'s
        if trouble is None:
            raise
        raise _unreadable(text, body, trouble) from None
    if trouble is not None:
        raise _unreadable(text, body, trouble)
    return value


def _invalid(message: str, line: int, column: int) -> dict[str, Any]:
    return {"type": "json_invalid", "loc": (), "input": None, "msg": "Invalid JSON",
            "ctx": {"error": f"{message} at line {line} column {column}"}}


def _unreadable(text: str, body: bytes, trouble: tuple[int, str], after: bool = False) -> Unreadable:
    """The problem at ``offset`` as pydantic's parser places it: the column of the character there (``after``:
    of the one before it, as that parser places a control character it has just read)."""
    offset, message = trouble
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + (0 if after else 1)
    return Unreadable(*first_problem([_invalid(message, line, column)], body))


def _trouble(text: str) -> tuple[int, str] | None:
    """The first place where pydantic's parser refuses what Python's takes: a value nested deeper than its
    limit, an escaped surrogate that is not one of a pair, an integer longer than it reads; with the words
    of pydantic's parser (which :func:`~replay.log.wording.first_problem` rewords)."""
    stack: list[str] = []
    key = False
    for m in _TOKEN.finditer(text):
        tok = m.group()
        c = tok[0]
        if c in "]}":
            if stack:
                stack.pop()
            key = False
            continue
        if c == ",":
            key = bool(stack) and stack[-1] == "{"
            continue
        if c == ":":
            key = False
            continue
        if c == '"' and key:
            lone = _lone_surrogate(tok)
            if lone is not None:
                return m.start() + lone, "lone leading surrogate in hex escape"
            continue
        if len(stack) + 1 > MAX_DEPTH + 1:  # a value (the whole log at depth 1) nested past the limit
            return m.start(), "recursion limit exceeded"
        if c in "[{":
            stack.append(c)
            key = c == "{"
        elif c == '"':
            lone = _lone_surrogate(tok)
            if lone is not None:
                return m.start() + lone, "lone leading surrogate in hex escape"
        elif c in "-0123456789" and tok.lstrip("-").isdigit() and len(tok.lstrip("-")) > MAX_DIGITS:
            return m.start(), "number out of range"
    return None


def _lone_surrogate(token: str) -> int | None:
    """Where in a string token an escaped surrogate stands alone (not a high one followed by a low one)."""
    if "\\u" not in token:
        return None
    escapes = list(_ESCAPE.finditer(token))
    i = 0
    while i < len(escapes):
        e = escapes[i]
        code = int(e.group(1)[1:], 16) if e.group(1)[0] == "u" and len(e.group(1)) == 5 else -1
        if 0xD800 <= code <= 0xDBFF:
            nxt = escapes[i + 1] if i + 1 < len(escapes) else None
            low = int(nxt.group(1)[1:], 16) if nxt and nxt.group(1)[0] == "u" and len(nxt.group(1)) == 5 else -1
            if nxt is not None and nxt.start() == e.end() and 0xDC00 <= low <= 0xDFFF:
                i += 2
                continue
            return e.start()
        if 0xDC00 <= code <= 0xDFFF:
            return e.start()
        i += 1
    return None


# --------------------------------------------------------------------------- the models' checks, in their order

Errors = list[dict[str, Any]]


def _error(errors: Errors, type_: str, loc: tuple[Any, ...], value: Any, msg: str = "", **ctx: Any) -> None:
    errors.append({"type": type_, "loc": loc, "input": value, "msg": msg, "ctx": ctx})


def _log_errors(v: Any) -> Errors:
    """What the models refuse in ``v`` (a log's JSON value), in pydantic's order: each field in the model's
    order (what is inside it in its order), then the unknown keys in the text's."""
    errors: Errors = []
    if not isinstance(v, dict):
        _error(errors, "model_type", (), v)
        return errors
    for name in LOG_FIELDS:
        if name not in v:
            if name in LOG_REQUIRED:
                _error(errors, "missing", (name,), v)
            continue
        x, loc = v[name], (name,)
        if name == "format":
            if x != FORMAT:
                _error(errors, "literal_error", loc, x, expected=repr(FORMAT))
        elif name == "game":
            _name(errors, loc, x)
        elif name == "variants":
            if _is_list(errors, loc, x):
                for i, item in enumerate(x):
                    _name(errors, (*loc, i), item)
        elif name == "rulings":
            if not isinstance(x, dict):
                _error(errors, "dict_type", loc, x)
            else:
                for k, item in x.items():
                    _name(errors, (*loc, k, "[key]"), k)
                    _name(errors, (*loc, k), item)
        elif name == "deck":
            if _is_list(errors, loc, x, MAX_CARDS):
                for i, item in enumerate(x):
                    _card(errors, (*loc, i), item)
        elif name == "moves":
            if _is_list(errors, loc, x, MAX_MOVES):
                for i, item in enumerate(x):
                    _move(errors, (*loc, i), item)
        elif name == "result":
            if x is not None and x not in RESULTS:
                _error(errors, "literal_error", loc, x, expected=", ".join(map(repr, RESULTS[:-1])) +
                       f" or {RESULTS[-1]!r}")
        elif name == "meta" and x is not None:
            if not isinstance(x, dict):
                _error(errors, "model_type", loc, x)
            else:
                for k in META_STRINGS:
                    if k in x and x[k] is not None:
                        _string(errors, (*loc, k), x[k])
    for k, x in v.items():
        if k not in LOG_FIELDS:
            _error(errors, "extra_forbidden", (k,), x)
    return errors


def _move(errors: Errors, loc: tuple[Any, ...], m: Any) -> None:
    if not isinstance(m, dict):
        _error(errors, "model_attributes_type", loc, m)
        return
    if "type" not in m:
        _error(errors, "union_tag_not_found", loc, m)
        return
    t = m["type"]
    if not isinstance(t, str) or t not in MOVE_FIELDS:
        _error(errors, "union_tag_invalid", loc, m, tag=str(t))
        return
    fields = MOVE_FIELDS[t]
    at = (*loc, t)
    for f in fields:
        if f == "type":
            continue
        if f not in m:
            if f in ("from", "to"):
                _error(errors, "missing", (*at, f), m)
            continue
        x = m[f]
        if f == "comment":
            if x is not None:
                _name(errors, (*at, f), x, MAX_COMMENT)
        elif f in ("from", "to"):
            _name(errors, (*at, f), x)
        elif f == "card":
            if x is not None:
                _card(errors, (*at, f), x)
        elif f == "count":
            if isinstance(x, bool) or not isinstance(x, int):
                _error(errors, "int_type", (*at, f), x)
            elif x < 1:
                _error(errors, "greater_than_equal", (*at, f), x, "Input should be greater than or equal to 1", ge=1)
            elif x > MAX_CARDS:
                _error(errors, "less_than_equal", (*at, f), x,
                       f"Input should be less than or equal to {MAX_CARDS}", le=MAX_CARDS)
    for k, x in m.items():
        if k not in fields:
            _error(errors, "extra_forbidden", (*at, k), x)


def _is_list(errors: Errors, loc: tuple[Any, ...], x: Any, longest: int | None = None) -> bool:
    """Whether ``x`` is a list whose items are to be checked (not one, or a list past ``longest``: an error)."""
    if not isinstance(x, list):
        _error(errors, "list_type", loc, x)
        return False
    if longest is not None and len(x) > longest:
        _error(errors, "too_long", loc, x, max_length=longest)
        return False
    return True


def _string(errors: Errors, loc: tuple[Any, ...], x: Any) -> bool:
    if not isinstance(x, str):
        _error(errors, "string_type", loc, x)
        return False
    return True


def _name(errors: Errors, loc: tuple[Any, ...], x: Any, longest: int = MAX_NAME) -> None:
    if not _string(errors, loc, x):
        return
    if not x:
        _error(errors, "string_too_short", loc, x, min_length=1)
    elif len(x) > longest:
        _error(errors, "string_too_long", loc, x, max_length=longest)


def _card(errors: Errors, loc: tuple[Any, ...], x: Any) -> None:
    if _string(errors, loc, x) and not _CARD.fullmatch(x):
        _error(errors, "string_pattern_mismatch", loc, x)


__all__ = ["PlainLog", "PlainStep", "check_bytes", "parse", "read"]
