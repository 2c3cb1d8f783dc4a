"""Markdown helpers for the generated pages: escaping, relative links, ID auto-linking."""

from __future__ import annotations

import html
import posixpath
import re
from typing import Callable

from replay.corpus.ids import PREFIX_ALTERNATION

_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}#|])")
_LEADING = re.compile(r"^(\s*)([>+\-=]|\d+[.)])")


def one_line(s: str | None) -> str:
    return " ".join((s or "").split())


def _escape(s: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", html.escape(s, quote=False))


def _guard_start(s: str) -> str:
    m = _LEADING.match(s)
    if m:  # would start a list or a setext heading
        s = s[: m.end() - 1] + "\\" + s[m.end() - 1:]
    return s


def esc(s: str | None) -> str:
    """Text -> inline Markdown that renders as the same text (one line)."""
    return _guard_start(_escape(one_line(s)))


_CODE_PART = re.compile(r"``(.+?)``|:(?:py:)?[a-z]+:`~?([^`]+)`|`([^`]+)`")


def doc_md(s: str | None) -> str:
    """A docstring fragment (reST-flavoured: ````code````, ``:class:`x```) -> one line of Markdown.

    Code stays code; everything else is escaped like :func:`esc`.
    """
    s = one_line(s)
    out, pos = [], 0
    for m in _CODE_PART.finditer(s):
        out.append(_escape(s[pos: m.start()]))
        code = m.group(1) or m.group(2) or m.group(3)
        if m.group(2) is not None and "~" in m.group(0):
            code = code.rsplit(".", 1)[-1]
        out.append(f"`{code}`" if "`" not in code else f"`` {code} ``")
        pos = m.end()
    out.append(_escape(s[pos:]))
    return _guard_start("".join(out))


def attr(s: str | None) -> str:
    """Text -> an HTML attribute value (without the quotes)."""
    return html.escape(one_line(s), quote=True)


def rel(from_uri: str, to_uri: str) -> str:
    """Relative link from one docs file to another (both as ``src_uri``, e.g. ``games/x.md``)."""
    start = posixpath.dirname(from_uri) or "."
    return posixpath.relpath(to_uri, start)


ID_PATTERN = re.compile(rf"(?<![\w-])(amb-(?:{PREFIX_ALTERNATION})(?:-[a-z0-9]+)+|(?:{PREFIX_ALTERNATION})-[1-9][0-9]*)(?![\w-])")


def link_ids(md_text: str, resolve: Callable[[str], str | None]) -> str:
    """Turn clause and ambiguity IDs in already-escaped Markdown into links.

    ``resolve(id)`` gives the link target or None (then the ID stays plain text).
    IDs inside inline code or an existing link are left alone.
    """
    out = []
    pos = 0
    for m in ID_PATTERN.finditer(md_text):
        before = md_text[: m.start()]
        if before.count("`") % 2 or before.rfind("[") > before.rfind("]"):
            continue
        target = resolve(m.group(1))
        if target is None:
            continue
        out.append(md_text[pos: m.start()])
        out.append(f"[{m.group(1)}]({target})")
        pos = m.end()
    out.append(md_text[pos:])
    return "".join(out)


def fence(text: str, lang: str = "text") -> str:
    """A fenced code block holding ``text`` exactly (the fence is longer than any run of backticks)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{lang}\n{body}{ticks}\n"


def indent(text: str, n: int = 4) -> str:
    pad = " " * n
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())


BLOCK = re.compile(r"<!--raw-html-->\n(.*?)\n<!--/raw-html-->", re.DOTALL)


def raw_block(html: str) -> str:
    """Mark a large HTML block to be inserted after the Markdown conversion (see :func:`blocks_out`)."""
    return f"<!--raw-html-->\n{html}\n<!--/raw-html-->"


def blocks_out(markdown: str) -> tuple[str, dict[str, str]]:
    """Replace each raw block by a small placeholder; return the Markdown and the blocks.

    Python-Markdown parses raw HTML with an HTML parser, which is slow for the thousands
    of elements of a source listing or a replayed game.  The hooks put the blocks back into
    the page's HTML (``on_page_content``) and tell MkDocs about the anchors they hold.
    """
    blocks: dict[str, str] = {}

    def repl(m: re.Match[str]) -> str:
        key = f'<div class="replay-block" data-block="{len(blocks)}"></div>'
        blocks[key] = m.group(1)
        return key

    return BLOCK.sub(repl, markdown), blocks
