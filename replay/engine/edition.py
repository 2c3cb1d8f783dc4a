"""An edition: what the engine, the games and their messages take from the corpus, as plain data.

The corpus (``corpus/``, YAML read through pydantic models by :mod:`replay.corpus.loader`) is the
archive; an :class:`Edition` is the part of it that playing needs, in frozen dataclasses with no
dependency: where every pile of every layout lies (:class:`LayoutPlan`), the rulings the ambiguity
register defines (:class:`~replay.engine.rulings.Ruling`), the clause texts a refusal quotes
(:class:`ClauseText`), the facts of each game (:class:`GameFacts`), and the archive's version with
each ruling's recorded history (:class:`RulingHistory`, from ``corpus/changes.yaml``), which a
report names for the rulings a log leaves out.  The engine and the games
import nothing else of the corpus, so they run where pydantic and PyYAML do not (a browser).

:func:`replay.corpus.edition.edition_of` makes one from a corpus; :meth:`Edition.to_json` and
:meth:`Edition.from_json` keep one as plain JSON (``"format": "replay-edition/1"``), read strictly:
an unknown key, a missing key or a value of the wrong type is a
:class:`~replay.engine.errors.CorpusError` naming its place.  :func:`use` installs one for the whole
process (the games then take it instead of the default corpus's).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Union

from replay.engine.errors import CorpusError, UnknownName
from replay.engine.rulings import Ruling

FORMAT = "replay-edition/1"


@dataclass(frozen=True)
class PilePlan:
    """A pile of a layout: its name, its place on the grid, its role, what the text calls it."""

    name: str
    row: float
    col: float
    role: str  #: tableau, stock, waste or reserve
    label: str | None


@dataclass(frozen=True)
class FoundationPlan:
    """A foundation of a layout: its name, its place on the grid and its base (A builds up, K down)."""

    name: str
    row: float
    col: float
    base: str


@dataclass(frozen=True)
class LayoutPlan:
    """A reconstruction of a table: where every pile and foundation lies, and the orders of dealing.

    Rows and columns are grid coordinates; "same row", "same column", "adjacent" and "corner" are
    computed from them (:class:`replay.engine.layout.Layout`), never listed.
    """

    id: str
    game: str
    title: str
    description: str
    reading: str | None  #: the ruling reading that selects this layout
    piles: tuple[PilePlan, ...]
    foundations: tuple[FoundationPlan, ...]
    arrangements: Mapping[str, Mapping[str, str]]  #: named suit arrangements: foundation -> suit
    deal: tuple[str, ...]  #: the order in which the first round is dealt
    later_deal: tuple[str, ...] | None  #: the order of later rounds (None: ``deal``)
    gather: tuple[str, ...] | None  #: the order in which piles are gathered (None: ``deal``)


@dataclass(frozen=True)
class ClauseText:
    """A clause as a message quotes it: its diplomatic text (``original``), translation and layers."""

    id: str
    game: str
    language: str  #: the source's language (pl, ru)
    original: str  #: the diplomatic text: the verbatim with its recorded repairs
    translation: str
    verbatim: str
    normalized: str | None  #: the modern spelling (the Russian text only)


@dataclass(frozen=True)
class VariantFacts:
    id: str
    title: str


@dataclass(frozen=True)
class GameFacts:
    """What the corpus says of a game besides its rules: its titles, its text, its variants."""

    id: str
    title: str
    original_title: str | None
    text: str  #: the ID of the source text
    summary: str
    variants: tuple[VariantFacts, ...]


@dataclass(frozen=True)
class RulingHistory:
    """A ruling's history, as ``corpus/changes.yaml`` records it: what ``replay validate`` says of a ruling a
    log leaves out (since which version its default holds, and what an older archive read)."""

    introduced: str  #: the version that introduced the ruling
    before: str | None  #: the reading played before the ruling existed (None: a ruling of the first edition)
    default_since: str  #: the version since which its default is the default
    default_since_commit: str | None  #: the commit where the record has it, where known
    earlier_defaults: tuple[EarlierDefault, ...]  #: oldest first


@dataclass(frozen=True)
class EarlierDefault:
    """A reading that was a ruling's default, and the version in which it stopped being it."""

    reading: str
    until: str


@dataclass(frozen=True, eq=False)
class Edition:
    """Everything the engine, the games and their messages read of the corpus (see the module)."""

    games: Mapping[str, GameFacts]
    layouts: Mapping[str, LayoutPlan]
    rulings: Mapping[str, Mapping[str, Ruling]]  #: game ID -> ruling name -> ruling
    clauses: Mapping[str, ClauseText]
    #: the version of the archive (the newest in ``corpus/changes.yaml``; None without the record)
    archive: str | None = None
    #: game ID -> ruling name -> its recorded history (``corpus/changes.yaml``)
    history: Mapping[str, Mapping[str, RulingHistory]] = dataclasses.field(default_factory=dict)

    def layout(self, game: str, reading: str | None = None) -> LayoutPlan:
        """The first layout of ``game`` (in the corpus's order) that ``reading`` selects (None: the game's first)."""
        for plan in self.layouts.values():
            if plan.game == game and (reading is None or plan.reading == reading):
                return plan
        known = [p.id for p in self.layouts.values() if p.game == game]
        raise UnknownName(f"layout of {game}" + (f" for the reading {reading!r}" if reading else ""),
                          reading or game, known)

    def rulings_of(self, game: str) -> dict[str, Ruling]:
        """The rulings of ``game`` by name, in the register's order (empty when it has none)."""
        return dict(self.rulings.get(game, {}))

    def history_of(self, game: str, ruling: str) -> RulingHistory | None:
        """The recorded history of a ruling of ``game`` (None: the record of changes does not have it)."""
        return self.history.get(game, {}).get(ruling)

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The edition as plain JSON data (``json.dumps`` writes it), which :meth:`from_json` reads back."""
        return {"format": FORMAT, **{f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}}

    @classmethod
    def from_json(cls, data: Any, where: str = "edition") -> Edition:
        """The edition in ``data`` (as :meth:`to_json` writes it), read strictly.

        Raises :class:`CorpusError`, one line naming the place (``edition.layouts.zk-base.piles[2].row``)
        and what is wrong there, for an unknown or a missing key, or a value of the wrong type.
        """
        if not isinstance(data, dict):
            raise CorpusError(f"{where}: expected an object, not {_kind(data)}")
        if data.get("format") != FORMAT:
            raise CorpusError(f"{where}.format: expected {FORMAT!r}, not {data.get('format')!r}")
        edition = _read(cls, {k: v for k, v in data.items() if k != "format"}, where)
        for name in ("games", "layouts", "clauses"):
            for key, item in getattr(edition, name).items():
                if item.id != key:
                    raise CorpusError(f"{where}.{name}.{key}.id: {item.id!r} is filed under {key!r}")
        for game, rulings in edition.rulings.items():
            for key, r in rulings.items():
                if r.name != key:
                    raise CorpusError(f"{where}.rulings.{game}.{key}.name: {r.name!r} is filed under {key!r}")
        return edition


# --------------------------------------------------------------------------- the installed edition

_INSTALLED: list[Edition] = []


def use(edition: Edition | None) -> None:
    """Install ``edition`` for this process: the games (and their messages) take it from now on,
    instead of the default corpus's (None: uninstall it)."""
    _INSTALLED[:] = [edition] if edition is not None else []


def installed() -> Edition | None:
    """The edition :func:`use` installed, or None."""
    return _INSTALLED[0] if _INSTALLED else None


# --------------------------------------------------------------------------- reading and writing


def _plain(value: Any) -> Any:
    """A dataclass, mapping or tuple as JSON data (dicts, lists, strings, numbers, None)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def _read(annotation: Any, value: Any, where: str) -> Any:
    """``value`` read as ``annotation`` (a dataclass, ``str``, ``float``, ``X | None``, ``tuple[X, ...]``,
    ``Mapping[str, X]``), strictly."""
    return _reader(annotation)(value, where)


#: where a value lies: the name of the whole, or (where its container lies, its key or index); made into
#: words (:func:`_at`) only for a refusal, since every start of a command reads the cached edition
Where = Union[str, tuple[Any, Union[str, int]]]


def _at(where: Where) -> str:
    """``edition.layouts.zk-base.piles[2].row`` for the place ``where``."""
    steps: list[str] = []
    while isinstance(where, tuple):
        where, step = where
        steps.append(f"[{step}]" if isinstance(step, int) else f".{step}")
    return where + "".join(reversed(steps))


_READERS: dict[Any, Callable[[Any, Where], Any]] = {}


def _reader(annotation: Any) -> Callable[[Any, Where], Any]:
    """The function that reads a value of ``annotation`` (made once per type)."""
    if annotation in _READERS:
        return _READERS[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    read: Callable[[Any, Where], Any]
    if dataclasses.is_dataclass(annotation):
        read = _record(annotation)
    elif origin is typing.Union or origin is types.UnionType:
        (inner,) = [a for a in args if a is not type(None)]
        each = _reader(inner)

        def read(v: Any, where: Where) -> Any:
            return None if v is None else each(v, where)
    elif origin is tuple:
        each = _reader(args[0])

        def read(v: Any, where: Where) -> Any:
            if not isinstance(v, list):
                raise CorpusError(f"{_at(where)}: expected a list, not {_kind(v)}")
            return tuple([each(x, (where, i)) for i, x in enumerate(v)])
    elif origin in (collections.abc.Mapping, dict):
        each = _reader(args[1])

        def read(v: Any, where: Where) -> Any:
            if not isinstance(v, dict):
                raise CorpusError(f"{_at(where)}: expected an object, not {_kind(v)}")
            return {k: each(x, (where, k)) for k, x in v.items()}
    elif annotation is float:
        def read(v: Any, where: Where) -> Any:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CorpusError(f"{_at(where)}: expected a number, not {_kind(v)}")
            return float(v)
    elif annotation is str:
        def read(v: Any, where: Where) -> Any:
            if not isinstance(v, str):
                raise CorpusError(f"{_at(where)}: expected a string, not {_kind(v)}")
            return v
    else:  # pragma: no cover - a field of a type this reader does not know is a programming error
        raise TypeError(f"the edition reader cannot read {annotation!r}")
    _READERS[annotation] = read
    return read


def _record(cls: Any) -> Callable[[Any, Where], Any]:
    """The reader of a dataclass: an object with exactly its fields, each read as its type."""
    hints = typing.get_type_hints(cls)
    fields = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(cls)]
    names = {name for name, _ in fields}

    def read(v: Any, where: Where) -> Any:
        if not isinstance(v, dict):
            raise CorpusError(f"{_at(where)}: expected an object, not {_kind(v)}")
        if len(v) != len(fields) or not names.issuperset(v):
            unknown = [k for k in v if k not in names]
            if unknown:
                raise CorpusError(f"{_at(where)}.{unknown[0]}: unknown key (a {cls.__name__} has "
                                  f"{', '.join(sorted(names))})")
            missing = [name for name, _ in fields if name not in v]
            raise CorpusError(f"{_at(where)}.{missing[0]}: missing key")
        return cls(**{name: each(v[name], (where, name)) for name, each in fields})

    return read


__all__ = ["FORMAT", "Edition", "LayoutPlan", "PilePlan", "FoundationPlan", "ClauseText", "GameFacts",
           "VariantFacts", "RulingHistory", "EarlierDefault", "use", "installed"]
