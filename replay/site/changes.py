"""The changes of the rules, version by version: ``CHANGES.md`` and the site's page, both from ``corpus/changes.yaml``.

The record is data (:class:`replay.corpus.models.ChangesFile`), held to the register by ``replay corpus check``
and read by ``replay validate``; this module only writes it out, once as the site's page (with links to the
register, the clauses and the games) and once as ``CHANGES.md`` at the root of the repository (plain IDs)::

    .venv/bin/python -m replay.site.changes      # rewrite CHANGES.md (a test fails until it is what this writes)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from replay.corpus.loader import Corpus
from replay.corpus.models import Change, Release, Reversal

if TYPE_CHECKING:
    from replay.site.data import SiteData

ROOT = Path(__file__).resolve().parents[2]
CHANGES_FILE = ROOT / "CHANGES.md"
#: the site's page of changes
CHANGES_PAGE = "changes.md"

#: how an ID is written: a Markdown link on the site, plain code in CHANGES.md
Ref = Callable[[str], str]

INTRO = (
    "What a log means can change from one version of the archive to the next. A log names the readings it was "
    "played under, but a ruling added later is absent from every older log, and whatever a log leaves out is read "
    "with the defaults of the archive that reads it. Every new ruling, every new reading of a ruling, every change "
    "of a default and every rule read anew is listed here, newest first, with its reason; the arguments are in the "
    "ambiguity register. `replay validate` names, for a log that leaves a ruling out, the reading it applied by "
    "default and since which version (in the text output and, as `defaulted` and `archive`, in the JSON report). "
    "Each version also lists the claims of the apparatus it withdrew or corrected: they change no verdict, but a "
    "reader who cited the older version can find what was said then and what stands now."
)


def _code(ident: str) -> str:
    return f"`{ident}`"


def _readings(items: list[str]) -> str:
    return ", ".join(_code(r) for r in items)


def change_line(c: Change, ref: Ref, prose: Callable[[str], str]) -> str:
    """One change as a list item."""
    where = f" ({ref(c.ambiguity)})" if c.ambiguity else ""
    commit = f" (commit {c.commit})" if c.commit else ""
    if c.kind == "ruling":
        before = ("" if c.before is None else f"; older logs, which cannot name it, were played as {_code(c.before)}")
        what = (f"new ruling {_code(c.ruling or '')}{where}: readings {_readings(c.readings)}, default "
                f"{_code(c.default or '')}{before}")
    elif c.kind == "reading":
        what = f"new reading {_code(c.reading or '')} of {_code(c.ruling or '')}{where}"
    elif c.kind == "default":
        what = f"default of {_code(c.ruling or '')}{where}: {_code(c.before or '')} → {_code(c.default or '')}"
    else:
        what = f"rule read anew ({', '.join(ref(x) for x in c.clauses)}){where}"
    return f"- **{c.game}** — {what}{commit}. {prose(c.reason)}"


def reversal_line(r: Reversal, ref: Ref, prose: Callable[[str], str]) -> str:
    """One claim of the apparatus withdrawn or corrected, as a list item."""
    where = f" ({', '.join(ref(x) for x in r.cites)})" if r.cites else ""
    commit = f" (commit {r.commit})" if r.commit else ""
    return (f"- **{prose(r.subject)}**{where}{commit}. Before: {prose(r.before)} Now: {prose(r.now)} "
            f"{prose(r.reason)}")


def _first_edition(v: Release) -> tuple[list[Change], list[Change]]:
    """A version's changes, the rulings of the first edition apart (those of the oldest version with no ``before``)."""
    first = [c for c in v.changes if c.kind == "ruling" and c.before is None]
    return first, [c for c in v.changes if c not in first]


def changes_markdown(corpus: Corpus, ref: Ref = _code, prose: Callable[[str], str] = lambda s: " ".join(s.split()),
                     title: str = "# Changes to the rules") -> str:
    """The whole record as Markdown, newest version first (``ref`` writes an ID, ``prose`` a reason)."""
    out = [title, "", INTRO, ""]
    if corpus.changes is None:
        return "\n".join(out + ["(No record: corpus/changes.yaml is missing.)", ""])
    for i, v in enumerate(reversed(corpus.changes.versions)):
        oldest = i == len(corpus.changes.versions) - 1
        out += [f"## {v.version}" + (f" ({v.date})" if v.date else " (unreleased)" if i == 0 else ""), "",
                " ".join(v.summary.split()), ""]
        first, rest = _first_edition(v) if oldest else ([], v.changes)
        out += [change_line(c, ref, prose) for c in reversed(rest)]
        if rest:
            out.append("")
        if v.apparatus:
            out += [f"The apparatus corrected in {v.version} ({len(v.apparatus)}):", ""]
            out += [reversal_line(r, ref, prose) for r in v.apparatus] + [""]
        if first:
            out += [f"The rulings of the first edition ({len(first)}):", "",
                    "| Game | Ruling | Readings | Default | Register |", "| --- | --- | --- | --- | --- |"]
            out += [f"| {c.game} | {_code(c.ruling or '')} | {_readings(c.readings)} | {_code(c.default or '')} | "
                    f"{ref(c.ambiguity) if c.ambiguity else ''} |" for c in first]
            out.append("")
    return "\n".join(out)


def changes_file(corpus: Corpus) -> str:
    """``CHANGES.md`` as committed: the record with plain IDs, and a line saying where it comes from."""
    head = ("<!-- Generated from corpus/changes.yaml by `.venv/bin/python -m replay.site.changes`: edit that file, "
            "not this one. -->")
    return head + "\n\n" + changes_markdown(corpus) + "\n"


def site_page(d: SiteData) -> str:
    """The site's page of changes: the record with its IDs linked to the register and the clauses."""
    from replay.site.links import Linker

    link = Linker(d, CHANGES_PAGE)

    def ref(ident: str) -> str:
        target = link.resolve_id(ident)
        return f"[{ident}]({target})" if target else _code(ident)

    return changes_markdown(d.corpus, ref, link.prose) + "\n"


def main(argv: list[str] | None = None) -> int:
    from replay.corpus.loader import load
    from replay.fsio import write_text

    write_text(CHANGES_FILE, changes_file(load()), update=True)  # rewriting it is the purpose of the command
    print(f"wrote {CHANGES_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
