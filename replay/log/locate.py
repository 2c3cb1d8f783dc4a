"""Find where a JSON path lies in the text of a log: line, column and the value's own text.

Used only when a problem is reported (never on the fast path).  The scanner follows the
path through objects and arrays, skipping other values without building them; it does not
recurse, so deep nesting cannot overflow the stack.  On text that is not valid JSON it
gives up quietly (returns None).

A log with many problems (``validate --lenient``) is placed through one :class:`Index` per
log: the first question about a move records the offsets of every element of the
``moves`` array in one pass, and line numbers come from the offsets of the newlines,
found once; so placing *n* problems costs one pass over the text plus a little per
problem, not *n* passes.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from typing import Sequence

from replay.log.names import printable_json

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_PLAIN = re.compile(r'[^"\[\]{}]+')  # a run of characters that open or close nothing
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|NaN|-?Infinity")


def _ws(s: str, i: int) -> int:
    return _WS.match(s, i).end()  # type: ignore[union-attr]


def _skip(s: str, i: int) -> int:
    """Index just after the value starting at ``i`` (which must not be whitespace)."""
    if i >= len(s):
        raise ValueError
    c = s[i]
    if c == '"':
        m = _STRING.match(s, i)
        if not m:
            raise ValueError
        return m.end()
    if c in "[{":
        depth = 0
        while i < len(s):
            c = s[i]
            if c == '"':
                m = _STRING.match(s, i)
                if not m:
                    raise ValueError
                i = m.end()
                continue
            if c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            else:
                i = _PLAIN.match(s, i).end()  # type: ignore[union-attr]
                continue
            i += 1
        raise ValueError
    m = _SCALAR.match(s, i)
    if not m:
        raise ValueError
    return m.end()


def span(text: str, path: Sequence[str | int], start: int = 0) -> tuple[int, int] | None:
    """Start and end offsets of the value at ``path`` (keys and indices), or None when not found.

    ``start`` is where the value the path starts from begins (default: the whole text).
    """
    try:
        i = _ws(text, start)
        for part in path:
            if isinstance(part, int):
                if text[i] != "[":
                    return None
                i = _ws(text, i + 1)
                for _ in range(part):
                    if text[i] == "]":
                        return None
                    i = _ws(text, _skip(text, i))
                    if text[i] != ",":
                        return None
                    i = _ws(text, i + 1)
                if text[i] == "]":
                    return None
            else:
                if text[i] != "{":
                    return None
                i = _ws(text, i + 1)
                found = None
                while text[i] != "}":
                    end = _skip(text, i)
                    key = json.loads(text[i:end])
                    i = _ws(text, end)
                    if text[i] != ":":
                        return None
                    i = _ws(text, i + 1)
                    if key == part:
                        found = i  # the last duplicate wins, as in the parser
                    i = _ws(text, _skip(text, i))
                    if text[i] == ",":
                        i = _ws(text, i + 1)
                if found is None:
                    return None
                i = found
        return i, _skip(text, i)
    except (ValueError, IndexError, json.JSONDecodeError):
        return None


def elements(text: str, start: int) -> list[tuple[int, int]] | None:
    """Start and end offsets of every element of the array beginning at ``start``, in one pass."""
    out: list[tuple[int, int]] = []
    try:
        if text[start] != "[":
            return None
        i = _ws(text, start + 1)
        while text[i] != "]":
            end = _skip(text, i)
            out.append((i, end))
            i = _ws(text, end)
            if text[i] == ",":
                i = _ws(text, i + 1)
            elif text[i] != "]":
                return None
        return out
    except (ValueError, IndexError):
        return None


class Index:
    """Places in one log's text, each found once: the ``moves`` elements and the line starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._moves: list[tuple[int, int]] | None = None
        self._moves_done = False
        self._newlines: list[int] | None = None

    def moves(self) -> list[tuple[int, int]] | None:
        if not self._moves_done:
            self._moves_done = True
            top = span(self.text, ["moves"])
            self._moves = elements(self.text, top[0]) if top else None
        return self._moves

    def span(self, path: Sequence[str | int]) -> tuple[int, int] | None:
        """As :func:`span`; a path into the moves starts from the recorded element."""
        if len(path) >= 2 and path[0] == "moves" and isinstance(path[1], int):
            moves = self.moves()
            if moves is not None:
                k = path[1]
                if not 0 <= k < len(moves):
                    return None
                if len(path) == 2:
                    return moves[k]
                return span(self.text, path[2:], moves[k][0])
        return span(self.text, path)

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        k = bisect_left(self._newlines, offset)  # newlines before offset
        return k + 1, offset - (self._newlines[k - 1] + 1 if k else 0) + 1

    def locate(self, path: Sequence[str | int]) -> tuple[int, int] | None:
        sp = self.span(path)
        return self.line_col(sp[0]) if sp else None

    def as_written(self, path: Sequence[str | int]) -> str | None:
        return _written(self.text, self.span(path))


def _written(text: str, sp: tuple[int, int] | None) -> str | None:
    if not sp:
        return None
    try:
        return printable_json(json.dumps(json.loads(text[sp[0]:sp[1]]), ensure_ascii=False, separators=(", ", ": ")))
    except (ValueError, RecursionError):
        return printable_json(" ".join(text[sp[0]:sp[1]].split()))


def format_path(path: Sequence[str | int]) -> str:
    """A JSON path in the usual notation: ``$.moves[5].from``."""
    out = "$"
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += f".{p}"
        else:
            out += "[" + printable_json(json.dumps(p, ensure_ascii=False)) + "]"
    return out


def move_ref(i: int) -> str:
    """The move at index ``i`` of the log as every command names it: ``move 9 ($.moves[8])``.

    One numbering everywhere (docs/log-format.md, "Numbering moves"): moves are counted from 1, as
    ``--step N`` and ``--until N`` count the moves made and a position is the table after its move;
    the JSON path beside it is the log's own index, from 0.
    """
    return f"move {i + 1} ({format_path(['moves', i])})"


_TOKEN = re.compile(r'[ \t\r\n]*(?:("(?:[^"\\]|\\.)*")|([{}\[\]:,])|'
                    r'(-?Infinity|NaN|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))', re.S)


def not_strict(text: str) -> tuple[str, str, int, list[str | int]] | None:
    """The first thing in ``text`` that a lax parser takes but RFC 8259 JSON does not have.

    Returns ``(kind, token, offset, path)``: kind ``duplicate`` (a key given twice in one object;
    token is the key, quoted), ``constant`` (``NaN``, ``Infinity``, ``-Infinity``) or ``overflow``
    (a number beyond a double, ``1e999``); or None.  One pass, no recursion.
    """
    stack: list[list] = []  # [keys seen, current key, expecting a key] for an object; [index] for an array

    def path() -> list[str | int]:
        out: list[str | int] = []
        for f in stack:
            if len(f) == 1:
                out.append(f[0])
            elif f[1] is not None:
                out.append(f[1])
        return out

    pos, n = 0, len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        pos = m.end()
        string, punct, scalar = m.group(1), m.group(2), m.group(3)
        top = stack[-1] if stack else None
        if string is not None:
            if top is not None and len(top) == 3 and top[2]:
                try:
                    key = json.loads(string)
                except ValueError:
                    return None
                if key in top[0]:  # path() ends with the object's previous key
                    return "duplicate", json.dumps(key, ensure_ascii=False), m.start(1), path()[:-1] + [key]
                top[0].add(key)
                top[1], top[2] = key, False
        elif punct == "{":
            stack.append([set(), None, True])
        elif punct == "[":
            stack.append([0])
        elif punct is not None and punct in "}]":
            if not stack:
                return None
            stack.pop()
            if not stack:
                return None
        elif punct == ",":
            if top is None:
                return None
            if len(top) == 3:
                top[2] = True
            else:
                top[0] += 1
        elif scalar is not None:
            if scalar in ("NaN", "Infinity", "-Infinity"):
                return "constant", scalar, m.start(3), path()
            if scalar[0] in "-0123456789" and any(c in scalar for c in ".eE"):
                if float(scalar) in (float("inf"), float("-inf")):
                    return "overflow", scalar, m.start(3), path()
    return None
