"""The site generator's parts: escaping, ID links, tooltips, drawings, and that a dangling link fails a build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import markdown
import pytest
import yaml

from replay.corpus.loader import default_corpus
from replay.draw import svg
from replay.site import griffe_ext
from replay.site.games import mark_terms, words_with
from replay.site.links import Linker
from replay.site.text import blocks_out, esc, fence, link_ids, raw_block, rel

ROOT = Path(__file__).resolve().parents[1]


def _plain(md_text: str) -> str:
    html = markdown.markdown(md_text, extensions=["tables", "attr_list"])
    text = re.sub(r"<[^>]+>", "", html)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"')


@pytest.mark.parametrize("s", [
    "plain text",
    "*not emphasis* and _not either_ and **nor** __this__",
    "[not a link](x) and <b>not a tag</b> & an ampersand",
    "# not a heading",
    "1. not a list",
    "- not a list either",
    "`not code` and \\backslash\\",
    "{: .not-attributes } | pipes |",
    "Играя каждую карту, смотрятъ на ея численный порядокъ (№ 1)",
    "koszulką do dołu – „cztery kąty”",
])
def test_escaped_text_renders_as_itself(s: str) -> None:
    assert _plain(esc(s)).strip() == s


def test_docstring_fragments_keep_their_code() -> None:
    from replay.site.text import doc_md

    out = doc_md("Lock (``corpus/clause-ids.yaml``): *never* renumbered; see :class:`~replay.engine.errors.X` "
                 "and :func:`replay.games.create`.")
    assert out == ("Lock (`corpus/clause-ids.yaml`): \\*never\\* renumbered; see `X` and `replay.games.create`.")
    assert _plain(out) == "Lock (corpus/clause-ids.yaml): *never* renumbered; see X and replay.games.create."


def test_ids_in_prose_become_links_only_when_known() -> None:
    known = {"zk-8": "games/zk.md#zk-8", "amb-zk-figure": "ambiguities.md#amb-zk-figure"}
    out = link_ids(esc("see zk-8 and amb-zk-figure, not zk-999 nor amb-zk-figure-x"), known.get)
    assert "[zk-8](games/zk.md#zk-8)" in out
    assert "[amb-zk-figure](ambiguities.md#amb-zk-figure)" in out
    assert "zk-999" in out and "[zk-999]" not in out and "[amb-zk-figure-x]" not in out
    assert link_ids("`zk-8` in code", known.get) == "`zk-8` in code"


def test_relative_links_between_pages() -> None:
    assert rel("games/exiles.md", "ambiguities.md") == "../ambiguities.md"
    assert rel("index.md", "games/exiles.md") == "games/exiles.md"
    assert rel("reference/games/exiles.md", "source/replay/games/exiles.py.md") == \
        "../../source/replay/games/exiles.py.md"


def test_glossary_tooltips_wrap_whole_words_longest_first() -> None:
    words = {"karty": "card", "karty podstawowe": "foundation cards", "as": "ace"}
    out = mark_terms("To są karty podstawowe, karty i asy.", words)
    assert out.count("<abbr") == 2
    assert '<abbr title="foundation cards" tabindex="0">karty podstawowe</abbr>' in out  # reachable by keyboard
    assert '<abbr title="card" tabindex="0">karty</abbr> i asy' in out
    assert words_with("Na asy zbieramy karty, kartę", "kart") == {"karty", "kartę"}
    assert words_with("w porządku rosnącym, w rząd", "rząd") == {"rząd"}  # never a piece of a word


def test_fence_holds_any_text() -> None:
    text = "a ``` b ```` c\n"
    block = fence(text)
    assert block.startswith("`````text\n") and text in block


def test_raw_blocks_are_kept_out_of_markdown() -> None:
    md_text = "# T\n\n" + raw_block('<div id="a">x</div>') + "\n\ntext\n\n" + raw_block("<p>y</p>")
    out, blocks = blocks_out(md_text)
    assert "raw-html" not in out and len(blocks) == 2
    assert list(blocks.values()) == ['<div id="a">x</div>', "<p>y</p>"]
    assert all(k in out for k in blocks)


def test_layout_drawings_are_deterministic_and_complete() -> None:
    from replay.corpus.edition import default_edition

    for spec in default_edition().layouts.values():
        one = svg.layout_svg(spec, suits={"A1": "S"})
        assert one == svg.layout_svg(spec, suits={"A1": "S"})
        assert one.startswith("<svg") and one.rstrip().endswith("</svg>")
        for p in spec.piles:
            assert f'data-name="{p.name}"' in one
        for f in spec.foundations:
            assert f'data-name="{f.name}"' in one
        for i, name in enumerate(spec.deal, start=1):
            assert f">{i}</text>" in one, f"{spec.id}: deal number {i} ({name}) is not drawn"
        for p in spec.piles:
            if p.label:
                assert f'class="label">{p.label}</text>' in one


def test_table_drawing_marks_the_move() -> None:
    out = svg.table_svg(["p1", "A1", "stock"], ["tableau", "foundation", "stock"], [0, 0, 1], [0, 1, 0],
                        {"p1": ["TH", "QS"], "A1": ["AS"], "stock": ["2C"] * 5}, src="p1", dst="A1")
    assert 'class="pile role-tableau src"' in out and 'class="pile role-foundation dst"' in out
    assert "Q♠" in out and "A♠" in out and ">5<" in out


def test_griffe_extension_writes_clause_back_links_and_demotes_roles() -> None:
    line = griffe_ext.implements_line(("zk-8", "zk-7"), "rule", "replay.games.x.f", 10, 20)
    assert "[zk-8][zk-8]" in line and "[zk-7][zk-7]" in line
    assert "[source, lines 10–20][source:replay.games.x.f]" in line
    assert griffe_ext._demote_roles("raises :class:`~replay.engine.errors.IllegalMove` or "
                                    ":func:`replay.games.create`") == \
        "raises `IllegalMove` or `replay.games.create`"


def test_links_to_repository_files_become_links_to_the_site() -> None:
    from replay.site import build
    from replay.site.data import SiteData

    d = SiteData.collect()
    gen = build.Generated()
    gen.files[d.source_page("replay/log/models.py")] = ""
    fix = lambda t: build.repo_target(d, gen, "log-format.md", t)  # noqa: E731
    assert fix("../examples/games/") == "examples/index.md"
    assert fix("../examples/broken/") == "examples/index.md#broken-logs"
    assert fix("../replay/log/models.py") == "source/replay/log/models.py.md"
    assert fix("games/exiles.md#ex-1") is None and fix("https://example.org/") is None
    if d.examples:
        e = d.examples[0]
        assert fix("../" + e.rel) == e.page


def test_linker_points_at_the_clause_anchor() -> None:
    from replay.site.data import SiteData

    d = SiteData.collect()
    link = Linker(d, "games/zwarta-kolumna.md")
    assert link.clause("zk-8") == "#zk-8"
    assert link.clause("ex-3") == "exiles.md#ex-3"
    assert Linker(d, "ambiguities.md").clause("ex-3") == "games/exiles.md#ex-3"
    assert link.source("replay/games/zwarta_kolumna.py", 3, 9) == "../source/replay/games/zwarta_kolumna.py.md#L3-L9"


# --------------------------------------------------------------------------- dangling links fail a build


def _mini_build(tmp_path: Path, pages: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A strict build of a tiny project with the site's validation settings and autorefs."""
    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config = {
        "site_name": "dangling",
        "docs_dir": "docs",
        "theme": {"name": "mkdocs"},
        "validation": ours["validation"],
        "plugins": ["autorefs"],
        "markdown_extensions": ["attr_list", "toc"],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (tmp_path / "docs").mkdir()
    for name, text in pages.items():
        (tmp_path / "docs" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)


def test_the_mini_project_builds_when_every_link_holds(tmp_path: Path) -> None:
    proc = _mini_build(tmp_path, {
        "index.md": "# Game\n\n## zk-1 · rule {#zk-1}\n\nSee [zk-1](index.md#zk-1) and [zk-1][zk-1].\n",
    })
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_clause_linking_to_a_missing_function_fails_the_build(tmp_path: Path) -> None:
    proc = _mini_build(tmp_path, {
        "index.md": "# Game\n\n## zk-1 · rule {#zk-1}\n\n**Implemented by** "
                    + Linker.code_ref("replay.games.zwarta_kolumna.no_such_function") + "\n",
    })
    assert proc.returncode != 0
    assert "replay.games.zwarta_kolumna.no_such_function" in proc.stdout + proc.stderr


def test_a_function_linking_to_a_missing_clause_fails_the_build(tmp_path: Path) -> None:
    proc = _mini_build(tmp_path, {
        "index.md": "# Game\n\n## zk-1 · rule {#zk-1}\n",
        "api.md": "# API\n\n" + griffe_ext.implements_line(("zk-1", "zk-999"), "rule", "m.f", 1, 2)
                  .replace("[source, lines 1–2][source:m.f]", "") + "\n",
    })
    assert proc.returncode != 0
    assert "zk-999" in proc.stdout + proc.stderr


def test_a_relative_link_to_a_missing_anchor_fails_the_build(tmp_path: Path) -> None:
    proc = _mini_build(tmp_path, {
        "index.md": "# Game\n\n## zk-1 · rule {#zk-1}\n",
        "ambiguities.md": "# Register\n\nClauses: [zk-99](index.md#zk-99)\n",
    })
    assert proc.returncode != 0
    assert "zk-99" in proc.stdout + proc.stderr


def test_a_clause_with_an_english_witness_shows_it_beside_the_translation_with_its_source() -> None:
    from replay.site.data import SiteData
    from replay.site.games import game_page

    d = SiteData.collect()
    md = game_page(d, "zwarta-kolumna")
    block = md[md.index("### zk-8 "):md.index("### zk-9 ")]
    w = d.corpus.witnesses["cadogan-four-corners"]
    p = next(p for p in w.passages if p.clause == "zk-8")
    assert '<div class="clause-witness" lang="en"' in block and p.quote in block
    assert w.sources[p.source].url in block and "Departs from the English" in block
    unverified = md[md.index("### zk-15 "):md.index("### zk-16 ")]
    assert "not verified" in unverified and "clause-witness\"" not in unverified


def test_a_relative_witness_is_said_to_differ_not_to_be_departed_from() -> None:
    """Leoni's Own is cited for comparison: the Russian did not translate it, so it does not 'depart from the English'."""
    from replay.site.data import SiteData
    from replay.site.games import game_page

    d = SiteData.collect()
    md = game_page(d, "exiles")
    block = md[md.index("### ex-13 "):]
    note = next(ln for ln in block.splitlines() if "Leoni’s Own (Wikipedia; gamerules.com)" in ln)
    assert "**Where our text differs:**" in note and "Departs from the English" not in note
    assert "English Wikipedia, the article as read on 2026-12-01 (revision not recorded), “Leoni's Own”" in note


def test_glossary_words_are_marked_only_in_the_clauses_the_glossary_lists() -> None:
    """pf-5's "cztery kąty" are four corner cards, not the variant: the variant's tooltip stays off it."""
    from replay.site.data import SiteData
    from replay.site.games import glossary_words

    d = SiteData.collect()
    words = glossary_words(d, "printex-frame")
    assert not any("cztery" in w.lower() for w in words.get("pf-5", {}))
    marked = {cid for cid, ws in words.items() if any("cztery" in w.lower() for w in ws)}
    listed = {cid for t in d.corpus.terms.values() if t.art for f in t.forms
              if "cztery" in (f.match or f.form).lower() for cid in f.occurs}
    assert marked and marked <= listed


# --------------------------------------------------------------------------- the project root, citing (issues 23, 24)


def test_the_site_reads_the_project_at_its_configuration_and_the_corpus_the_package_ships(tmp_path, monkeypatch):
    """An installed copy (issue 23): the root is the MkDocs configuration's folder; without a corpus/ there the
    corpus is the package's own, and the code shown is the package imported (not the folder's)."""
    from replay.site.data import SiteData, code_root

    monkeypatch.delenv("REPLAY_CORPUS", raising=False)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    d = SiteData.collect(tmp_path)
    assert d.root == tmp_path.resolve()
    assert d.corpus.texts and d.corpus.root != tmp_path / "corpus"
    assert d.code == code_root() and "replay.games.exiles" in d.modules
    assert d.examples == []  # the folder has none
    assert d.tests  # read from the index shipped with the package (no tests/ in the folder)


def test_a_site_without_a_corpus_says_so_in_one_line(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy2(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    for hook in ("replay/site/hooks.py", "replay/site/compact.py"):
        text = text.replace(hook, str(ROOT / hook))
    (root / "mkdocs.yml").write_text(text.replace("watch:\n  - corpus\n  - examples\n", ""), encoding="utf-8")
    (tmp_path / "empty").mkdir()
    env = {**os.environ, "REPLAY_CORPUS": str(tmp_path / "empty"), "NO_MKDOCS_2_WARNING": "1"}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml"), "-d",
                        str(tmp_path / "out")], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "KeyError" not in r.stderr
    said = [ln for ln in r.stderr.splitlines() if "replay site:" in ln]
    assert len(said) == 1 and "holds no texts" in said[0], r.stderr


def test_a_clause_citation_carries_its_url_only_when_the_site_has_one() -> None:
    from replay.corpus.licence import release_date
    from replay.site.about import cite_line
    from replay.site.data import SiteData

    d = SiteData.collect()
    link = Linker(d, "games/zwarta-kolumna.md")
    without = cite_line(d, "zk-8", link)
    assert "clause zk-8" in without and "no public address" in without and "http" not in without
    d.site_url = "https://rules.example/replay/"
    with_url = cite_line(d, "zk-8", link)
    assert "<https://rules.example/replay/games/zwarta-kolumna/#zk-8>" in with_url
    assert "no public address" not in with_url
    assert f"version {d.facts.version}" in with_url and d.facts.date in with_url
    assert d.facts.commit and f"commit {d.facts.commit}" in with_url and f"commit {d.facts.commit}" in without
    released = release_date(d.corpus, d.facts.version)
    assert (f"; released {released})" if released else "; not yet released)") in without


def test_the_citation_file_dates_a_released_version_as_the_record_does() -> None:
    """CITATION.cff's date-released is the release's day in corpus/changes.yaml (CHANGES.md's heading), and a
    version not yet released has none: a scholar cites a version that exists."""
    from replay.corpus.loader import load

    from replay.corpus.licence import release_date

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    released = release_date(load(), str(cff["version"]))
    assert (str(cff["date-released"]) if "date-released" in cff else None) == released
    heading = f"## {cff['version']} ({released})" if released else f"## {cff['version']} (unreleased)"
    assert heading in (ROOT / "CHANGES.md").read_text(encoding="utf-8")


def test_the_citation_file_names_this_version_and_both_licences() -> None:
    import tomllib

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "dataset"
    assert str(cff["version"]) == project["version"]
    assert set(cff["license"]) == set(project["license"].split(" AND "))
    assert all(k in cff for k in ("title", "message", "authors"))


def test_the_licence_page_is_read_from_the_licence_files() -> None:
    from replay.site.about import licence_page
    from replay.site.data import SiteData

    d = SiteData.collect()
    page = licence_page(d)
    for line in (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines() + \
            (ROOT / "corpus" / "LICENSE").read_text(encoding="utf-8").splitlines():
        assert line in page
    for tid in d.corpus.texts:
        assert f"Text {tid}]" in page and "*not stated*" not in page


def test_a_corpus_folder_that_is_not_there_is_one_line(tmp_path, monkeypatch):
    from replay.engine.errors import CorpusError
    from replay.site.data import corpus_root

    monkeypatch.setenv("REPLAY_CORPUS", str(tmp_path / "nowhere"))
    with pytest.raises(CorpusError, match=r"^replay site: REPLAY_CORPUS='.*nowhere': does not exist$"):
        corpus_root(tmp_path)
    monkeypatch.setenv("REPLAY_CORPUS", str(tmp_path))
    assert corpus_root(tmp_path / "elsewhere") == tmp_path


# --------------------------------------------------------------------------- accessibility (issue 31)


def test_the_search_dialog_and_the_index_sections_of_the_navigation_are_named() -> None:
    """Material's search dialog and the <nav> of a section with an index page (named by an icon-only label)
    are given names; a section that has one already is left alone (tests/test_site_axe.py runs axe)."""
    from replay.site.hooks import named_landmarks

    html = textwrap.dedent("""\
        <div class="md-search" data-md-component="search" role="dialog">
        <div class="md-nav__link md-nav__container">
          <a href="play/" class="md-nav__link "><span class="md-ellipsis">
            Play &amp; watch
          </span></a>
          <label class="md-nav__link " for="__nav_4" id="__nav_4_label" tabindex="">
            <span class="md-nav__icon md-icon"></span></label>
        </div>
        <nav class="md-nav" data-md-level="1" aria-labelledby="__nav_4_label" aria-expanded="false">
        <nav class="md-nav" data-md-level="1" aria-labelledby="__nav_5_label" aria-expanded="false">
        """)
    out = named_landmarks(html)
    assert '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">' in out
    assert '<nav class="md-nav" data-md-level="1" aria-label="Play &amp; watch" aria-expanded="false">' in out
    assert 'aria-labelledby="__nav_5_label"' in out  # a section whose label holds its title
    assert named_landmarks(out) == out


def test_a_pinned_package_is_fetched_checked_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """runtime.fetched, by which both Pyodide and axe-core are had: checked against the pin file's hash, kept
    in its folder of the cache and taken from there without the tarball; a tarball not the pinned one is
    refused, naming the pin file."""
    import io
    import json
    import tarfile

    from replay.site import runtime

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in {"axe.min.js": b"/*! axe v0.0.1 */", "LICENSE": b"MPL"}.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    tarball = tmp_path / "axe.tgz"
    tarball.write_bytes(out.getvalue())
    pin_file = tmp_path / "some-checker.json"
    pin = {"package": "axe-core", "version": "0.0.1", "integrity": runtime.integrity_of(out.getvalue()),
           "license": "MPL-2.0", "files": ["axe.min.js", "LICENSE"]}
    pin_file.write_text(json.dumps(pin))
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("REPLAY_PYODIDE_TARBALL", str(tarball))
    files = runtime.fetched(pin_file, "checker", "REPLAY_PYODIDE_TARBALL")
    assert files == {"axe.min.js": b"/*! axe v0.0.1 */", "LICENSE": b"MPL"}
    assert next((tmp_path / "cache" / "checker").iterdir()).name.startswith("axe-core-0.0.1-")
    monkeypatch.delenv("REPLAY_PYODIDE_TARBALL")
    monkeypatch.setenv("PATH", str(tmp_path / "no-npm-here"))
    assert runtime.fetched(pin_file, "checker") == files  # from the cache: no npm, no tarball
    with pytest.raises(runtime.Unavailable, match="some-checker.json needs axe-core@0.0.1 .* npm is not installed"):
        runtime.fetched(pin_file, "elsewhere")
    pin_file.write_text(json.dumps({**pin, "integrity": runtime.integrity_of(b"another")}))
    monkeypatch.setenv("REPLAY_PYODIDE_TARBALL", str(tarball))
    with pytest.raises(runtime.Unavailable, match=r"not the pinned .*\(some-checker.json\): refused"):
        runtime.fetched(pin_file, "checker", "REPLAY_PYODIDE_TARBALL")
