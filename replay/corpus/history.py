"""What a log means over time: the archive's versions and the rulings' history (``corpus/changes.yaml``).

A log names the readings it was played under, but a ruling added later is absent from every older
log, and whatever a log leaves out is read with the defaults of the archive that reads it.
``corpus/changes.yaml`` records, version by version, every new ruling, every new reading of one,
every change of a default and every rule read anew, with its reason.  :func:`rulings_of` replays
that record into the history of each ruling; :func:`problems` holds it to the register (a default
changed in the register and not recorded here is an error of ``replay corpus check``); the
edition carries each ruling's history (:func:`replay.corpus.edition.history_of`), from which
``replay validate`` names, for a log that leaves a ruling out, the reading it applied and since
which version (:func:`replay.log.describe.default_note`); ``CHANGES.md`` and the site's page of
changes are written from it (``replay.site.changes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from replay.corpus.loader import Corpus, default_corpus
from replay.corpus.models import Change


@dataclass(frozen=True)
class Mark:
    """Where in the history something happened: a version, and the commit where the record has it."""

    version: str
    commit: str | None = None

    def __str__(self) -> str:
        return self.version + (f" (commit {self.commit})" if self.commit else "")


@dataclass
class RulingHistory:
    """One ruling of one game, as the record of changes has it."""

    game: str
    name: str
    readings: list[str]
    default: str
    introduced: Mark
    #: the reading the engine played before the ruling existed (None: a ruling of the first edition)
    before: str | None
    default_since: Mark
    #: the earlier defaults, oldest first: (reading, the version in which it stopped being the default)
    earlier_defaults: list[tuple[str, Mark]] = field(default_factory=list)
    #: readings added after the ruling was introduced: reading -> when
    added: dict[str, Mark] = field(default_factory=dict)


def _replay(changes: list[tuple[Mark, Change]]) -> tuple[dict[tuple[str, str], RulingHistory], list[str]]:
    """The rulings after every change, and what in the record does not add up (one line each)."""
    out: dict[tuple[str, str], RulingHistory] = {}
    bad: list[str] = []
    for mark, c in changes:
        where = f"{mark.version}: {c.kind} {c.game}" + (f" {c.ruling}" if c.ruling else "")
        if c.kind == "rule":
            continue
        assert c.ruling is not None  # the model requires it of these kinds
        key = (c.game, c.ruling)
        h = out.get(key)
        if c.kind == "ruling":
            if h is not None:
                bad.append(f"{where}: the ruling exists already (since {h.introduced})")
                continue
            assert c.default is not None
            out[key] = RulingHistory(c.game, c.ruling, list(c.readings), c.default, mark, c.before, mark)
            continue
        if h is None:
            bad.append(f"{where}: no such ruling has been introduced")
            continue
        if c.kind == "reading":
            assert c.reading is not None
            if c.reading in h.readings:
                bad.append(f"{where}: {c.reading!r} is a reading already")
            else:
                h.readings.append(c.reading)
                h.added[c.reading] = mark
        elif c.kind == "default":
            assert c.default is not None
            if c.before != h.default:
                bad.append(f"{where}: the default before was {h.default!r}, not {c.before!r}")
            if c.default not in h.readings:
                bad.append(f"{where}: {c.default!r} is not a reading of the ruling")
            h.earlier_defaults.append((h.default, mark))
            h.default, h.default_since = c.default, mark
    return out, bad


def _changes(corpus: Corpus) -> list[tuple[Mark, Change]]:
    if corpus.changes is None:
        return []
    return [(Mark(v.version, c.commit), c) for v in corpus.changes.versions for c in v.changes]


def rulings_of(corpus: Corpus) -> dict[tuple[str, str], RulingHistory]:
    """(game, ruling) -> its history, as ``corpus/changes.yaml`` records it."""
    return _replay(_changes(corpus))[0]


def archive_version(corpus: Corpus | None = None) -> str | None:
    """The version of the archive: the newest in ``corpus/changes.yaml`` (None without the file)."""
    corpus = corpus or default_corpus()
    return corpus.changes.versions[-1].version if corpus.changes else None


def register_rulings(corpus: Corpus) -> dict[tuple[str, str], tuple[set[str], str]]:
    """(game, ruling) -> (its selectable readings, its default), as the ambiguity register has them now."""
    out: dict[tuple[str, str], tuple[set[str], str]] = {}
    for game in corpus.games:
        for a in corpus.ambiguities_of_game(game):
            if a.ruling:
                out[(game, a.ruling)] = ({r.id for r in a.readings if r.selectable}, a.default)
    return out


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def problems(corpus: Corpus) -> list[str]:
    """Where the record of changes and the register disagree (an empty list when they agree).

    The versions must rise; every change must follow from the ones before it; and replaying them
    must give exactly the register's rulings, readings and defaults: a ruling, a reading or a
    default changed in the register and not recorded in ``corpus/changes.yaml`` is an error.
    """
    if corpus.changes is None:
        return ["corpus/changes.yaml is missing: the register's rulings have no recorded history"]
    out: list[str] = []
    versions = [v.version for v in corpus.changes.versions]
    for a, b in zip(versions, versions[1:]):
        if _version_key(b) <= _version_key(a):
            out.append(f"version {b} follows {a}: versions must rise, oldest first")
    for v in corpus.changes.versions:
        for c in v.changes:
            if c.game not in corpus.games:
                out.append(f"{v.version}: {c.kind}: unknown game {c.game!r}")
            if c.ambiguity and c.ambiguity not in corpus.ambiguities:
                out.append(f"{v.version}: {c.kind} {c.game}: unknown register entry {c.ambiguity}")
            elif c.ambiguity and c.ruling and corpus.ambiguities[c.ambiguity].ruling != c.ruling:
                out.append(f"{v.version}: {c.kind} {c.game} {c.ruling}: {c.ambiguity} defines another ruling")
            for cid in c.clauses:
                if cid not in corpus.clauses:
                    out.append(f"{v.version}: rule {c.game}: unknown clause {cid}")
    history, bad = _replay(_changes(corpus))
    out += bad
    register = register_rulings(corpus)
    for key, (readings, default) in sorted(register.items()):
        h = history.get(key)
        game, name = key
        if h is None:
            out.append(f"ruling {name} of {game} is in the register but in no version: record it (kind ruling)")
            continue
        if set(h.readings) != readings:
            more, fewer = sorted(readings - set(h.readings)), sorted(set(h.readings) - readings)
            out.append(f"ruling {name} of {game}: the register's readings differ from the record"
                       + (f" (not recorded: {', '.join(more)})" if more else "")
                       + (f" (recorded, not in the register: {', '.join(fewer)})" if fewer else ""))
        if h.default != default:
            out.append(f"ruling {name} of {game}: the register's default is {default!r}, the record's {h.default!r}: "
                       "record the change of default (kind default), with its reason")
    for game, name in sorted(set(history) - set(register)):
        out.append(f"ruling {name} of {game} is recorded but the register has no such ruling")
    return out
