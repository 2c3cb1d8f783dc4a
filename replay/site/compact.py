"""MkDocs hooks (the second file of ``hooks:`` in ``mkdocs.yml``): what every page repeats, made smaller.

Material writes the site's navigation into every page, indented for reading, and the indentation is most of its
bytes (issue 33: 80 of the 90 KB a page's navigation took were spaces and line breaks).  :func:`on_post_page`
collapses each run of white space that holds a line break into one line break in the two sidebars (the
navigation and the table of contents): between tags and words white space renders alike however long it is, and
the sidebars hold no ``<pre>``, no script and no text whose white space is kept.  The rest of the page is
left as written.  ``navigation.prune`` (``mkdocs.yml``) leaves out of each page the sections of the
navigation that are closed there.
"""

from __future__ import annotations

import re
from typing import Any

#: where the sidebars begin and where the page's content (which may hold <pre>) begins after them
SIDEBARS = '<div class="md-sidebar md-sidebar--primary"'
CONTENT = '<div class="md-content"'
_RUN = re.compile(r"[ \t\r\f]*\n\s*")
_KEPT = re.compile(r"<(pre|textarea|script|style)\b", re.I)


def collapse(html: str) -> str:
    """``html`` with the white space of its sidebars collapsed (unchanged when it has no sidebars, or when
    they hold an element whose white space counts)."""
    start = html.find(SIDEBARS)
    end = html.find(CONTENT, start)
    if start < 0 or end < 0:
        return html
    region = html[start:end]
    if _KEPT.search(region):
        return html
    return html[:start] + _RUN.sub("\n", region) + html[end:]


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    return collapse(output)
