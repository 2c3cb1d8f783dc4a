"""Load the corpus: texts, clauses, ambiguity register, glossary, games, layouts and English witnesses.

The corpus lives in ``corpus/`` at the project root; an installed wheel
carries a copy as package data (``replay/_corpus``).  ``REPLAY_CORPUS`` in
the environment points elsewhere.  Loading is strict: a file that does not
follow its model raises :class:`~replay.engine.errors.CorpusError` naming the
file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

from pydantic import BaseModel, ValidationError

from replay.corpus.models import (
    AmbiguitiesFile,
    Ambiguity,
    ChangesFile,
    Clause,
    ClauseLockFile,
    ClausesFile,
    Correction,
    GameInfo,
    GlossaryFile,
    LayoutSpec,
    Passage,
    Term,
    Text,
    WitnessFile,
)
from replay.corpus.files import cache_dir, corpus_dir  # noqa: F401 - here for the loader's callers
from replay.engine.errors import CorpusError

M = TypeVar("M", bound=BaseModel)

#: bumped when what the cache holds for a file changes
CACHE_FORMAT = b"replay-corpus-cache/1"


def safe_loader() -> type:
    """libyaml's loader when PyYAML was built with it (about ten times faster), else the pure-Python one.

    PyYAML is imported only here: with the parsed files cached, a command never needs it.
    """
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def __getattr__(name: str) -> Any:
    if name == "SafeLoader":  # the loader in use, as a module attribute (imports PyYAML)
        return safe_loader()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _cached(raw: bytes) -> tuple[Path | None, Any, bytes]:
    """(the cache file for these bytes, its parsed content or None, the cache file's bytes).  Trouble reads as a miss."""
    import hashlib
    import json

    where = cache_dir()
    if where is None:
        return None, None, b""
    # the key is the file's bytes (both loaders read a file alike): a change is a different entry
    key = hashlib.sha256(CACHE_FORMAT + raw).hexdigest()
    path = where / "corpus" / f"{key}.json"
    try:
        text = path.read_bytes()
        return path, json.loads(text), text
    except (OSError, ValueError):
        return path, None, b""


def _store(path: Path, data: Any) -> bytes:
    """Keep ``data`` in ``path`` when JSON holds it exactly (written atomically; failures are ignored).

    Returns the bytes written (empty when nothing was kept).
    """
    import json

    from replay.fsio import atomic_write  # the one atomic writer (it removes its temporary file on failure)

    try:
        text = json.dumps(data, ensure_ascii=False)
        if json.loads(text) != data:  # dates, non-string keys …: not cached
            return b""
        raw = text.encode("utf-8")
        atomic_write(path, raw)
        return raw
    except (OSError, TypeError, ValueError):
        return b""


def _read(path: Path) -> tuple[Any, Path | None, bytes]:
    """(the parsed content of a corpus file, its cache file or None, the cache file's bytes or b"")."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CorpusError(f"{path}: file not found") from None
    except OSError as e:
        raise CorpusError(f"{path}: cannot read: {e.strerror or e}") from None
    cache, data, text = _cached(raw)
    if data is not None:
        return data, cache, text
    import yaml

    try:
        data = yaml.load(raw.decode("utf-8"), Loader=safe_loader())  # noqa: S506 - a safe loader
    except UnicodeDecodeError as e:
        raise CorpusError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise CorpusError(f"{path}{where}: not valid YAML ({getattr(e, 'problem', e)})") from None
    if cache is not None and data is not None:
        text = _store(cache, data)
    return data, cache, text


def read_yaml(path: Path) -> Any:
    """Parse one corpus file (libyaml when present; the result is cached by the file's SHA-256)."""
    return _read(path)[0]


def describe(err: ValidationError, data: Any = None) -> list[str]:
    """One line per problem: the entry (by its ``id`` where it has one), the field, what is wrong."""
    out = []
    for e in err.errors():
        loc = list(e["loc"])
        where = ".".join(str(x) for x in loc)
        if data is not None and len(loc) >= 2 and isinstance(loc[1], int):
            try:
                entry = data[loc[0]][loc[1]]
                if isinstance(entry, dict) and "id" in entry:
                    where = f"{loc[0]}[{entry['id']}]" + ("." + ".".join(str(x) for x in loc[2:]) if loc[2:] else "")
            except (KeyError, IndexError, TypeError):
                pass
        out.append(f"{where}: {e['msg']}")
    return out


def load_model(path: Path, model: type[M]) -> M:
    """One corpus file as ``model`` (strict: raises :class:`CorpusError`).

    A file whose cached content has passed ``model`` before, under this very code, is built
    from the cache without validating it again (see :func:`_trust_mark`); anything else is validated.
    """
    data, cache, text = _read(path)
    mark = _trust_mark(cache, model, text)
    if mark is not None and mark.exists():
        return construct(model, data)
    try:
        validated = model.model_validate(data)
    except ValidationError as err:
        raise CorpusError(f"{path}: " + "; ".join(describe(err, data))) from None
    if mark is not None:
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()
        except OSError:
            pass
    return validated


@lru_cache(maxsize=1)
def _code_version() -> bytes:
    """What a validation depends on: the models' source, pydantic's version, the cache format."""
    import hashlib

    import pydantic

    from replay.corpus import models

    try:
        source = Path(models.__file__).read_bytes()
    except (OSError, TypeError):
        return b""
    return hashlib.sha256(CACHE_FORMAT + pydantic.VERSION.encode() + source).digest()


def _trust_mark(cache: Path | None, model: type[BaseModel], text: bytes) -> Path | None:
    """The file that says "these exact cached bytes passed ``model``", or None when there is no cache.

    Its name is a hash of the cache file's bytes, the model and the code that validated them
    (:func:`_code_version`): an edited cache file, a changed model or another pydantic has no mark.
    """
    import hashlib

    code = _code_version()
    if cache is None or not text or not code:
        return None
    key = hashlib.sha256(code + model.__name__.encode() + b"\0" + text).hexdigest()
    return cache.parent / "validated" / key


def construct(model: type[M], data: Any) -> M:
    """``model`` from data that has passed ``model.model_validate`` before, without validating again.

    Nested models, tuples and floats are made as validation makes them; fields absent from
    ``data`` get their defaults and are left out of ``model_fields_set``, as validation does.
    The corpus models have no validator that changes a value (their validators only check).
    What ``model_construct`` does is done here directly for a plain model (no alias, no private
    attribute, no ``model_post_init``): it is called for every clause, reading and glossary form.
    """
    plain, fields = _plan(model)
    values: dict[str, Any] = {}
    for name, convert, factory, default in fields:
        if name in data:
            values[name] = convert(data[name])
        elif factory is not None:
            values[name] = factory()
        else:
            values[name] = default
    if not plain:
        return model.model_construct(set(data), **values)
    m = model.__new__(model)
    object.__setattr__(m, "__dict__", values)
    object.__setattr__(m, "__pydantic_fields_set__", set(data))
    object.__setattr__(m, "__pydantic_extra__", None)
    object.__setattr__(m, "__pydantic_private__", None)
    return m


@lru_cache(maxsize=None)
def _plan(model: type[BaseModel]) -> tuple[bool, tuple[tuple[str, Callable[[Any], Any], Any, Any], ...]]:
    """(whether ``model`` is plain enough to build by hand, (field, converter, default factory, default) per field)."""
    fields = []
    plain = not (model.__private_attributes__ or model.__pydantic_post_init__ or model.__pydantic_root_model__
                 or model.model_config.get("extra") == "allow")
    for name, f in model.model_fields.items():
        plain = plain and f.alias is None and f.validation_alias is None
        annotation: Any = f.annotation
        fields.append((name, _converter(annotation), f.default_factory, f.default))  # factories take no argument
    return plain, tuple(fields)


def _same(value: Any) -> Any:
    return value


@lru_cache(maxsize=None)
def _converter(annotation: Any) -> Callable[[Any], Any]:
    """What validation does to a valid value of this type, as a function (made once per type)."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _converter(args[0])
    if origin is typing.Union or origin is types.UnionType:
        options = [a for a in args if a is not type(None)]
        if len(options) != 1:
            return _same
        inner = _converter(options[0])
        return lambda v: None if v is None else inner(v)
    if origin is list:
        item = _converter(args[0])
        return _same if item is _same else lambda v: [item(x) for x in v]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _converter(args[0])
            return lambda v: tuple(each(x) for x in v)
        parts = [_converter(a) for a in args]
        if all(p is _same for p in parts):
            return tuple
        return lambda v: tuple(p(x) for p, x in zip(parts, v))
    if origin is dict:
        item = _converter(args[1])
        return _same if item is _same else lambda v: {k: item(x) for k, x in v.items()}
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return lambda v: construct(annotation, v)
        if annotation is float:
            return lambda v: float(v) if isinstance(v, int) and not isinstance(v, bool) else v
    return _same


@dataclass
class Corpus:
    """The whole corpus, indexed."""

    root: Path
    texts: dict[str, Text]
    sources: dict[str, str]  #: text ID -> verbatim text (decoded)
    clause_files: dict[str, ClausesFile]
    clauses: dict[str, Clause]
    games: dict[str, GameInfo]
    ambiguities: dict[str, Ambiguity]
    terms: dict[str, Term]
    layouts: dict[str, LayoutSpec]
    lock: ClauseLockFile | None
    text_of: dict[str, str] = field(default_factory=dict)  #: clause ID -> text ID
    witnesses: dict[str, WitnessFile] = field(default_factory=dict)  #: English witnesses, by ID
    changes: ChangesFile | None = None  #: the archive's versions and what each changed (corpus/changes.yaml)

    # ------------------------------------------------------------ derived layers

    def corrections(self, text_id: str) -> list[Correction]:
        """Every correction of a text, systematic substitutions expanded to one per occurrence."""
        cf = self.clause_files[text_id]
        src = self.sources[text_id]
        out = list(cf.corrections)
        for sub in cf.substitutions:
            start = 0
            while (i := src.find(sub.sic, start)) >= 0:
                out.append(Correction(at=i, sic=sub.sic, corr=sub.corr, kind=sub.kind, reason=sub.reason))
                start = i + len(sub.sic)
        return sorted(out, key=lambda c: c.at)

    def diplomatic(self, clause_id: str) -> str:
        """The clause with every correction applied (equal to the verbatim where there is none)."""
        c = self.clauses[clause_id]
        tid = self.text_of[clause_id]
        return self._diplomatic_text(tid)[self._dip_span(tid, c)]

    @lru_cache(maxsize=None)  # noqa: B019 - the corpus is immutable once loaded
    def _diplomatic_map(self, text_id: str) -> tuple[str, tuple[int, ...]]:
        src = self.sources[text_id]
        out: list[str] = []
        pos_map = [0] * (len(src) + 1)  # verbatim offset -> diplomatic offset
        i = 0
        corr = {c.at: c for c in self.corrections(text_id)}
        length = 0
        while i < len(src):
            pos_map[i] = length
            c = corr.get(i)
            if c is not None:
                out.append(c.corr)
                length += len(c.corr)
                for k in range(i + 1, i + len(c.sic)):
                    pos_map[k] = length
                i += len(c.sic)
            else:
                out.append(src[i])
                length += 1
                i += 1
        pos_map[len(src)] = length
        return "".join(out), tuple(pos_map)

    def _diplomatic_text(self, text_id: str) -> str:
        return self._diplomatic_map(text_id)[0]

    def _dip_span(self, text_id: str, c: Clause) -> slice:
        pos = self._diplomatic_map(text_id)[1]
        return slice(pos[c.spans[0][0]], pos[c.spans[-1][1]])

    def diplomatic_text(self, text_id: str) -> str:
        return self._diplomatic_text(text_id)

    def clause_corrections(self, clause_id: str) -> list[Correction]:
        c = self.clauses[clause_id]
        tid = self.text_of[clause_id]
        return [k for k in self.corrections(tid) if any(s <= k.at < e for s, e in c.spans)]

    def witness_passages(self, clause_id: str) -> list[tuple[WitnessFile, Passage]]:
        """Every witness passage aligned to a clause, originals first, in file order."""
        found = [(w, p) for w in self.witnesses.values() for p in w.passages if p.clause == clause_id]
        return sorted(found, key=lambda wp: wp[0].relation != "original")

    def clauses_of(self, game: str) -> list[Clause]:
        return [c for c in self.clauses.values() if c.game == game]

    def ambiguities_of_clause(self, clause_id: str) -> list[Ambiguity]:
        return [a for a in self.ambiguities.values() if clause_id in a.clauses]

    def ambiguities_of_game(self, game: str) -> list[Ambiguity]:
        return [a for a in self.ambiguities.values() if any(self.clauses[c].game == game
                                                             for c in a.clauses if c in self.clauses)]

    def text_id_of_ambiguity(self, amb: Ambiguity) -> str:
        return self.text_of.get(amb.clauses[0], "")

    def __hash__(self) -> int:  # for lru_cache on methods
        return id(self)


_Named = TypeVar("_Named", Text, GameInfo, WitnessFile)


def _named_by_id(root: Path, folder: str, model: type[_Named], what: str) -> dict[str, _Named]:
    """Every ``folder/*.yaml`` of ``root`` as ``model``, by ID; each file must be named after the ID it holds."""
    out: dict[str, _Named] = {}
    for path in sorted((root / folder).glob("*.yaml")):
        item = load_model(path, model)
        if path.stem != item.id:
            raise CorpusError(f"{path}: holds {what} {item.id!r}; the file must be named {item.id}.yaml")
        out[item.id] = item
    return out


def load(root: Path | None = None) -> Corpus:
    """Load and index every corpus file (strict; raises :class:`CorpusError`)."""
    root = root or corpus_dir()
    texts = _named_by_id(root, "texts", Text, "text")
    sources: dict[str, str] = {}
    for t in texts.values():
        raw = (root / t.file).read_bytes()
        try:
            sources[t.id] = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CorpusError(f"{t.file}: not UTF-8 at byte {e.start}") from None
    clause_files: dict[str, ClausesFile] = {}
    clauses: dict[str, Clause] = {}
    text_of: dict[str, str] = {}
    for tid in texts:
        cf = load_model(root / "clauses" / f"{tid}.yaml", ClausesFile)
        clause_files[tid] = cf
        for c in cf.clauses:
            if c.id in clauses:
                raise CorpusError(f"clauses/{tid}.yaml: clause ID {c.id} is used twice")
            clauses[c.id] = c
            text_of[c.id] = tid
    games = _named_by_id(root, "games", GameInfo, "game")
    ambiguities: dict[str, Ambiguity] = {}
    for path in sorted((root / "ambiguities").glob("*.yaml")):
        for a in load_model(path, AmbiguitiesFile).entries:
            if a.id in ambiguities:
                raise CorpusError(f"{path.name}: ambiguity ID {a.id} is used twice")
            ambiguities[a.id] = a
    terms: dict[str, Term] = {}
    for path in sorted((root / "glossary").glob("*.yaml")):
        for term in load_model(path, GlossaryFile).terms:
            if term.id in terms:
                raise CorpusError(f"{path.name}: glossary term {term.id} is defined twice")
            terms[term.id] = term
    layouts: dict[str, LayoutSpec] = {}
    for path in sorted((root / "layouts").glob("*.yaml")):
        spec = load_model(path, LayoutSpec)
        layouts[spec.id] = spec
    lock_path = root / "clause-ids.yaml"
    lock = load_model(lock_path, ClauseLockFile) if lock_path.exists() else None
    witnesses = _named_by_id(root, "witnesses", WitnessFile, "witness")
    changes_path = root / "changes.yaml"
    changes = load_model(changes_path, ChangesFile) if changes_path.exists() else None
    return Corpus(root, texts, sources, clause_files, clauses, games, ambiguities, terms, layouts, lock, text_of,
                  witnesses, changes)


@lru_cache(maxsize=1)
def default_corpus() -> Corpus:
    """The project's corpus, loaded once per process."""
    return load()
