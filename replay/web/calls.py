"""What every call of the Play page's Python (:mod:`replay.web.bridge`, :mod:`replay.web.hint`) does with
what the page hands it: JSON text in, JSON text out, and never an exception.

:func:`answers` wraps a call so that whatever it would raise becomes ``{"ok": false, "error": [line]}``;
:func:`json_object`, :func:`text` and :func:`whole` check an argument and raise :class:`Refused` in one
line naming it (a request that is not a JSON object, a lone surrogate, ``1.5`` or ``Infinity`` for a
whole number).  tests/test_web_bridge.py's ``test_no_call_raises_on_a_malformed_argument`` holds every call
to it.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable, TypeVar

from replay.log.check import Bad

F = TypeVar("F", bound=Callable[..., str])


class Refused(ValueError):
    """An argument the page's call cannot take (one line, naming it)."""


def answers(fn: F) -> F:
    """``fn`` answers ``{"ok": false, "error": [line]}`` where it would raise: a :class:`Refused` or
    :class:`~replay.log.check.Bad` in its own words, anything else as the call that failed and why."""

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> str:
        try:
            return fn(*args, **kwargs)
        except Refused as e:
            return error([f"{fn.__name__}: {e}"])
        except Bad as e:  # the log's or the names' problem, in replay's words
            return error([e.message])
        except Exception as e:  # noqa: BLE001 - the page must get an answer, never an exception
            return error([f"{fn.__name__}: the call failed ({type(e).__name__}: {str(e)[:200]})"])

    return call  # type: ignore[return-value]


def json_object(text: Any, what: str) -> dict[str, Any]:
    """The JSON object of ``text``, else :class:`Refused`."""
    if not isinstance(text, str):
        raise Refused(f"the {what} must be JSON text, not {type(text).__name__}")
    try:
        value = json.loads(text)
    except ValueError as e:
        raise Refused(f"the {what} is not JSON: {e}") from None
    if not isinstance(value, dict):
        raise Refused(f"the {what} must be a JSON object, not {type(value).__name__}")
    return value


def text(value: Any, what: str) -> str:
    """``value`` as text a UTF-8 log can hold (None is empty), else :class:`Refused`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refused(f"the {what} must be text, not {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise Refused(f"the {what} holds a lone surrogate (U+{ord(value[e.start]):04X}) at character "
                      f"{e.start + 1}: not text a log can hold") from None
    return value


def whole(value: Any, what: str) -> int:
    """``value`` as a whole number (an int, or a string of digits), else :class:`Refused`."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Refused(f"the {what} must be a whole number, not {value!r}")
    try:
        return int(value)
    except ValueError:
        raise Refused(f"the {what} must be a whole number, not {value!r}") from None


def error(lines: list[str], problem: dict[str, Any] | None = None) -> str:
    """The answer of a call that did nothing: ``{"ok": false, "error": lines, "problem": problem}``."""
    return json.dumps({"ok": False, "error": lines, "problem": problem}, ensure_ascii=False)


__all__ = ["Refused", "answers", "json_object", "text", "whole", "error"]
