"""The log models' own validator without the models: what ``replay validate`` reads a log with.

Reading with :class:`~replay.log.models.GameLog` needs pydantic's schema machinery (the Python code that
turns the models into pydantic-core's schema, and the imports it pulls in), which costs every start of the
command more than the rest of a one-log validation.  This module keeps the core schema the models make,
as JSON in the cache directory (:func:`replay.corpus.files.cache_dir`, ``log-schema/``), keyed by the
SHA-256 of the models' source, this module's and the versions of pydantic and pydantic-core, and builds
pydantic-core's validator from it, with a record class of the same name in place of each model: the
validator is the models' own, so a log is taken or refused exactly as the models take or refuse it,
with the same errors (type, place, words).  A record holds the fields (``game``, ``moves``, a move's
``from_`` …), the keys given (``__pydantic_fields_set__``) and meta's free keys (``__pydantic_extra__``)
as a model instance does.  A miss (the first run, a new pydantic, changed models) builds the schema from
the models and writes it; where the schema cannot be kept as JSON, or no cache is kept, the models' own
schema is used in-process (the same validator, only slower to start).

The twin is held equal to the models by ``tests/test_log_compiled.py``: on every example log and on
mutated logs the same fields, the same keys given and the same errors.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic_core import SchemaValidator

#: bumped when what the cached schema holds changes (this module's source is hashed too)
CACHE_FORMAT = b"replay-log-schema/1"


class Record:
    """A value the validator makes in place of a model instance: the model's fields as attributes."""

    __slots__ = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
    __pydantic_fields_set__: set[str]
    #: the model's fields in their order, each with the key the log writes it under
    FIELDS: tuple[tuple[str, str], ...] = ()

    @property
    def entry(self) -> dict[str, Any]:
        """The fields given, by their keys in the log (a move's ``model_dump(by_alias=True, exclude_unset=True)``)."""
        given = self.__pydantic_fields_set__
        return {key: getattr(self, name) for name, key in self.FIELDS if name in given}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


def validator() -> SchemaValidator:
    """pydantic-core's validator of a log, as :class:`~replay.log.models.GameLog` validates one."""
    return _validator()


@lru_cache(maxsize=1)
def _validator() -> SchemaValidator:
    plain = _cached()
    if plain is None:
        return _from_models()
    return SchemaValidator(_with_records(plain))


def _cached() -> Any:
    """The plain schema from the cache, made and written on a miss (None when it cannot be kept as JSON)."""
    from replay.corpus.files import cache_dir

    where = cache_dir()
    path = where / "log-schema" / f"{_key()}.json" if where is not None else None
    if path is not None:
        try:
            return json.loads(path.read_bytes())
        except (OSError, ValueError):  # missing or unreadable: made again
            pass
    schema = plain_schema()
    if schema is not None and path is not None:
        from replay.fsio import atomic_write

        try:
            atomic_write(path, json.dumps(schema, ensure_ascii=False).encode("utf-8"))
        except OSError:
            pass
    return schema


def _key() -> str:
    import pydantic_core

    h = hashlib.sha256(CACHE_FORMAT + pydantic_core.__version__.encode() + b"\0")
    models = Path(__file__).with_name("models.py")
    for source in (models, models.with_name("format.py"), Path(__file__)):
        try:
            h.update(source.read_bytes())
        except OSError:
            h.update(b"?")
    from pydantic.version import VERSION  # imported with pydantic itself (importlib.metadata is not)

    h.update(VERSION.encode())
    return h.hexdigest()


def plain_schema() -> Any:
    """The models' core schema as JSON data: each model's class named (``cls``: its name), without the parts
    only the JSON Schema and references use (``metadata``, ``ref``); None when it holds something JSON cannot
    (a function, say)."""
    from replay.log.models import GameLog

    def plain(x: Any) -> Any:
        if isinstance(x, dict):
            out = {}
            for k, v in x.items():
                if k in ("metadata", "ref"):
                    continue
                if k == "type" and v in ("definition-ref", "definitions", "function-plain", "function-before",
                                          "function-after", "function-wrap"):
                    raise TypeError(v)
                out[k] = v.__name__ if k == "cls" else plain(v)
            return out
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        if x is None or isinstance(x, (str, int, float, bool)):
            return x
        raise TypeError(type(x).__name__)

    try:
        schema = plain(GameLog.__pydantic_core_schema__)
        json.dumps(schema)
    except (TypeError, ValueError):
        return None
    return schema


def _with_records(schema: Any) -> Any:
    """``schema`` with each ``cls`` a record class of that name, knowing its fields' order and keys."""
    made: dict[str, type[Record]] = {}

    def record(name: str, inner: Any) -> type[Record]:
        if name not in made:
            fields = inner.get("fields", {}) if isinstance(inner, dict) else {}
            made[name] = type(name, (Record,), {
                "__slots__": (), "__module__": __name__,
                "FIELDS": tuple((f, spec.get("validation_alias", f) if isinstance(spec.get("validation_alias", f), str)
                                 else f) for f, spec in fields.items())})
        return made[name]

    def walk(x: Any) -> Any:
        if isinstance(x, dict):
            out = {k: walk(v) for k, v in x.items() if k != "cls"}
            if "cls" in x:
                out["cls"] = record(x["cls"], x.get("schema"))
            return out
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return walk(schema)


def _from_models() -> SchemaValidator:
    from replay.log.models import GameLog

    return GameLog.__pydantic_validator__  # type: ignore[return-value]


__all__ = ["Record", "plain_schema", "validator"]
