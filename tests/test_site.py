"""The rules site: ``mkdocs build --strict`` is clean, and every link between the text and the code holds.

The site is built once per test run (:func:`built_site`, shared with ``test_browser.py`` and by
pytest-xdist's workers) into a temporary folder.  Besides the build's own checks (MkDocs validates relative links and
their anchors; autorefs reports references to unknown objects or clauses; ``--strict`` turns
both into failures), these tests read the built HTML and check:

* every clause, ambiguity and glossary term has its permalink anchor;
* every internal link of the site reaches an existing page and anchor;
* both directions between clauses and code: each registered function's clauses exist, each
  clause lists its functions with links to their API anchors (which exist), and each function's
  documentation links back to each of its clauses.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from replay.corpus.loader import default_corpus
from replay.engine import registry
from replay.games import catalog
from tests.conftest import SITE_FOLDER

ROOT = Path(__file__).resolve().parents[1]

_BUILD: dict[str, object] = {}


def build_site() -> tuple[Path, str, float]:
    """Build the site once per test run: (folder, output of mkdocs, seconds).

    The processes of a run (pytest-xdist's workers) share one build: the first to ask builds it into the
    run's shared folder (``$REPLAY_TEST_SITE``, made and removed by the run's main process) under a lock
    and writes what mkdocs said beside it; the others wait on the lock and read that.  Outside such a run
    (the folder not set) the process builds its own.
    """
    if "dir" not in _BUILD:
        shared = os.environ.get(SITE_FOLDER)  # set by tests/conftest.py's pytest_configure
        if shared:  # one build per checkout (a test may run another checkout's tests in a subprocess)
            root = Path(shared) / hashlib.sha256(str(ROOT).encode()).hexdigest()[:16]
            root.mkdir(exist_ok=True)
            _BUILD.update(_shared_build(root))
        else:
            out = Path(tempfile.mkdtemp(prefix="replay-site-"))
            atexit.register(shutil.rmtree, out, True)
            _BUILD.update(_build_into(out))
    return _BUILD["dir"], _BUILD["log"], _BUILD["seconds"]  # type: ignore[return-value]


def _build_into(out: Path) -> dict[str, object]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "ignore"}
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(out)],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600,
    )
    return {"dir": out, "log": proc.stdout + proc.stderr, "rc": proc.returncode,
            "seconds": time.perf_counter() - started}


def _shared_build(root: Path) -> dict[str, object]:
    """The run's one build in ``root``: made by the first process to take the lock, read by the others."""
    import fcntl

    said = root / "build.json"
    with open(root / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held until the build and what it said are written
        if not said.is_file():
            got = _build_into(root / "site")
            tmp = said.with_suffix(".tmp")
            tmp.write_text(json.dumps({**got, "dir": str(got["dir"])}), encoding="utf-8")
            os.replace(tmp, said)
        got = json.loads(said.read_text(encoding="utf-8"))
    return {**got, "dir": Path(got["dir"])}


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The built site (a strict build that failed fails every test that needs it)."""
    site, log, _ = build_site()
    if _BUILD["rc"] != 0:
        pytest.fail("mkdocs build --strict failed:\n" + _problems(log))
    return site


def _problems(log: str) -> str:
    lines = [ln for ln in log.splitlines() if re.search(r"WARNING|ERROR|Error|Traceback|Aborted", ln)]
    return "\n".join(lines[:60]) or log[-4000:]


# --------------------------------------------------------------------------- HTML helpers


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])  # type: ignore[arg-type]
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])  # type: ignore[arg-type]
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])  # type: ignore[arg-type]


@lru_cache(maxsize=None)
def scan(path: Path) -> _Scan:
    s = _Scan()
    s.feed(path.read_text(encoding="utf-8"))
    return s


def page(site: Path, url: str) -> Path:
    """The HTML file of a site URL (``games/exiles/`` -> ``games/exiles/index.html``)."""
    url = url.split("#")[0]
    return site / (url + "index.html" if url.endswith("/") or not url else url)


def resolve(site: Path, html_file: Path, href: str) -> tuple[Path, str] | None:
    """(target file, fragment) of an internal link, or None for an external one."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    base = html_file.parent.relative_to(site).as_posix()
    path = unquote(parts.path)
    if not path:
        target = html_file
    else:
        rel = posixpath.normpath(posixpath.join(base, path))
        target = site / rel
        if target.is_dir() or path.endswith("/"):
            target = target / "index.html"
    return target, unquote(parts.fragment)


def _setup() -> None:
    catalog()


# --------------------------------------------------------------------------- the build


def test_strict_build_passes_without_warnings(built_site: Path) -> None:
    _, log, seconds = build_site()
    warnings = [ln for ln in log.splitlines() if "WARNING" in ln or "ERROR" in ln]
    assert not warnings, "\n".join(warnings)
    assert (built_site / "index.html").is_file()
    assert seconds < 180, f"the site took {seconds:.0f} s to build"


def test_every_clause_ambiguity_and_term_has_its_anchor(built_site: Path) -> None:
    corpus = default_corpus()
    for cid, clause in corpus.clauses.items():
        ids = scan(page(built_site, f"games/{clause.game}/")).ids
        assert cid in ids, f"games/{clause.game}/ has no anchor #{cid}"
    register = scan(page(built_site, "ambiguities/")).ids
    for aid in corpus.ambiguities:
        assert aid in register, f"the register page has no anchor #{aid}"
    glossary = scan(page(built_site, "glossary/")).ids
    for tid in corpus.terms:
        assert tid in glossary, f"the glossary page has no anchor #{tid}"
    sources = scan(page(built_site, "sources/")).ids
    for text_id in corpus.texts:
        assert f"text-{text_id}" in sources and f"verbatim-{text_id}" in sources


def test_every_internal_link_reaches_a_page_and_an_anchor(built_site: Path) -> None:
    dead: list[str] = []
    for html_file in sorted(built_site.rglob("*.html")):
        if html_file.name == "404.html":
            continue  # its links are absolute, for any depth of missing URL
        for href in scan(html_file).links:
            found = resolve(built_site, html_file, href)
            if found is None:
                continue
            target, fragment = found
            where = html_file.relative_to(built_site).as_posix()
            if not target.exists():
                dead.append(f"{where}: {href} (no such file)")
            elif fragment and target.suffix == ".html" and fragment not in scan(target).ids:
                dead.append(f"{where}: {href} (no anchor #{fragment})")
    assert not dead, f"{len(dead)} dead links:\n" + "\n".join(dead[:40])


# --------------------------------------------------------------------------- clauses <-> code


def test_every_registered_function_names_existing_clauses() -> None:
    _setup()
    corpus = default_corpus()
    bad = [f"{impl.name} ({impl.file}:{impl.line}) implements unknown clause {c}"
           for impl in registry.implementations().values() for c in impl.clauses if c not in corpus.clauses]
    bad += [f"excuse for unknown clause {e.clause} ({e.module})" for e in registry.excuses().values()
            if e.clause not in corpus.clauses]
    assert not bad, "\n".join(bad)


def _api_url(module: str) -> str:
    """``replay.games.exiles`` -> ``reference/games/exiles/`` (a package's page is its folder's index)."""
    return "reference/" + "/".join(module.split(".")[1:]) + "/"


def _doc_block(html: str, anchor: str) -> str:
    """The HTML of the mkdocstrings block of the object whose heading has ``id=anchor``."""
    i = html.find(f'id="{anchor}"')
    assert i >= 0, f"no anchor {anchor}"
    nxt = html.find('<div class="doc doc-object', i)
    return html[i: nxt if nxt > 0 else len(html)]


def test_clauses_link_to_their_functions_and_functions_back_to_their_clauses(built_site: Path) -> None:
    _setup()
    corpus = default_corpus()
    impls = registry.implementations()
    problems: list[str] = []
    for impl in impls.values():
        api = page(built_site, _api_url(impl.module))
        if impl.name not in scan(api).ids:
            problems.append(f"{impl.name}: no API anchor on {api.relative_to(built_site)}")
            continue
        block = _doc_block(api.read_text(encoding="utf-8"), impl.name)
        for cid in impl.clauses:
            game = corpus.clauses[cid].game
            if not re.search(rf'href="[^"]*games/{re.escape(game)}/#{re.escape(cid)}"', block):
                problems.append(f"{impl.name}: its documentation has no link back to {cid}")
            game_html = page(built_site, f"games/{game}/")
            links = scan(game_html).links
            to_api = [h for h in links if h.endswith(f"#{impl.name}")]
            if not to_api:
                problems.append(f"{cid}: games/{game}/ has no link to {impl.name}")
            for h in to_api:
                target, fragment = resolve(built_site, game_html, h)  # type: ignore[misc]
                if target != api or fragment not in scan(target).ids:
                    problems.append(f"{cid}: the link {h} does not reach {impl.name}")
        src = page(built_site, f"source/{impl.file}/")
        if f"L{impl.line}-L{impl.end_line}" not in scan(src).ids:
            problems.append(f"{impl.name}: the source page has no range anchor L{impl.line}-L{impl.end_line}")
    assert not problems, "\n".join(problems[:50])


def test_clause_sections_say_implemented_by_and_tested_by(built_site: Path) -> None:
    from replay.trace.testindex import tagged_tests

    tests = tagged_tests(ROOT)
    corpus = default_corpus()
    for game in corpus.games:
        html = page(built_site, f"games/{game}/").read_text(encoding="utf-8")
        for clause in corpus.clauses_of(game):
            start = html.find(f'id="{clause.id}"')
            end = min([j for j in (html.find('<h3 id="', start + 1), html.find('<h4 id="', start + 1),
                                   html.find('<h2 id="', start + 1)) if j > 0] or [len(html)])
            section = html[start:end]
            assert "Implemented by" in section and "Tested by" in section, clause.id
            for t in tests.get(clause.id, []):
                assert f">{t.name}<" in section, f"{clause.id}: test {t.name} ({t.file}) is not listed"


def test_the_russian_clauses_carry_all_three_spellings(built_site: Path) -> None:
    corpus = default_corpus()
    html = page(built_site, "games/exiles/").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    for clause in corpus.clauses_of("exiles"):
        for layer in (clause.verbatim, corpus.diplomatic(clause.id), clause.normalized or ""):
            first = " ".join(layer.split()[:4])
            assert first in " ".join(text.split()), f"{clause.id}: {first!r} is not on the page"


def test_the_search_index_holds_every_spelling_and_splits_like_lunr_would(built_site: Path) -> None:
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["pipeline"] == [], "a trimmer, stemmer or stop-word filter breaks multilingual search"
    sep = re.compile(index["config"]["separator"])
    words: dict[str, set[str]] = {}
    for doc in index["docs"]:
        text = re.sub(r"<[^>]+>", " ", doc["text"] + " " + doc["title"])
        for w in sep.split(text.lower()):
            if w:
                words.setdefault(w, set()).add(doc["location"].split("#")[0])
    for word in ("koszulką", "wykładamy", "do", "мѣсто", "мђсто", "место", "вниманія", "смотрятъ", "exile"):
        assert word in words, f"{word!r} is not a token of the search index"
        assert any(loc.startswith("games/") for loc in words[word]), f"{word!r} is not indexed on a game page"


def test_what_the_site_repeats_is_in_the_search_index_once(built_site: Path) -> None:
    """An ambiguity entry is indexed in the register, a text's provenance on the sources page, and the citation
    sentence under every clause not at all: the game pages show them (in their clauses, their Provenance
    section) without indexing them again, so the index every page fetches is not three copies of them."""
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    corpus = default_corpus()

    def plain(t: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", t).split())

    docs = [(d["location"], plain(d["text"])) for d in index["docs"]]
    assert not [loc for loc, t in docs if "Cite this clause" in t]
    for aid in ("amb-ex-build-on-packets", "amb-pf-frame", "amb-zk-deal-timing", "amb-ns-two-kings"):
        problem = plain(corpus.ambiguities[aid].problem)[:60].split("`")[0]
        where = {loc.split("#")[0] for loc, t in docs if problem in t}
        assert where == {"ambiguities/"}, (aid, where)
    for tid, text in corpus.texts.items():
        summary = plain(text.provenance.summary)[:80].split("[")[0]
        where = {loc.split("#")[0] for loc, t in docs if summary in t}
        assert where == {"sources/"}, (tid, where)
    # and the pages still show them
    html = page(built_site, "games/exiles/").read_text(encoding="utf-8")
    assert "Cite this clause" in html and 'id="provenance"' in html and "amb-ex-build-on-packets" in html


def test_every_layout_is_drawn_and_every_example_replayed(built_site: Path) -> None:
    corpus = default_corpus()
    for lid in corpus.layouts:
        svg = built_site / "assets" / "layouts" / f"{lid}.svg"
        assert svg.is_file() and svg.read_text(encoding="utf-8").startswith("<svg"), lid
    from replay.site.data import find_examples

    examples = find_examples(ROOT)
    for e in examples:
        html = page(built_site, e.page[:-3] + "/")
        assert html.is_file(), e.rel
        n = len(e.data["moves"]) if isinstance(e.data, dict) else 0
        steps = html.read_text(encoding="utf-8").count('<section class="step"')
        assert steps == n + 1 or "refused" in html.read_text(encoding="utf-8"), f"{e.rel}: {steps} steps for {n} moves"
        assert (built_site / (e.page[:-3] + ".json")).read_bytes() == e.path.read_bytes()


def test_nothing_is_generated_into_docs() -> None:
    docs = ROOT / "docs"
    for sub in ("games", "reference", "source", "examples", "assets"):
        assert not (docs / sub).exists(), f"docs/{sub} must not exist: the site generates it"
    for name in ("ambiguities.md", "glossary.md", "sources.md"):
        assert not (docs / name).exists(), f"docs/{name} must not exist: the site generates it"
