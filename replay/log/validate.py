"""Replay a log against the rules: the verdict, and at the first illegal move the clause it breaks.

The path of a log::

    bytes --size, UTF-8, JSON, models--> GameLog --game, variants, rulings--> Game
          --deck--> Table --each move: names to indices, Table.apply--> outcome, result claim

Anything wrong before the replay makes the log *malformed* (one problem, one line);
an illegal move, a wrong card or a false result claim makes it *illegal*.  Nothing
here raises on bad input: every function returns a :class:`~replay.log.report.Report`.

This module reads the bytes into the pydantic models (:mod:`replay.log.models`) and words what
they refuse; the replay of the parsed log, which needs no pydantic, is :mod:`replay.log.check`
(its names are available here too).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Mapping

from pydantic_core import ValidationError

from replay.engine.errors import ReplayError
from replay.log.check import (BOM, MAX_SNAPSHOTS, REPORT_PER_BYTE, REPORT_SLACK, Bad, Instance, Parsed, Replay,  # noqa: F401
                              Unreadable, _deck_problem, _false_result, _form, _json_type, _short, check_log,
                              engine_moves, entry_of, instance, internal_error, judged, malformed, parsed, replay_to,
                              report_rulings, strict_json, too_large, unknown)
from replay.log.compiled import validator
from replay.log.format import MAX_BYTES
from replay.log.report import Problem, Report

if TYPE_CHECKING:
    from replay.log.models import GameLog


def _read(body: bytes) -> Parsed:
    """The log in ``body`` read by the models' validator (:mod:`replay.log.compiled`: records in place of the
    models' instances); raises :class:`~replay.log.check.Unreadable`."""
    try:
        return validator().validate_json(body)
    except ValidationError as err:
        raise _unreadable(err, body) from None


def _read_models(body: bytes) -> GameLog:
    """The log in ``body`` read into the models themselves; raises :class:`~replay.log.check.Unreadable`."""
    from replay.log.models import GameLog

    try:
        return GameLog.model_validate_json(body)
    except ValidationError as err:
        raise _unreadable(err, body) from None


def _unreadable(err: ValidationError, body: bytes) -> Unreadable:
    from replay.log.wording import first_problem  # the words of a refusal, only for one

    return Unreadable(*first_problem(err.errors(include_url=False, include_context=True), body))


_FIELDS_GIVEN = attrgetter("__pydantic_fields_set__")


def _keys_held(log: Parsed) -> int | None:
    """How many keys the models' validator was given (each object's distinct keys: a model's fields given,
    its free keys, a dictionary's keys), or None when meta holds a float (see
    :func:`~replay.log.check.strict_unless_counted`, which compares this count with the text's colons)."""
    read: Any = log  # a record of the models' validator (or a model): its keys given are pydantic's
    n = len(read.__pydantic_fields_set__) + len(read.rulings) + sum(map(len, map(_FIELDS_GIVEN, read.moves)))
    if read.meta is not None:
        n += len(read.meta.__pydantic_fields_set__)
        for value in (read.meta.__pydantic_extra__ or {}).values():
            inner = _keys_within(value)
            if inner is None:
                return None
            n += inner
    return n


def _keys_within(value: object) -> int | None:
    """The keys of the objects within a free value of meta (None when it holds a float)."""
    if isinstance(value, float):
        return None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    n = len(value) if isinstance(value, dict) else 0
    for item in items:
        inner = _keys_within(item)
        if inner is None:
            return None
        n += inner
    return n


def parse(data: bytes) -> GameLog:
    """Parse a log's bytes into the models (:class:`~replay.log.models.GameLog`); raises :class:`Bad`."""
    from replay.log.models import GameLog

    log = parsed(data, _read_models, _keys_held)
    assert isinstance(log, GameLog)
    return log


def check_bytes(data: bytes, name: str = "<log>", *, lenient: bool = False, until: int | None = None,
                rulings: Mapping[str, str] | None = None, size: int | None = None) -> Report:
    """The verdict on a log given as bytes (never raises on bad input).

    ``size`` is the file's size when known (``data`` holds at most one byte more than the limit).
    """
    return judged(data, name, _read, lenient=lenient, until=until, rulings=rulings, size=size, keys=_keys_held)


def check_file(path: str, *, lenient: bool = False, until: int | None = None,
               rulings: Mapping[str, str] | None = None) -> Report:
    """Read and check one file; unreadable files give an ``io-error`` report."""
    import os
    import stat

    from replay.log.names import shown

    name = shown(path)
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(21, "is a directory")
            data = fh.read(MAX_BYTES + 1)
    except OSError as e:
        r = Report(file=name)
        r.add(Problem("io-error", f"cannot read: {e.strerror or e}"))
        return r
    size = st.st_size if stat.S_ISREG(st.st_mode) and st.st_size > MAX_BYTES else None
    return check_bytes(data, name, lenient=lenient, until=until, rulings=rulings, size=size)



__all__ = ["Bad", "Instance", "Report", "Problem", "check_bytes", "check_file", "check_log", "engine_moves", "instance",
           "parse", "replay_to", "ReplayError"]
