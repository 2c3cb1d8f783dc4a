"""Everything the site is generated from, gathered once per build.

The project root is the folder of the MkDocs configuration (``mkdocs.yml``: its ``docs/``,
``examples/`` and ``tests/``), not the folder the package is imported from, so that a copy installed
with ``pip install .`` (not editable) builds the same site from its checkout.  The corpus is
``REPLAY_CORPUS`` when set, else the root's ``corpus/``, else the one the package ships; the code shown
is the package imported (:func:`code_root`).

* the corpus (:func:`replay.corpus.loader.load`),
* the clause registry (:mod:`replay.engine.registry`, filled by importing every game module),
* the tests tagged with each clause (:func:`replay.trace.testindex.tagged_tests`),
* the documented Python modules,
* the example logs under ``examples/``.

It also knows where every page lives, so that pages can link to each other with
relative ``.md`` links, which MkDocs checks (file and anchor) at build time.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from replay.corpus.loader import Corpus, load
from replay.corpus.models import Clause
from replay.engine import registry
from replay.engine.errors import CorpusError
from replay.paths import ROOT
from replay.trace.testindex import TestRef
from replay.trace.testindex import tagged_tests as _tagged_tests


#: game pages, in the order of the texts
GAMES_DIR = "games"
REFERENCE_DIR = "reference"
SOURCE_DIR = "source"
EXAMPLES_DIR = "examples"
LAYOUT_ASSETS = "assets/layouts"
AMBIGUITIES_PAGE = "ambiguities.md"
GLOSSARY_PAGE = "glossary.md"
SOURCES_PAGE = "sources.md"
#: the results table the register's playability evidence comes from (``replay stats --table``)
STATS_DATA = "data/stats/results.json"


def tagged_tests(root: Path) -> dict[str, list[TestRef]]:
    """Clause ID -> the tests tagged with it: from the project's tests (:func:`replay.trace.testindex.tagged_tests`),
    or, where there are none (an installed copy), from the index shipped with the package (no line numbers)."""
    from replay.trace.testindex import clause_tests

    if (root / "tests").is_dir():
        return _tagged_tests(root)
    return clause_tests(root)[0]


def code_root() -> Path:
    """The folder that holds the imported ``replay`` package (a checkout, or ``site-packages``)."""
    import replay

    return Path(replay.__file__).resolve().parents[1]


def corpus_root(root: Path) -> Path:
    """Where the site reads the corpus: ``REPLAY_CORPUS``, else ``root/corpus``, else the package's own copy."""
    from replay import settings
    from replay.corpus.files import corpus_dir

    try:
        given = settings.get("REPLAY_CORPUS")
    except settings.SettingError as e:  # set, but not a directory
        raise CorpusError(f"replay site: {e}") from None
    if isinstance(given, Path):
        return given
    if (root / "corpus" / "texts").is_dir():
        return root / "corpus"
    try:
        return corpus_dir()
    except CorpusError:
        raise CorpusError(f"replay site: no corpus: {root} has no corpus/ and the installed package ships none; "
                          "set REPLAY_CORPUS to a corpus folder") from None


@dataclass(frozen=True)
class EditionFacts:
    version: str  #: the package's version
    commit: str | None  #: the short hash of the commit the site is built from
    date: str  #: that commit's date (ISO), else the day of the build
    dirty: bool = False  #: the files differ from the commit


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def edition_facts(root: Path) -> EditionFacts:
    from replay import __version__

    line = _git(root, "log", "-1", "--format=%h %cs")
    if line and " " in line:
        commit, day = line.split(" ", 1)
        dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no", "--", "corpus", "replay"))
        return EditionFacts(__version__, commit, day, dirty)
    from replay.solver.version import build_commit

    return EditionFacts(__version__, build_commit(), date.today().isoformat())


@dataclass
class Example:
    """One example log: where it is and what it says."""

    path: Path  #: absolute
    rel: str  #: relative to the project root
    game: str
    form: str
    name: str
    data: Any  #: the parsed JSON (None when it is not JSON)
    error: str | None = None  #: why it could not be read

    @property
    def page(self) -> str:
        return f"{EXAMPLES_DIR}/{self.game}/{self.form}/{self.name}.md"


def code_fingerprint(corpus: Path) -> str:
    """SHA-256 of what a viewer is made from besides its log: the package's files (its code, the viewer's
    script, the drawing; not what importing it writes) and the corpus's (the clauses quoted and linked)."""
    import replay
    from replay.corpus.files import files_hash

    package = files_hash(Path(replay.__file__).resolve().parent, skip=("__pycache__", ".pyc", ".pyo"))
    return files_hash(corpus.resolve(), package.encode())


def find_examples(root: Path) -> list[Example]:
    """Every ``examples/games/<game>/<form>/*.json`` and ``examples/readings/*.json``, in path order.

    A log under ``readings/`` (valid logs whose verdict depends on a reading) is filed under its
    game with the form ``readings``.
    """
    out = []
    base = root / "examples"
    for path in sorted((base / "games").glob("*/*/*.json")):
        game, form = path.parts[-3], path.parts[-2]
        out.append(_example(root, path, game, form))
    for path in sorted((base / "readings").glob("*.json")):
        e = _example(root, path, "unknown", "readings")
        if isinstance(e.data, dict) and isinstance(e.data.get("game"), str):
            e.game = e.data["game"]
        out.append(e)
    return out


def _example(root: Path, path: Path, game: str, form: str) -> Example:
    try:
        data, error = json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, ValueError) as e:
        data, error = None, f"not readable as JSON: {e}"
    return Example(path, path.relative_to(root).as_posix(), game, form, path.stem, data, error)


def find_broken_examples(root: Path) -> list[Path]:
    base = root / "examples" / "broken"
    return sorted(p for p in base.rglob("*") if p.is_file() and not p.name.startswith(".")) if base.is_dir() else []


def module_names(root: Path) -> list[str]:
    """Every documented module of the ``replay`` package (dotted), packages first within a folder."""
    out = []
    pkg = root / "replay"
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__main__" or any(p.startswith("_") and p != "__init__" for p in parts):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(parts))
    return sorted(set(out), key=lambda m: (m.split("."), ))


@dataclass
class SiteData:
    """The inputs of one build."""

    root: Path  #: the project root (the MkDocs configuration's folder)
    corpus: Corpus
    impls: dict[str, registry.Implementation]
    excuses: dict[str, registry.Excuse]
    tests: dict[str, list[TestRef]]
    modules: list[str]
    examples: list[Example]
    broken: list[Path] = field(default_factory=list)
    code: Path = ROOT  #: the folder holding the ``replay`` package whose code the site shows
    site_url: str | None = None  #: the public address (``site_url`` of ``mkdocs.yml``), when it names one

    @classmethod
    def collect(cls, root: Path = ROOT) -> SiteData:
        """Gather everything from the project at ``root``; raises :class:`CorpusError` (one line) without a corpus."""
        from replay.games import catalog

        root = root.resolve()
        corpus = load(corpus_root(root))
        if not corpus.texts:
            raise CorpusError(f"replay site: the corpus at {corpus.root} holds no texts")
        catalog()  # importing the game modules registers their rule functions
        code = code_root()
        return cls(
            root=root,
            corpus=corpus,
            impls=registry.implementations(),
            excuses=registry.excuses(),
            tests=tagged_tests(root),
            modules=module_names(code),
            examples=find_examples(root),
            broken=find_broken_examples(root),
            code=code,
        )

    # ------------------------------------------------------------------ lookups

    @cached_property
    def stats(self) -> dict[str, Any] | None:
        """The results table, ``data/stats/results.json`` (None when the project has none, or it cannot be read)."""
        from replay.solver.table import load

        try:
            return load(self.root / STATS_DATA)
        except (OSError, ValueError):
            return None

    @cached_property
    def stats_page(self) -> str | None:
        """The statistics page, when the site has one (``docs/stats.md``)."""
        from replay.solver.page import STATS_PAGE

        return STATS_PAGE if (self.root / "docs" / STATS_PAGE).is_file() else None

    @cached_property
    def facts(self) -> Any:
        """The edition's version, commit and date (:func:`edition_facts`)."""
        return edition_facts(self.root)

    @cached_property
    def by_clause(self) -> dict[str, list[registry.Implementation]]:
        out: dict[str, list[registry.Implementation]] = {}
        for impl in self.impls.values():
            for c in impl.clauses:
                out.setdefault(c, []).append(impl)
        return out

    @cached_property
    def game_order(self) -> list[str]:
        """Game IDs in the order of their texts, then of their clauses."""
        order: list[str] = []
        for clause in self.corpus.clauses.values():
            if clause.game not in order and clause.game in self.corpus.games:
                order.append(clause.game)
        order += [g for g in sorted(self.corpus.games) if g not in order]
        return order

    def clauses_of(self, game: str) -> list[Clause]:
        return self.corpus.clauses_of(game)

    # ------------------------------------------------------------------ pages

    @staticmethod
    def game_page(game: str) -> str:
        return f"{GAMES_DIR}/{game}.md"

    def clause_page(self, clause_id: str) -> str:
        return self.game_page(self.corpus.clauses[clause_id].game)

    def module_page(self, module: str) -> str:
        """``replay.games.exiles`` -> ``reference/games/exiles.md``; a package -> its ``index.md``."""
        parts = module.split(".")[1:]
        is_pkg = (self.code / Path(*module.split("."), "__init__.py")).exists()
        if not parts:
            return f"{REFERENCE_DIR}/index.md"
        return f"{REFERENCE_DIR}/{'/'.join(parts)}{'/index' if is_pkg else ''}.md"

    @staticmethod
    def source_page(path: str) -> str:
        """``replay/games/exiles.py`` -> ``source/replay/games/exiles.py.md``."""
        return f"{SOURCE_DIR}/{path}.md"

    @staticmethod
    def layout_asset(layout_id: str) -> str:
        return f"{LAYOUT_ASSETS}/{layout_id}.svg"

    @cached_property
    def fingerprint(self) -> str:
        """:func:`code_fingerprint` of this build (the key of the cached viewers)."""
        return code_fingerprint(self.corpus.root)

    @cached_property
    def source_files(self) -> list[str]:
        """Files that get a source page: every documented module and every test file with a tagged test."""
        files = {impl.file for impl in self.impls.values()}
        for mod in self.modules:
            p = Path(*mod.split("."))
            files.add((p / "__init__.py").as_posix() if (self.code / p / "__init__.py").exists()
                      else p.with_suffix(".py").as_posix())
        for refs in self.tests.values():
            files.update(r.file for r in refs)
        return sorted(f for f in files if self.file(f).is_file())

    def file(self, rel: str) -> Path:
        """A file named relative to the project (``replay/...`` is the package's code, ``tests/...`` the root's)."""
        return (self.code if rel.startswith("replay/") else self.root) / rel
