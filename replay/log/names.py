"""File names as the reports show them: as they are, unless they cannot be shown as they are.

A POSIX file name is bytes.  Python hands over one that is not valid UTF-8 with each bad byte
as a lone surrogate (``os.fsdecode``), which a UTF-8 terminal or a JSON report cannot hold.
Such a name, or one holding a control character (a newline would split a report line), is
shown as git shows it (``core.quotePath``): in double quotes, each bad byte or control
character as a backslash escape (``\\t``, ``\\n``, ``\\r``, …, else three octal digits),
``"`` and ``\\`` backslashed.  ``ok\\xff.json`` (the bytes ``o k 0xff . j s o n``) is shown
``"ok\\377.json"``, in text and in JSON reports alike (where it is an ordinary string).
Every other name, UTF-8 letters of any script included, is shown unchanged.
"""

from __future__ import annotations

import os
import re

_PLAIN = re.compile(r"[^\x00-\x1f\x7f\udc80-\udcff]*\Z")
_NAMED = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f", 0x0D: "\\r",
          0x22: '\\"', 0x5C: "\\\\"}


def shown(name: str) -> str:
    """``name`` as reports show it (see the module docstring)."""
    if _PLAIN.match(name):
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
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def shown_path(path: str | os.PathLike[str]) -> str:
    return shown(os.fspath(path))


__all__ = ["shown", "shown_path"]
