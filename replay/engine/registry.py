"""The clause registry: which function implements which clause.

A rule function declares its clauses with a decorator::

    @rule("zk-8")
    def side_piles_play_only_to_their_row(table, move): ...

The decorator records the function (dotted name, source file and lines: found when the
registry is first read) and returns it unchanged, so a rule costs nothing extra when it runs.  The
validator reads the clause from the function when a move breaks it; the site,
``replay trace`` and ``replay coverage`` read the same records.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal, TypeVar

F = TypeVar("F", bound=Callable[..., object])
Kind = Literal["rule", "effect", "setup", "procedure"]

_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Implementation:
    """One function and the clauses it implements."""

    name: str  #: dotted name, e.g. ``replay.games.<module>.<function>``
    clauses: tuple[str, ...]
    kind: Kind
    file: str  #: path relative to the project root
    line: int
    end_line: int
    summary: str  #: first line of the docstring

    @property
    def module(self) -> str:
        return self.name.rsplit(".", 1)[0]


@dataclass(frozen=True)
class Excuse:
    """A normative clause deliberately left without an implementing function, and why."""

    clause: str
    reason: str
    module: str


_REGISTRY: dict[str, Implementation] = {}
#: decorated functions not yet recorded in _REGISTRY (see _settle), in the order they were decorated
_PENDING: list[tuple[Callable[..., object], tuple[str, ...], Kind]] = []
_EXCUSES: dict[str, Excuse] = {}


def _lines(fn: Callable[..., object]) -> tuple[int, int]:
    """The first line of a function (its first decorator) and its last line of code.

    Read from the code object, as ``inspect.getsourcelines`` would find them without reading
    and tokenizing the source file (which costs the start-up of every command that loads a game).
    """
    code = fn.__code__
    end = code.co_firstlineno
    stack = [code]
    while stack:
        c = stack.pop()
        end = max([end, *(p[1] for p in c.co_positions() if p[1] is not None)])
        stack.extend(k for k in c.co_consts if isinstance(k, type(code)))
    return code.co_firstlineno, end


_FILES: dict[str, str] = {}


def _file_of(fn: Callable[..., object]) -> str:
    """The source file of ``fn``, relative to the project root when it lies below it; found once per module's
    file (every rule of a game module is in one file, and resolving a path asks the file system)."""
    compiled_as = fn.__code__.co_filename
    rel = _FILES.get(compiled_as)
    if rel is None:
        src = inspect.getsourcefile(fn) or "?"
        try:
            rel = str(Path(src).resolve().relative_to(_ROOT))
        except ValueError:
            rel = src
        _FILES[compiled_as] = rel
    return rel


def implements(*clauses: str, kind: Kind = "rule") -> Callable[[F], F]:
    """Record that the decorated function implements ``clauses`` (the first is cited on violation)."""
    if not clauses:
        raise TypeError("implements() needs at least one clause ID")

    def decorate(fn: F) -> F:
        _PENDING.append((fn, tuple(clauses), kind))
        fn.clause = clauses[0]  # type: ignore[attr-defined]
        fn.clauses = tuple(clauses)  # type: ignore[attr-defined]
        return fn

    return decorate


def _settle() -> dict[str, Implementation]:
    """The registry, with the functions decorated since it was last read recorded in it (their file, lines and
    summary are found only when someone reads them: a command that plays a game never does)."""
    while _PENDING:
        fn, clauses, kind = _PENDING.pop(0)
        start, end = _lines(fn)
        name = f"{fn.__module__}.{fn.__qualname__}"
        doc = inspect.getdoc(fn) or ""
        _REGISTRY[name] = Implementation(
            name=name, clauses=clauses, kind=kind, file=_file_of(fn), line=start,
            end_line=end, summary=doc.splitlines()[0] if doc else "",
        )
    return _REGISTRY


def rule(*clauses: str, table_wide: bool = False, per_source: bool = False,
         per_target: bool = False, accepts: Callable[..., object] | None = None) -> Callable[[F], F]:
    """A legality check: ``(table, move) -> None`` when allowed, else the reason as a string.

    ``table_wide=True`` declares that the verdict depends only on the table and the move's type,
    never on which piles or cards it names (e.g. "no deal from an empty stock"); the legal-move
    search then asks it once per kind of move instead of once per candidate.  ``per_source=True``
    declares that it depends only on the table, the move's type, its source and its count, never on
    its target (e.g. "only the top card is playable"); the search asks it once per source.
    ``per_target=True``: only on the table, the move's type and its target, never its source or
    count (e.g. "freed places are not refilled"); the search asks it once per target.
    ``accepts=f`` names a function ``f(table, target) -> cards or None`` with every card the rule
    could let a single card bring onto that target (None: it does not look at the card); the
    search then offers a target only the cards it accepts, and still asks the rule itself.
    """
    def decorate(fn: F) -> F:
        fn.table_wide = table_wide  # type: ignore[attr-defined]
        fn.per_source = per_source  # type: ignore[attr-defined]
        fn.per_target = per_target  # type: ignore[attr-defined]
        fn.accepts = accepts  # type: ignore[attr-defined]
        return implements(*clauses, kind="rule")(fn)

    return decorate


def effect(*clauses: str) -> Callable[[F], F]:
    """Something the rules make happen after a move (a refill, a deal)."""
    return implements(*clauses, kind="effect")


def procedure(*clauses: str) -> Callable[[F], F]:
    """A setup or dealing procedure (how the table is laid out)."""
    return implements(*clauses, kind="procedure")


def excuse(clause: str, reason: str, module: str) -> None:
    """Declare that ``clause`` is deliberately not implemented by any function, and why."""
    _EXCUSES[clause] = Excuse(clause, reason, module)


def implementations() -> dict[str, Implementation]:
    """Every registered function by dotted name (import :mod:`replay.games` first)."""
    return dict(_settle())


def excuses() -> dict[str, Excuse]:
    return dict(_EXCUSES)


def by_clause() -> dict[str, list[Implementation]]:
    """Clause ID -> the functions that implement it, in registration order."""
    out: dict[str, list[Implementation]] = {}
    for impl in _settle().values():
        for c in impl.clauses:
            out.setdefault(c, []).append(impl)
    return out
