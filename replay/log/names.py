"""File names as the reports show them: as they are, unless they cannot be shown as they are.

A POSIX file name is bytes.  Python hands over one that is not valid UTF-8 with each bad byte
as a lone surrogate (``os.fsdecode``), which a UTF-8 terminal or a JSON report cannot hold.
Such a name, or one holding a control character (a newline would split a report line), is
shown as git shows it (``core.quotePath``): in double quotes, each bad byte or control
character as a backslash escape (``\\t``, ``\\n``, ``\\r``, …, else three octal digits),
``"`` and ``\\`` backslashed.  ``ok\\xff.json`` (the bytes ``o k 0xff . j s o n``) is shown
``"ok\\377.json"``, in text and in JSON reports alike (where it is an ordinary string).
A character a terminal does not print as itself (:data:`_UNPRINTABLE`, as comments and the fields of
a log are escaped: the C1 controls, U+009B a one-byte CSI; the bidirectional overrides, U+202E
reversing what follows; zero-width characters …) quotes the name too and is shown as ``\\uXXXX``
(``\\UXXXXXXXX`` past the basic plane).
Every other name, UTF-8 letters of any script included, is shown unchanged.
"""

from __future__ import annotations

import os
import re

#: characters a terminal does not print as themselves, beyond the C0 controls JSON already escapes: DEL and
#: the C1 controls (U+009B is a one-byte CSI on many terminals), soft hyphen, the bidirectional marks,
#: embeddings, overrides and isolates (U+202E turns "txt.exe" into "exe.txt"), zero-width characters, the
#: line and paragraph separators, interlinear annotation, lone surrogates and the tag characters
_UNPRINTABLE = re.compile("[\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
                          "\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f]")
#: what makes a name quoted: a C0 control, an undecodable byte, or one of those
_QUOTED = re.compile(f"[\\x00-\\x1f\\udc80-\\udcff]|{_UNPRINTABLE.pattern}")
_NAMED = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f", 0x0D: "\\r",
          0x22: '\\"', 0x5C: "\\\\"}


def shown(name: str) -> str:
    """``name`` as reports show it (see the module docstring)."""
    if not _QUOTED.search(name):
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, as os.fsdecode carries it
            out.append(f"\\{code - 0xDC00:03o}")
        elif code in _NAMED:
            out.append(_NAMED[code])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\{code:03o}")
        elif _UNPRINTABLE.match(ch):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def shown_path(path: str | os.PathLike[str]) -> str:
    return shown(os.fspath(path))


def printable_json(text: str) -> str:
    """JSON text made by ``json.dumps(..., ensure_ascii=False)`` with every such character written as a
    ``\\uXXXX`` escape: the same JSON value, safe to print on a terminal (a comment cannot move the
    cursor, recolour the screen or reverse the words after it).  Such characters occur only inside JSON
    strings, where the escape means the same character."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if code > 0xFFFF:  # outside the basic plane: a surrogate pair, as JSON writes it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


__all__ = ["shown", "shown_path", "printable_json"]
