"""What a historian needs to cite the edition: its version, the licences, a citation for each clause, and
each text whole (its diplomatic text, modern reading and translation run on, its TEI P5 document).

* :func:`replay.site.data.edition_facts`: the version (the package's), the commit and its date (git, in a checkout; else
  the commit recorded in the wheel and the day of the build), for the footer and the citations;
* :func:`cite_line`: "cite this clause", with the stable URL when ``mkdocs.yml`` names a ``site_url``, and
  saying plainly what the citation lacks when it does not (there is no public host to invent);
* :func:`licence_page`: the licences, read from ``LICENSE`` and ``corpus/LICENSE`` (not copied into the
  site), with the citation file ``CITATION.cff``;
* :func:`text_page`: one text run on, with its downloads (the verbatim file and the TEI export of
  :mod:`replay.corpus.tei`), and :func:`numbering_section`, what is known of the texts' numbers.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from replay.site.data import EditionFacts, SiteData, edition_facts
from replay.site.links import Linker
from replay.site.text import attr, esc, fence

LICENCE_PAGE = "licence.md"
TEXTS_DIR = "texts"
SITE_TITLE = "replay: an archive of old patience rules"


def version_text(f: EditionFacts) -> str:
    """``version 0.2.0 (2026-12-01, commit 88fcce8; released 2026-12-01)``: the day and the commit the site was built
    from, which pin the state cited (a build after a release carries the release's number and a later commit), and
    the version as ``corpus/changes.yaml`` records it, released on a day or not yet."""
    from replay.corpus.licence import release_date
    from replay.corpus.loader import default_corpus
    from replay.engine.errors import CorpusError

    try:
        released = release_date(default_corpus(), f.version)
    except CorpusError:  # no corpus to read the record from: the line says "not yet released", never fails
        released = None
    state = f"released {released}" if released else "not yet released"
    commit = f"commit {f.commit}{' with local changes' if f.dirty else ''}" if f.commit else "commit not recorded"
    return f"version {f.version} ({f.date}, {commit}; {state})"


def footer(f: EditionFacts) -> str:
    """The line every page's footer carries (Material's ``copyright``)."""
    return (f"replay {version_text(f)} · code: MIT licence · the edition's apparatus: CC BY 4.0 · "
            "the source texts: see Licences and citation")


def clause_url(d: SiteData, cid: str) -> str | None:
    """The clause's address on the public site (None: ``mkdocs.yml`` names no ``site_url``)."""
    if not d.site_url:
        return None
    return f"{d.site_url.rstrip('/')}/{d.clause_page(cid)[:-3]}/#{cid}"


def cite_line(d: SiteData, cid: str, link: Linker) -> str:
    """A clause's citation, one paragraph of Markdown (see the module's docstring)."""
    c = d.corpus.clauses[cid]
    game = d.corpus.games[c.game].title if c.game in d.corpus.games else c.game
    tid = d.corpus.text_of[cid]
    f = d.facts
    where = clause_url(d, cid)
    cite = (f"replay editors, “{game}”, text {tid}, clause {cid}, in *{SITE_TITLE}*, {version_text(f)}"
            + (f", <{where}>." if where else "."))
    lack = "" if where else (" *This build has no public address (mkdocs.yml sets no `site_url`): the "
                             "citation names the clause and the version, not a URL.*")
    # the same sentence under every clause: left out of the search index (the licence page says how to cite)
    return (f'<p class="clause-cite" data-search-exclude="" markdown>**Cite this clause:** {cite}{lack} '
            f"([licence and how to cite]({link.to(LICENCE_PAGE, 'cite')}))</p>\n")


# --------------------------------------------------------------------------- licences


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def licence_page(d: SiteData) -> str:
    link = Linker(d, LICENCE_PAGE)
    f = d.facts
    code = _read(d.root / "LICENSE") or _read(d.code / "LICENSE")
    apparatus = _read(d.corpus.root / "LICENSE")
    cff = _read(d.root / "CITATION.cff")
    out = ["---", "title: Licences and citation", "---", "", "# Licences and citation", "",
           f"This is {SITE_TITLE}, {version_text(f)}. What may be done with it, and how to cite it, is in the "
           "files below, read from the repository when the site is built.", "",
           "| What | Licence | File |", "| --- | --- | --- |",
           f"| The code (`replay/`, the tests, the site generator) | {esc(_first_line(code))} | `LICENSE` |",
           "| The edition's apparatus (clauses and spans, repairs, modern readings, translations, notes, the "
           "ambiguity register, the glossary, the games' descriptions, the layouts) | "
           f"{esc(_licence_of(apparatus))} | `corpus/LICENSE` §1 |",
           "| The source texts (`corpus/sources/`) | not the editors' work, not covered; their status below | "
           "`corpus/LICENSE` §2 |", ""]
    out += ["## The source texts", "", "What is known of each text's status, as `corpus/LICENSE` states it:", ""]
    for tid, t in d.corpus.texts.items():
        status = _status_of(apparatus, tid)
        out.append(f"- **[Text {tid}]({link.text(tid)})**, {esc(t.title)}: {esc(status) if status else '*not stated*'}")
    out += ["", "## Quotations of other texts", "",
            "The witnesses and the evidence quote other texts; their words keep their own terms (`corpus/LICENSE` "
            "§3). Each source the witness files read, as they record it:", ""]
    for w in d.corpus.witnesses.values():
        for src in w.sources.values():
            when = f" Read {src.read}." if src.read else ""
            rev = f" Revision: {esc(src.revision)}" if src.revision else ""
            out.append(f"- **{esc(src.work)}**, {esc(src.section)} ([copy read]({src.url})): "
                       f"{esc(' '.join(src.terms.split()))}{when}{rev}")
    out += ["", "## How to cite {#cite}", "",
            "Cite the edition with its version, and a clause by its ID (IDs are never renumbered; "
            "`corpus/clause-ids.yaml` holds them with a hash of their text). Every clause on the game pages "
            "carries its own line.", ""]
    if d.site_url:
        out += [f"The public address of this site is <{d.site_url}>; a clause's is that address, its game's "
                f"page and the clause ID as the anchor, e.g. <{clause_url(d, next(iter(d.corpus.clauses)))}>.", ""]
    else:
        out += ["!!! note \"No public address yet\"", "    This build names no public address (`site_url` is not "
                "set in `mkdocs.yml`), so the citations give the clause ID, the version and the date, and no URL. "
                "When the site is published, `site_url` makes every citation carry the clause's stable URL.", ""]
    if cff is not None:
        out += ["The citation file of the repository, `CITATION.cff` "
                "([Citation File Format](https://citation-file-format.github.io/) 1.2.0):", "", fence(cff, "yaml"), ""]
    out += ["## The code: `LICENSE`", "", fence(code or "(LICENSE is missing)\n", "text"), "",
            "## The corpus: `corpus/LICENSE`", "", fence(apparatus or "(corpus/LICENSE is missing)\n", "text"), ""]
    return "\n".join(out)


def _first_line(text: str | None) -> str:
    return next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "unknown")


def _licence_of(text: str | None) -> str:
    from replay.corpus.licence import apparatus_licence

    return apparatus_licence(text)[0]


def _status_of(text: str | None, tid: str) -> str | None:
    """The paragraph of ``corpus/LICENSE`` §2 on text ``tid`` (:func:`replay.corpus.licence.source_status`)."""
    from replay.corpus.licence import source_status

    return source_status(text, tid)


# --------------------------------------------------------------------------- the texts whole


def text_page_uri(tid: str) -> str:
    return f"{TEXTS_DIR}/{tid}.md"


def tei_uri(tid: str) -> str:
    return f"{TEXTS_DIR}/{tid}.tei.xml"


def tei_bytes(d: SiteData, tid: str) -> bytes:
    """The text's TEI document, its header stamped with the version and commit the site is built from."""
    from replay.corpus.tei import Stamp, tei_document

    f = d.facts
    stamp = Stamp(f.version, f"{f.commit}-dirty" if f.commit and f.dirty else f.commit, f.date)
    buf = io.BytesIO()
    tei_document(d.corpus, tid, stamp).write(buf, encoding="utf-8", xml_declaration=True)
    return buf.getvalue()


def _paragraphs(d: SiteData, tid: str, layer: str, link: Linker) -> str:
    """The clauses of a text run on in one layer, a paragraph wherever the source leaves a blank line."""
    src = d.corpus.sources[tid]
    clauses = sorted(d.corpus.clause_files[tid].clauses, key=lambda c: c.spans[0][0])
    paras: list[list[str]] = [[]]
    pos = 0
    for c in clauses:
        start = c.spans[0][0]
        if paras[-1] and "\n\n" in src[pos:start].replace("\r", ""):
            paras.append([])
        pos = c.spans[-1][1]
        if layer == "diplomatic":
            body = d.corpus.diplomatic(c.id)
        elif layer == "modern":
            body = c.normalized or d.corpus.diplomatic(c.id)
        else:
            body = c.translation
        paras[-1].append(f'<sup class="clause-mark">[{c.id}]({link.clause(c.id)})</sup> {esc(body)}')
    return "\n\n".join(" ".join(p) for p in paras if p)


def source_download(file: str) -> str:
    """Where the site serves a verbatim source file (``sources/<name>``, beside the sources page)."""
    return "sources/" + file.rsplit("/", 1)[-1]


def text_page(d: SiteData, tid: str) -> str:
    here = text_page_uri(tid)
    link = Linker(d, here)
    t = d.corpus.texts[tid]
    lang = {"pl": "Polish", "ru": "Russian"}.get(t.language, t.language)
    games = ", ".join(f"[{esc(d.corpus.games[g].title)}]({link.game(g)})" for g in t.games if g in d.corpus.games)
    out = ["---", f'title: "Text {tid}: {attr(t.title)}"', "---", "", f"# Text {tid}: {esc(t.title)}", "",
           f"{lang}, {esc(t.orthography)} · {games} · [provenance and repairs]({link.text(tid)})", "",
           "The whole text, run on: the diplomatic text (the verbatim one with its repairs)"
           + (", its modern reading" if t.language == "ru" else "") + " and the English translation, clause by "
           "clause, each clause's ID linking to it on its game's page. A paragraph stands where the source "
           "leaves a blank line.", "",
           "**Download** · [the verbatim text](" + link.to(source_download(t.file)) + f") (`{t.file.rsplit('/', 1)[-1]}`"
           ", byte for byte) · [the TEI P5 document](" + link.to(tei_uri(tid)) + f") (`{tid}.tei.xml`: every "
           "clause a `seg`, the repairs as `sic`/`corr`" + (", the modern spelling as `orig`/`reg`" if t.language == "ru"
                                                            else "") + ", the translations; "
           "what `replay corpus export --format tei` writes)", ""]
    layers: list[tuple[str, str, str]] = [("Diplomatic", "diplomatic", t.language)]
    if t.language == "ru":
        layers.append(("Modern spelling", "modern", "ru"))
    layers.append(("Translation", "translation", "en"))
    for title, layer, lng in layers:
        body = _paragraphs(d, tid, layer, link)
        out += [f'=== "{title}"', "", f'    <div class="continuous-text" lang="{lng}" markdown>', "",
                "\n".join("    " + ln if ln else "" for ln in body.splitlines()), "", "    </div>", ""]
    return "\n".join(out)


def numbering_section(d: SiteData) -> str:
    """Why the texts are numbered 000, 001, 003 and what the file names' hex digits are, as far as is known.

    The check of the digits against the usual digests of each file is made at every build, not copied.
    """
    rows = ["| Text | File | Its 16 hex digits are the start of |", "| --- | --- | --- |"]
    numbers = []
    for tid, t in d.corpus.texts.items():
        name = t.file.rsplit("/", 1)[-1]
        numbers.append(tid)
        stem = name.rsplit(".", 1)[0]
        digits = stem.split("_", 1)[1] if "_" in stem else ""
        raw = (d.corpus.root / t.file).read_bytes()
        found = [alg for alg in ("sha256", "sha1", "md5", "blake2b", "sha512")
                 if digits and hashlib.new(alg, raw).hexdigest().startswith(digits)]
        what = ", ".join(f"its {a.upper()}" for a in found) if found else \
            "none of its SHA-256, SHA-1, MD5, BLAKE2b, SHA-512"
        rows.append(f"| {tid} | `{name}` | {what} |")
    missing = [f"{n:03d}" for n in range(int(max(numbers)) + 1) if f"{n:03d}" not in numbers] if all(
        n.isdigit() for n in numbers) else []
    gap = (f"There is no text {', '.join(missing)}: no file of that number reached the archive, and nothing it "
           "holds (the texts' records, their provenance, the history of the repository) mentions one; what it "
           "was, or whether it was ever given out, is not known. " if missing else "")
    return "\n".join([
        "## Why the texts are numbered so {#numbering}", "",
        "The texts are numbered as their files were named when they came to the archive: a number of three "
        "digits, an underscore and 16 hexadecimal digits. The number is the text's ID everywhere (its clauses' "
        "file, its ambiguities' file, the sources page, the TEI documents) and is never changed. " + gap, "",
        "The 16 hex digits came with the files too. They are not a checksum of the file as the archive has "
        "it; this is checked at every build of this page:", "", *rows, "",
        "What they are is not known: presumably an identifier given before the files reached the archive. A "
        "text added now takes the next unused number and the first 16 hex digits of the SHA-256 of its file "
        "(see [Adding a text](contributing.md#the-source-file)).", ""])
