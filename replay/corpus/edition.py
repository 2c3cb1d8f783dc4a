"""The corpus as the engine takes it: :func:`edition_of` turns the corpus models into an
:class:`~replay.engine.edition.Edition`, and :func:`default_edition` gives the default corpus's.

The default edition is kept as JSON in the loader's cache directory (:func:`replay.corpus.files.cache_dir`),
keyed by the SHA-256 of every file of the corpus and of the code that makes and reads it: a start
with a warm cache reads that file and imports neither pydantic nor PyYAML; a miss loads the corpus
(:func:`replay.corpus.loader.default_corpus`) and writes the file.  An edition installed with
:func:`replay.engine.edition.use` comes first.

This is the one module of the corpus package the games import.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from replay.engine import edition as E
from replay.engine.errors import CorpusError
from replay.engine.rulings import Ruling

if TYPE_CHECKING:
    from replay.corpus.loader import Corpus
    from replay.corpus.models import LayoutSpec

#: bumped when what the cached edition holds changes (the code that makes it is hashed too)
CACHE_FORMAT = b"replay-edition-cache/1"


def default_edition() -> E.Edition:
    """The installed edition (:func:`replay.engine.edition.use`), else the default corpus's, made once per process."""
    return E.installed() or _default()


@lru_cache(maxsize=1)
def _default() -> E.Edition:
    from replay.corpus.files import cache_dir, corpus_dir, files_hash

    root = corpus_dir()
    where = cache_dir()
    path = None
    if where is not None:
        key = files_hash(root, CACHE_FORMAT + _code())
        path = where / "edition" / f"{key}.json"
        try:
            return E.Edition.from_json(json.loads(path.read_bytes()), str(path))
        except (OSError, ValueError, CorpusError):  # missing, unreadable or not an edition: made again
            pass
    from replay.corpus.loader import default_corpus

    edition = edition_of(default_corpus())
    if path is not None:
        from replay.fsio import atomic_write

        try:
            atomic_write(path, json.dumps(edition.to_json(), ensure_ascii=False).encode("utf-8"))
        except OSError:
            pass
    return edition


def _code() -> bytes:
    """The source of the code that makes and reads a cached edition (a change is a new cache entry): the
    edition's two modules and the replay of the record of changes (:mod:`replay.corpus.history`)."""
    here = Path(__file__)
    try:
        return Path(E.__file__ or "").read_bytes() + here.read_bytes() + (here.parent / "history.py").read_bytes()
    except OSError:
        return b""


def edition_of(corpus: Corpus) -> E.Edition:
    """The plain structures the engine and the games take, from a loaded corpus."""
    games = {g.id: E.GameFacts(id=g.id, title=g.title, original_title=g.original_title, text=g.text,
                               summary=g.summary,
                               variants=tuple(E.VariantFacts(v.id, v.title) for v in g.variants))
             for g in corpus.games.values()}
    layouts = {spec.id: layout_plan(spec) for spec in corpus.layouts.values()}
    played = list(corpus.games) + [c.game for c in corpus.clauses.values() if c.game not in corpus.games]
    rulings = {game: rulings_of(corpus, game) for game in dict.fromkeys(played)}
    clauses = {}
    for cid, c in corpus.clauses.items():
        try:
            original = corpus.diplomatic(cid)
        except (KeyError, IndexError):
            original = c.verbatim
        clauses[cid] = E.ClauseText(id=cid, game=c.game, language=corpus.texts[corpus.text_of[cid]].language,
                                    original=original, translation=c.translation, verbatim=c.verbatim,
                                    normalized=c.normalized)
    archive, history = history_of(corpus)
    return E.Edition(games=games, layouts=layouts, rulings={g: r for g, r in rulings.items() if r}, clauses=clauses,
                     archive=archive, history=history)


def history_of(corpus: Corpus) -> tuple[str | None, dict[str, dict[str, E.RulingHistory]]]:
    """The archive's version and every recorded ruling's history (game -> ruling -> history), as
    :mod:`replay.corpus.history` replays ``corpus/changes.yaml`` (None and empty without the record)."""
    from replay.corpus.history import archive_version, rulings_of as recorded

    out: dict[str, dict[str, E.RulingHistory]] = {}
    for (game, name), h in recorded(corpus).items():
        out.setdefault(game, {})[name] = E.RulingHistory(
            introduced=h.introduced.version, before=h.before, default_since=h.default_since.version,
            default_since_commit=h.default_since.commit,
            earlier_defaults=tuple(E.EarlierDefault(r, m.version) for r, m in h.earlier_defaults))
    return archive_version(corpus), out


def layout_plan(spec: LayoutSpec) -> E.LayoutPlan:
    """A layout of the corpus as the engine and the drawings take it."""
    return E.LayoutPlan(
        id=spec.id, game=spec.game, title=spec.title, description=spec.description, reading=spec.reading,
        piles=tuple(E.PilePlan(p.name, p.row, p.col, p.role, p.label) for p in spec.piles),
        foundations=tuple(E.FoundationPlan(f.name, f.row, f.col, f.base) for f in spec.foundations),
        arrangements={name: dict(suits) for name, suits in spec.arrangements.items()},
        deal=tuple(spec.deal), later_deal=_names(spec.later_deal), gather=_names(spec.gather))


def _names(names: list[str] | None) -> tuple[str, ...] | None:
    return tuple(names) if names is not None else None


def rulings_of(corpus: Corpus, game: str) -> dict[str, Ruling]:
    """The rulings of ``game``, as the ambiguity register defines them (in its order)."""
    out: dict[str, Ruling] = {}
    for amb in corpus.ambiguities_of_game(game):
        if amb.ruling:
            out[amb.ruling] = Ruling(
                name=amb.ruling,
                readings=tuple(r.id for r in amb.readings if r.selectable),
                default=amb.default,
                ambiguity=amb.id,
                title=amb.title,
                summaries={r.id: r.summary for r in amb.readings},
                variants=tuple(amb.variants),
            )
    return out

