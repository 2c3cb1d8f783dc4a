"""Links between generated pages, from the point of view of one page."""

from __future__ import annotations

from replay.site.data import AMBIGUITIES_PAGE, GLOSSARY_PAGE, SOURCES_PAGE, SiteData
from replay.site.text import esc, link_ids, rel
from replay.trace.testindex import TestRef


class Linker:
    """Relative links from the page ``here`` (a docs ``src_uri``) to corpus and code targets.

    Every link is a relative ``.md`` link with an anchor, which MkDocs checks at build
    time (``validation.anchors``), or an autorefs reference to a documented Python object,
    which autorefs checks (an unknown target is a warning, and ``--strict`` fails).
    """

    def __init__(self, d: SiteData, here: str) -> None:
        self.d = d
        self.here = here

    def to(self, uri: str, anchor: str | None = None) -> str:
        target = "" if uri == self.here and anchor else rel(self.here, uri)
        return f"{target}#{anchor}" if anchor else target

    def clause(self, cid: str) -> str:
        return self.to(self.d.clause_page(cid), cid)

    def ambiguity(self, aid: str) -> str:
        return self.to(AMBIGUITIES_PAGE, aid)

    def term(self, tid: str) -> str:
        return self.to(GLOSSARY_PAGE, tid)

    def text(self, text_id: str) -> str:
        return self.to(SOURCES_PAGE, f"text-{text_id}")

    def verbatim(self, text_id: str) -> str:
        return self.to(SOURCES_PAGE, f"verbatim-{text_id}")

    def game(self, gid: str, anchor: str | None = None) -> str:
        return self.to(self.d.game_page(gid), anchor)

    def source(self, path: str, line: int | None = None, end: int | None = None) -> str:
        if line is None:
            return self.to(self.d.source_page(path))
        return self.to(self.d.source_page(path), f"L{line}-L{end}" if end is not None else f"L{line}")

    def test(self, t: TestRef, label: str | None = None, title: str | None = None) -> str:
        """A tagged test as Markdown: a link to its line, or its name alone where the site has no source page
        for it (an installed copy reads the tests from the shipped index: no files, no lines)."""
        text = label or f"`{t.name}`"
        if t.line and t.file in self.d.source_files:
            tip = f' "{title}"' if title else ""
            return f"[{text}]({self.source(t.file, t.line)}{tip})"
        return text

    def module(self, module: str) -> str:
        return self.to(self.d.module_page(module))

    @staticmethod
    def code_ref(dotted: str, title: str | None = None) -> str:
        """An autorefs reference to a documented object (rendered as code)."""
        return f"[`{title or dotted.rsplit('.', 1)[-1]}`][{dotted}]"

    def resolve_id(self, ident: str) -> str | None:
        """Where a clause or ambiguity ID mentioned in running text points (None if unknown)."""
        if ident.startswith("amb-"):
            return self.ambiguity(ident) if ident in self.d.corpus.ambiguities else None
        return self.clause(ident) if ident in self.d.corpus.clauses else None

    def prose(self, text: str | None) -> str:
        """Escaped one-line Markdown with clause and ambiguity IDs turned into links."""
        return link_ids(esc(text), self.resolve_id)

    def clause_list(self, ids: list[str] | tuple[str, ...]) -> str:
        return ", ".join(f"[{c}]({self.clause(c)})" if c in self.d.corpus.clauses else f"{c} (unknown)"
                         for c in ids)
