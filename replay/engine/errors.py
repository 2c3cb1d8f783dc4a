"""Typed errors.  Every rule violation carries the ID of the clause it breaks.

All errors derive from :class:`ReplayError` (a ``ValueError``), so a caller
can catch the family or one member, in the manner of python-chess.
"""

from __future__ import annotations


class ReplayError(ValueError):
    """Base of every error this package raises on bad input or illegal play."""

    clause: str | None = None

    def one_line(self) -> str:
        """The error as one line of text, for the command line."""
        return " ".join(str(self).split())


class IllegalMove(ReplayError):
    """A move the rules forbid.  ``clause`` names the clause that forbids it."""

    def __init__(self, clause: str, message: str, move: object = None) -> None:
        super().__init__(f"{message} [{clause}]")
        self.clause = clause
        self.reason = message
        self.move = move


class MoveMismatch(ReplayError):
    """A move whose stated card is not the card actually moved (a log error, not a rule)."""


class CardCodeError(ReplayError):
    """Text that is not a canonical card code."""

    def __init__(self, text: object, hint: str | None) -> None:
        msg = f"{text!r} is not a card code (rank A 2-9 T J Q K, then suit S H D C)"
        if hint:
            msg += f"; did you mean {hint!r}?"
        super().__init__(msg)
        self.text = text
        self.hint = hint


class InvalidDeck(ReplayError):
    """A deck that two packs cannot give (wrong count, a card three times, …)."""


class UnknownName(ReplayError):
    """An unknown game, variant, ruling, reading, pile or move type."""

    def __init__(self, kind: str, value: object, known: list[str]) -> None:
        from difflib import get_close_matches

        msg = f"unknown {kind} {value!r}"
        close = get_close_matches(str(value), known, n=1) if isinstance(value, str) else []
        if close:
            msg += f"; did you mean {close[0]!r}?"
        elif known and len(known) <= 16:
            msg += f" (known: {', '.join(known)})"
        elif not known:
            msg += " (there are none)"
        super().__init__(msg)
        self.kind, self.value, self.known = kind, value, known


class BadCombination(ReplayError):
    """Variants or rulings that make no sense together."""


class MalformedLog(ReplayError):
    """A log that is not valid JSON or does not follow the log format."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.reason = message


class CorpusError(ReplayError):
    """A corpus file that cannot be read or does not follow its schema."""
