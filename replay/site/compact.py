"""MkDocs hooks (the second file of ``hooks:`` in ``mkdocs.yml``): what every page repeats, made smaller.

Material writes the site's navigation into every page, indented for reading (issue 33: 24.8 of the site's 77.8 MB
of HTML was navigation, about 80 KB a page, nearly half of it spaces and line breaks).  :func:`on_post_page`
collapses each run of white space that holds a line break into one line break around the page's article (the
header, the navigation, the table of contents, the footer): between tags and words white space renders alike
however long it is; ``<pre>``, ``<code>``, ``<textarea>``, scripts and styles are left alone, and so is the
article.  ``navigation.prune`` (``mkdocs.yml``) leaves out of each page the sections of the
navigation that are closed there.

:func:`on_config` keeps the signatures mkdocstrings formats (with Ruff, a process for each long signature: 464 a
build) in the cache directory (``REPLAY_CACHE_DIR``), keyed by the signature, the line length and the
formatter's version: a warm build starts no formatter.  :func:`on_post_build` removes what the theme copies and the site never loads: the search's lunr files for the
languages it is not configured with (with ``lang: en`` alone Material's search worker loads none of them:
0.9 MB) and the theme's source maps (1.3 MB, read only by a browser's developer tools).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: the page's content, whose white space is left as Markdown and the generators wrote it
ARTICLE, ARTICLE_END = "<article", "</article>"
_RUN = re.compile(r"[ \t\r\f]*\n\s*")
#: elements whose white space counts, or that are not HTML, kept as they are
_KEPT = re.compile(r"(<(pre|textarea|script|style|code)\b.*?</\2>)", re.I | re.S)


def _collapse_runs(part: str) -> str:
    pieces = _KEPT.split(part)  # text, kept element, its tag name, text, ...
    out = []
    for i in range(0, len(pieces), 3):
        out.append(_RUN.sub("\n", pieces[i]))
        if i + 1 < len(pieces):
            out.append(pieces[i + 1])
    return "".join(out)


def collapse(html: str) -> str:
    """``html`` with each run of white space that holds a line break made one line break, outside the page's
    article and outside ``<pre>``, ``<textarea>``, ``<code>``, scripts and styles (unchanged: a page without
    an article)."""
    start = html.find(ARTICLE)
    end = html.find(ARTICLE_END, start)
    if start < 0 or end < 0:
        return html
    return _collapse_runs(html[:start]) + html[start:end] + _collapse_runs(html[end:])


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    return collapse(output)


#: the lunr files Material's search worker loads for a language besides its own (``lunr.<lang>.min.js``)
_LANG_FILES = {"ja": ["tinyseg.js"], "jp": ["tinyseg.js"], "hi": ["wordcut.js"], "th": ["wordcut.js"]}


def unused_theme_files(site: Path, langs: list[str]) -> list[Path]:
    """The theme's files under ``site`` that no page loads: the lunr files of other languages, the source maps."""
    lunr = site / "assets" / "javascripts" / "lunr"
    keep: set[str] = set()
    others = [x for x in langs if x != "en"]
    if others or len(langs) > 1:
        keep.add("min/lunr.stemmer.support.min.js")
    if len(langs) > 1:
        keep.add("min/lunr.multi.min.js")
    for x in others:
        keep.add(f"min/lunr.{x}.min.js")
        keep.update(_LANG_FILES.get(x, []))
    out = [p for p in sorted(lunr.rglob("*")) if p.is_file() and p.relative_to(lunr).as_posix() not in keep]
    out += sorted((site / "assets" / "javascripts").rglob("*.js.map"))
    out += sorted((site / "assets" / "stylesheets").rglob("*.css.map"))
    return out


def on_post_build(config: Any, **kwargs: Any) -> None:
    search = config["plugins"].get("material/search") or config["plugins"].get("search")
    langs = list(getattr(search, "config", {}).get("lang") or ["en"]) if search is not None else ["en"]
    site = Path(config["site_dir"])
    for p in unused_theme_files(site, langs):
        p.unlink()
    for folder in sorted((p for p in site.joinpath("assets").rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()


def on_config(config: Any, **kwargs: Any) -> Any:
    cache_signatures()
    return config


def cache_signatures() -> bool:
    """Make mkdocstrings' signature formatter read and fill the cache (True: it does now, or did already).

    mkdocstrings-python's ``_get_formatter`` returns the formatter it found (Black, else Ruff); without either,
    or without a cache directory, nothing is changed.  The formatted text is the formatter's own.
    """
    import hashlib
    from importlib import metadata

    from replay.corpus.files import cache_dir

    try:
        from mkdocstrings_handlers.python._internal import rendering
    except ImportError:
        return False
    found = getattr(rendering, "_get_formatter", None)
    if found is None:
        return False
    if getattr(found, "replay_cached", False):
        return True
    folder = cache_dir()
    if folder is None:
        return False
    versions = []
    for tool in ("black", "ruff"):
        try:
            versions.append(f"{tool} {metadata.version(tool)}")
        except metadata.PackageNotFoundError:
            pass
    salt = ("\0".join(versions) + "\0").encode()
    store = folder / "site-signatures"

    def formatter(code: str, line_length: int) -> str:
        key = hashlib.sha256(salt + f"{line_length}\0".encode() + code.encode("utf-8")).hexdigest()
        path = store / f"{key}.txt"
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
        text = found()(code, line_length)
        from replay.fsio import atomic_write

        try:
            store.mkdir(parents=True, exist_ok=True)
            atomic_write(path, text.encode("utf-8"))
        except OSError:
            pass
        return text

    def get() -> Any:
        return formatter

    get.replay_cached = True  # type: ignore[attr-defined]
    rendering._get_formatter = get  # type: ignore[assignment]
    return True
