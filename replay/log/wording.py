"""The words of a malformed log: the first problem a reader of the bytes found, as one line.

Both readers of a log say what they refuse in the same words: the pydantic models of
:mod:`replay.log.validate` (``replay validate``) and the plain reader of :mod:`replay.log.plain` (the
browser), which reports its problems in pydantic's terms (``type``, ``loc``, ``input``, ``ctx``) for
:func:`first_problem` to word.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from replay.engine import cards as C
from replay.engine.errors import UnknownName
from replay.log.check import Bad, _json_type, _short
from replay.log.format import LOG_FIELDS, MAX_COMMENT, MAX_DEPTH, MAX_MOVES, MAX_NAME, MOVE_FIELDS, MOVE_TYPES


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


def _fields(path: list[str | int]) -> list[str]:
    """The keys allowed at ``path`` (for suggesting a misspelt key)."""
    if not path:
        return list(LOG_FIELDS)
    if path[0] == "moves" and len(path) == 2:
        return sorted({f for fields in MOVE_FIELDS.values() for f in fields})
    return []


def first_problem(errors: Sequence[Mapping[str, Any]], data: bytes) -> tuple[Bad, int | None, int | None]:
    """The first of a reader's ``errors`` as a :class:`Bad`, with line and column for JSON syntax errors
    (else None: the place is found from the path), and how many more there are.

    ``errors`` are pydantic's (``ValidationError.errors(include_url=False, include_context=True)``) or
    the plain reader's, which makes the same: ``type``, ``loc``, ``input``, ``msg`` and ``ctx``.
    """
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
        owners = [t for t, f in MOVE_FIELDS.items() if key in f] if mtype and len(loc) == 3 else []
        if owners:
            names = [repr(t) for t in owners]
            both = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            msg = f"{key!r} is not a field of a {mtype!r} move (it belongs to {both})"
        else:
            fields = list(MOVE_FIELDS[mtype]) if mtype and len(loc) == 3 else _fields(loc[:-1])
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


__all__ = ["first_problem"]
