"""Assemble the generated site: every page and asset, and the navigation.

:func:`generate` returns ``{src_uri: content}`` for everything generated from the
corpus and the code; :func:`navigation` builds the ``nav`` around it, listing the
hand-written pages of ``docs/`` that exist (pages owned by others, such as
``log-format.md`` or ``stats.md``, are listed only when present).
"""

from __future__ import annotations

import logging
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay.corpus.edition import layout_plan
from replay.draw.svg import layout_svg
from replay.site import changes
from replay.site import examples as ex
from replay.site import about, games, play, reference, register
from replay.site.data import AMBIGUITIES_PAGE, GLOSSARY_PAGE, SOURCES_PAGE, SiteData
from replay.site.text import blocks_out

log = logging.getLogger("mkdocs.plugins.replay")


@dataclass
class Generated:
    """The output of one generation run."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    not_in_nav: set[str] = field(default_factory=set)
    #: autorefs identifiers to register: page src_uri -> [(identifier, anchor)]
    anchors: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    examples: list[ex.Replayed] = field(default_factory=list)
    #: large HTML blocks, kept out of the Markdown parser: page src_uri -> {placeholder: html}
    blocks: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, uri: str, content: str | bytes, *, in_nav: bool = True) -> None:
        if uri in self.files:
            raise ValueError(f"the site generator made {uri} twice")
        if isinstance(content, str):
            content, blocks = blocks_out(content)
            if blocks:
                self.blocks[uri] = blocks
        self.files[uri] = content
        if not in_nav:
            self.not_in_nav.add(uri)


def generate(d: SiteData) -> Generated:
    out = Generated()
    for gid in d.game_order:
        out.add(d.game_page(gid), games.game_page(d, gid))
        for spec in games.layouts_of(d, gid):
            try:
                suits = games.foundation_suits(d, spec)
            except Exception as e:  # noqa: BLE001 - draw the layout anyway, but say so
                log.warning("replay site: the engine cannot set up %s for layout %s: %s", gid, spec.id, e)
                suits = {}
            out.add(d.layout_asset(spec.id), layout_svg(layout_plan(spec), suits=suits))
    for uri, content, in_nav in play.pages(d):
        out.add(uri, content, in_nav=in_nav)
    out.add(AMBIGUITIES_PAGE, register.ambiguities_page(d))
    out.add(GLOSSARY_PAGE, register.glossary_page(d))
    out.add(SOURCES_PAGE, register.sources_page(d))
    out.add(register.COVERAGE_PAGE, register.coverage_page(d))
    out.add(changes.CHANGES_PAGE, changes.site_page(d))
    for t in d.corpus.texts.values():  # the verbatim files, byte for byte, to download
        out.add(register.source_download(t.file), (d.corpus.root / t.file).read_bytes(), in_nav=False)
        out.add(about.text_page_uri(t.id), about.text_page(d, t.id))  # the text run on, and its TEI document
        out.add(about.tei_uri(t.id), about.tei_bytes(d, t.id), in_nav=False)
    out.add(about.LICENCE_PAGE, about.licence_page(d))
    for schema in sorted((d.corpus.root / "schema").glob("*.schema.json")):  # for contributors' editors
        out.add(f"schema/corpus/{schema.name}", schema.read_bytes(), in_nav=False)
    # code
    for module in d.modules:
        if module == "replay":
            continue
        out.add(d.module_page(module), reference.api_page(d, module))
    out.add("reference/index.md", reference.reference_index(d))
    out.add("source/index.md", reference.source_index(d))
    for path in d.source_files:
        uri = d.source_page(path)
        out.add(uri, reference.source_page(d, path), in_nav=False)
        out.anchors[uri] = [(f"source:{i.name}", f"L{i.line}-L{i.end_line}")
                            for i in d.impls.values() if i.file == path]
    # example games
    for example in d.examples:
        r = ex.replay_example(d, example)
        out.examples.append(r)
        out.add(example.page, ex.example_page(d, r))
        out.add(example.page[:-3] + ".json", example.path.read_bytes(), in_nav=False)
    out.add(ex.INDEX, ex.examples_index(d, out.examples, ex.broken_reports(d)))
    from replay.view.render import script, style

    out.add(ex.VIEWER_JS, script(), in_nav=False)
    out.add(ex.VIEWER_CSS, style(), in_nav=False)
    return out


def _title(d: SiteData, gid: str) -> str:
    return d.corpus.games[gid].title


def navigation(d: SiteData, gen: Generated, docs_dir: Path, present: set[str]) -> list[Any]:
    """The ``nav``: hand-written pages when they exist, generated pages always.

    ``present`` is every documentation page MkDocs knows (hand-written and generated).
    Pages in ``docs/`` that the plan below does not name are listed under "More".
    """
    def have(uri: str) -> bool:
        return uri in present

    nav: list[Any] = []
    if have("index.md"):
        nav.append({"Home": "index.md"})
    if have("start.md"):
        nav.append({"Start here": "start.md"})
    nav.append({"Games": [{_title(d, g): d.game_page(g)} for g in d.game_order]})
    nav.append({"Play": [{"Every game": play.INDEX}] + [{_title(d, g): play.play_page(g)} for g in d.game_order]})
    nav.append({"Ambiguity register": AMBIGUITIES_PAGE})
    nav.append({"Glossary": GLOSSARY_PAGE})
    nav.append({"Sources": [{"Sources": SOURCES_PAGE}]
                + [{f"Text {t}: {d.corpus.texts[t].title}": about.text_page_uri(t)} for t in d.corpus.texts]})
    nav.append({"Coverage": register.COVERAGE_PAGE})
    log_section: list[Any] = []
    if have("log-format.md"):
        log_section.append({"The log format": "log-format.md"})
    log_section += [{"Changes to the rules": changes.CHANGES_PAGE}, {"Example games": ex.INDEX}]
    by_game: dict[str, list[Any]] = {}
    for r in gen.examples:
        e = r.example
        label = f"{e.form} · {e.name}"
        by_game.setdefault(e.game, []).append({label: e.page})
    for gid in [*d.game_order, *sorted(set(by_game) - set(d.game_order))]:
        if gid in by_game:
            title = _title(d, gid) if gid in d.corpus.games else gid
            log_section.append({f"Examples: {title}": by_game[gid]})
    nav.append({"Logs and examples": log_section})
    if have("stats.md"):
        nav.append({"Statistics": "stats.md"})
    if have("cli.md"):
        nav.append({"Command line": "cli.md"})
    if have("contributing.md"):
        nav.append({"Contributing": "contributing.md"})
    nav.append({"Licences and citation": about.LICENCE_PAGE})
    ref: list[Any] = [{"Overview": "reference/index.md"}]
    groups: dict[str, list[Any]] = {}
    for m in d.modules:
        if m == "replay":
            continue
        parts = m.split(".")
        group = parts[1] if len(parts) > 1 else m
        groups.setdefault(group, []).append({m: d.module_page(m)})
    for group, items in groups.items():
        ref.append({f"replay.{group}": items} if len(items) > 1 else items[0])
    nav.append({"Code reference": ref})
    nav.append({"Source code": "source/index.md"})
    named = set(_pages_in(nav))
    others = sorted(u for u in present if u not in named and u not in gen.not_in_nav)
    if others:
        nav.append({"More": others})
    return nav


def _pages_in(nav: Any) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [p for v in nav.values() for p in _pages_in(v)]
    if isinstance(nav, list):
        return [p for v in nav for p in _pages_in(v)]
    return []


# --------------------------------------------------------------------------- the home page


def holdings(d: SiteData) -> str:
    """The table of what the archive holds, for the home page."""
    rows = ["| Game | Text | Clauses | Variants | Ambiguities | Rule functions | Tagged tests | Examples |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for gid in d.game_order:
        g = d.corpus.games[gid]
        cl = d.clauses_of(gid)
        impls = {i.name for c in cl for i in d.by_clause.get(c.id, [])}
        tests = {(t.file, t.name) for c in cl for t in d.tests.get(c.id, [])}
        n_ex = sum(1 for e in d.examples if e.game == gid)
        rows.append(f"| [{g.title}]({d.game_page(gid)}) | [{g.text}]({SOURCES_PAGE}#text-{g.text}) | {len(cl)} | "
                    f"{len(g.variants)} | {len(d.corpus.ambiguities_of_game(gid))} | {len(impls)} | {len(tests)} | "
                    f"{n_ex} |")
    total = (f"\n{len(d.corpus.texts)} source texts, {len(d.corpus.clauses)} clauses, "
             f"{len(d.corpus.ambiguities)} entries in the [ambiguity register]({AMBIGUITIES_PAGE}), "
             f"{len(d.corpus.terms)} [glossary]({GLOSSARY_PAGE}) terms, {len(d.corpus.layouts)} layout "
             f"reconstructions, {len(d.impls)} rule functions and {len(d.examples)} "
             f"[example games](examples/index.md).\n")
    return "\n".join(rows) + "\n" + total


def stats_curves(d: SiteData) -> str:
    """The statistics page's figure, drawn at build from the data file (:mod:`replay.solver.figure`)."""
    from replay.solver.figure import curves_svg

    svg = curves_svg(d.stats) if d.stats else ""
    if not svg:
        return "*(The figure is drawn from `data/stats/results.json`, which this build does not have.)*"
    return '<div class="rs-figure">' + svg.replace("\n", "") + "</div>"


PLACEHOLDERS = {"<!-- replay:holdings -->": holdings, "<!-- replay:stats-curves -->": stats_curves}

#: the browser Play pages' index (replay.site.play; linked only where it exists)
PLAY_PAGE = play.INDEX


def play_link(page_uri: str, present: set[str]) -> str:
    """A sentence pointing to the browser Play page, or one saying it is not there yet."""
    if PLAY_PAGE in present:
        return (f"**In the browser**, without installing anything: [the Play page]({posixpath.relpath(PLAY_PAGE, posixpath.dirname(page_uri) or '.')}) "
                "deals and plays a game under the rules of the texts.")
    return ("*(A page to play in the browser, without installing anything, is being built; until it is here, "
            "play in the terminal as below.)*")


def fill_placeholders(markdown: str, d: SiteData, page_uri: str = "index.md", present: set[str] | None = None) -> str:
    for key, fn in PLACEHOLDERS.items():
        if key in markdown:
            markdown = markdown.replace(key, fn(d))
    if "<!-- replay:play -->" in markdown:
        markdown = markdown.replace("<!-- replay:play -->", play_link(page_uri, present or set()))
    return markdown


# --------------------------------------------------------------------------- links out of docs/

_MD_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def repo_target(d: SiteData, gen: Generated, page_uri: str, target: str) -> str | None:
    """Where the site shows a repository path that a hand-written page links to, or None.

    Hand-written pages may link to files of the repository outside ``docs/`` (``../examples/games/``,
    ``../replay/log/models.py``); on the site those become links to the pages that show them:
    the example-games index (its "Broken logs" section for ``examples/broken``), an example's
    page, or a source page.
    """
    if "://" in target or target.startswith(("#", "/", "mailto:")):
        return None
    path, _, anchor = target.partition("#")
    full = posixpath.normpath(posixpath.join("docs", posixpath.dirname(page_uri), path))
    if full == "docs" or full.startswith("docs/"):
        return None
    to: str | None = None
    if full.startswith("examples/"):
        name = full[len("examples/"):]
        page = next((e.page for e in d.examples if e.rel == full), None)
        if page:
            to = page
        elif name.startswith("broken"):
            to, anchor = ex.INDEX, "broken-logs"
        else:
            to = ex.INDEX
    elif d.source_page(full) in gen.files:
        to = d.source_page(full)
    if to is None:
        return None
    rel = posixpath.relpath(to, posixpath.dirname(page_uri) or ".")
    return f"{rel}#{anchor}" if anchor else rel


def fix_repo_links(markdown: str, d: SiteData, gen: Generated, page_uri: str) -> str:
    def repl(m: re.Match[str]) -> str:
        new = repo_target(d, gen, page_uri, m.group(2))
        return m.group(0) if new is None else f"{m.group(1)}{new}{m.group(3)}"

    return _MD_LINK.sub(repl, markdown)
