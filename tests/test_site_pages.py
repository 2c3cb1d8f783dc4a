"""No page or anchor of the rules site is lost (issue 33: the site made smaller must keep every page).

The built site (:func:`tests.test_site.built_site`) must hold exactly the pages the corpus, the examples and
the code call for: a page for every game, text, example log, documented module and source file, every
hand-written page of ``docs/``, and nothing else; and on them the anchors that links point at: each clause
on its game's page, each move of an example (``#move-0`` … the refused one), each line of a source file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replay.site import build
from replay.site.data import SiteData
from tests.test_site import ROOT, built_site  # noqa: F401 - the site built once per session


def _html_of(uri: str) -> str:
    """The file MkDocs writes a page ``uri`` to (``use_directory_urls``)."""
    stem = uri[:-3]
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


@pytest.fixture(scope="module")
def expected() -> tuple[SiteData, build.Generated]:
    d = SiteData.collect(ROOT)
    return d, build.generate(d)


def _ids(path: Path) -> set[str]:
    """Every id of a page, as an HTML parser reads them (quoted or not: the listings' lines are unquoted)."""
    from html.parser import HTMLParser

    found: set[str] = set()

    class Ids(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.update(v for k, v in attrs if k == "id" and v)

    Ids().feed(path.read_text(encoding="utf-8"))
    return found


def test_the_built_pages_are_exactly_those_the_corpus_and_code_call_for(built_site: Path,  # noqa: F811
                                                                        expected) -> None:  # type: ignore[no-untyped-def]
    d, gen = expected
    called = {d.game_page(g) for g in d.corpus.games}
    called |= {d.module_page(m) for m in d.modules}
    called |= {d.source_page(f) for f in d.source_files}
    called |= {r.example.page for r in gen.examples}
    generated = {u for u in gen.files if u.endswith(".md")}
    assert called <= generated, sorted(called - generated)
    written = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    want = {_html_of(u) for u in generated | written} | {"404.html"}
    built = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")}
    assert built - want == set(), sorted(built - want)[:20]
    assert want - built == set(), sorted(want - built)[:20]
    assert len(d.corpus.texts) and all(any(f"texts/{t}" in u for u in generated) for t in d.corpus.texts)


def test_every_clause_move_and_source_line_keeps_its_anchor(built_site: Path, expected) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    d, gen = expected
    for g in d.corpus.games:
        ids = _ids(built_site / _html_of(d.game_page(g)))
        missing = [c.id for c in d.clauses_of(g) if c.id not in ids]
        assert not missing, (g, missing)
    for r in gen.examples:
        ids = _ids(built_site / _html_of(r.example.page))
        if r.error:
            continue
        steps = len(r.view.steps) + (r.view.refused is not None)
        missing = [k for k in range(steps) if f"move-{k}" not in ids]
        assert not missing, (r.example.page, missing[:5])
    for f in d.source_files:
        ids = _ids(built_site / _html_of(d.source_page(f)))
        n = len(d.file(f).read_text(encoding="utf-8").splitlines())
        missing = [k for k in range(1, n + 1) if f"L{k}" not in ids]
        assert not missing, (f, missing[:5])
        for i in d.impls.values():
            if i.file == f:
                assert f"L{i.line}-L{i.end_line}" in ids, (f, i.name)


def test_every_source_page_shows_its_file_line_for_line(built_site: Path, expected) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The listing, its tags taken away, is the file: the spans left out of the plain tokens (issue 33) lose no text."""
    import html

    d, _ = expected
    line = re.compile(r'<span id=L(\d+)><a href=#L\d+>\d+</a>(.*)$', re.M)
    for f in d.source_files:
        page = (built_site / _html_of(d.source_page(f))).read_text(encoding="utf-8")
        shown = {int(m.group(1)): html.unescape(re.sub(r"<[^>]+>", "", m.group(2))) for m in line.finditer(page)}
        want = d.file(f).read_text(encoding="utf-8").splitlines()
        assert [shown.get(k) for k in range(1, len(want) + 1)] == [w or " " for w in want], f
