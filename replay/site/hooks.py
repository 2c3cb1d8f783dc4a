"""MkDocs hooks (``hooks: [replay/site/hooks.py]`` in ``mkdocs.yml``): generate the site on the fly.

* ``on_files``: gather the corpus, the clause registry, the tagged tests and the
  example logs (:class:`replay.site.data.SiteData`), add every generated page and
  asset as a virtual file (``File.generated``), and build the ``nav``.
* ``on_page_markdown``: fill the placeholders of hand-written pages (the home page's
  table of holdings), point their links to repository files outside ``docs/`` at the
  pages that show them (``../examples/games/`` -> the example games), and register with autorefs the line ranges of the rule functions
  on the source pages (``source:<dotted name>``), which the API pages link to.
* ``on_post_page`` and ``on_post_template`` (the 404 page): name what the theme leaves unnamed for assistive
  technology (:func:`named_landmarks`).

Nothing is written into ``docs/``: the generated pages exist only in the build.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

from replay.site import build
from replay.site.data import SiteData

log = logging.getLogger("mkdocs.plugins.replay")

_state: dict[str, Any] = {}


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    started = time.perf_counter()
    from replay.engine.errors import CorpusError

    try:  # the project is the configuration's folder, wherever the package is installed
        d = SiteData.collect(Path(config["config_file_path"]).resolve().parent)
    except CorpusError as e:
        raise PluginError(str(e)) from None
    d.site_url = config.get("site_url") or None
    from replay.site.runtime import Unavailable

    try:
        gen = build.generate(d)
    except Unavailable as e:  # the Play pages' runtime (npm, the pinned hash): one line, not a traceback
        raise PluginError(f"replay site: {e}") from None
    for uri, content in gen.files.items():
        written = files.get_file_from_path(uri)
        if written is not None:
            log.warning("replay site: docs/%s exists but the site generates it; remove the file", uri)
            files.remove(written)
        inclusion = InclusionLevel.NOT_IN_NAV if uri in gen.not_in_nav else InclusionLevel.UNDEFINED
        files.append(File.generated(config, uri, content=content, inclusion=inclusion))
    present = {f.src_uri for f in files.documentation_pages()}
    config["nav"] = build.navigation(d, gen, config["docs_dir"], present)
    _state.update(data=d, generated=gen)
    log.info("replay site: generated %d files in %.1f s", len(gen.files), time.perf_counter() - started)
    return files


def on_config(config: Any, **kwargs: Any) -> Any:
    """The edition's version and date in every page's footer (Material shows ``copyright`` there)."""
    from replay.site.about import edition_facts, footer

    if not config.get("copyright"):
        config["copyright"] = footer(edition_facts(Path(config["config_file_path"]).resolve().parent))
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    d: SiteData | None = _state.get("data")
    gen: build.Generated | None = _state.get("generated")
    if d is None or gen is None:
        return markdown
    uri = page.file.src_uri
    anchors = gen.anchors.get(uri)
    if anchors:
        autorefs = _autorefs(config)
        if autorefs is not None:
            for identifier, anchor in anchors:
                autorefs.register_anchor(page, identifier, anchor, primary=True)
    if uri not in gen.files:
        markdown = build.fill_placeholders(markdown, d, uri, {f.src_uri for f in files.documentation_pages()})
        markdown = build.fix_repo_links(markdown, d, gen, uri)
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    """Put the large raw HTML blocks back (see :func:`replay.site.build.blocks_out`)."""
    gen: build.Generated | None = _state.get("generated")
    blocks = gen.blocks.get(page.file.src_uri) if gen else None
    if not blocks:
        return html
    for key, block in blocks.items():
        if key not in html:
            log.warning("replay site: %s lost a generated block (%s)", page.file.src_uri, key)
            continue
        html = html.replace(key, block, 1)
        if page.present_anchor_ids is not None:
            page.present_anchor_ids.update(q or u for q, u in _ID.findall(block))
    return html


_ID = re.compile(r'\sid=(?:"([^"]+)"|([^\s"\'=<>`]+))')  # quoted, or unquoted (a source listing's lines)


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    return named_landmarks(output)


def on_post_template(output_content: str, template_name: str, config: Any, **kwargs: Any) -> str:
    """The theme's pages made of a template alone (``404.html``) are named as the others are."""
    return named_landmarks(output_content) if template_name.endswith(".html") else output_content


#: Material's search box: a dialog without a name (axe: aria-dialog-name)
_SEARCH_DIALOG = re.compile(r'<div class="md-search" data-md-component="search" role="dialog"(?![^>]*aria-label)')
#: a section of the navigation that has an index page: the link to the page, then the toggle that opens the
#: section, a <label> holding only an icon, by which the section's <nav> is named (aria-labelledby): an empty
#: name, and two such sections' landmarks alike (axe: landmark-unique)
_SECTION_TOGGLE = re.compile(
    r'<div class="md-nav__link md-nav__container">\s*<a\b[^>]*>(?P<title>.*?)</a>\s*'
    r'<label class="md-nav__link[^"]*" for="(?P<for>[^"]+)" id="(?P=for)_label"', re.DOTALL)
_NAV_NAMED_BY = re.compile(r'(<nav class="md-nav"[^>]*?) aria-labelledby="(?P<label>[^"]+)_label"')
_TAG = re.compile(r"<[^>]+>")


def named_landmarks(html: str) -> str:
    """The page with the search dialog named "Search" and the ``<nav>`` of each navigation section that has
    an index page named by the section's title (``aria-label``, for the empty label it was named by)."""
    from html import escape, unescape

    html = _SEARCH_DIALOG.sub(lambda m: m.group(0) + ' aria-label="Search"', html)
    titles = {}
    for m in _SECTION_TOGGLE.finditer(html):
        title = " ".join(unescape(_TAG.sub(" ", m.group("title"))).split())
        if title:
            titles[m.group("for")] = title

    def named(m: re.Match[str]) -> str:
        title = titles.get(m.group("label"))
        return m.group(0) if title is None else f'{m.group(1)} aria-label="{escape(title, quote=True)}"'

    return _NAV_NAMED_BY.sub(named, html)


def _autorefs(config: Any) -> Any:
    for plugin in config["plugins"].values():
        if type(plugin).__name__ == "AutorefsPlugin":
            return plugin
    return None
