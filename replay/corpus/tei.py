"""TEI P5 export: one document per text, as a digital edition would encode it.

* ``div[@type='edition']``: the verbatim text, each clause a ``seg`` with an ``xml:id``;
  every OCR repair as ``choice``/``sic``/``corr`` (with ``@resp`` and a reason in ``@n``-free
  ``note`` references kept in ``back``).
* ``div[@type='regularization']`` (texts with a normalized layer): per clause, word-level
  ``choice``/``orig``/``reg`` between the diplomatic and the modern spelling.
* ``div[@type='translation']``: the English, one ``seg`` per clause, ``@corresp`` to the original.
* ``back``: the ambiguity register as ``note``s whose readings are an ``app`` of ``rdg``s,
  the default marked, each with ``@target`` pointing at the clauses it touches.

The header names the state of the edition a citation needs: ``editionStmt/edition[@n]`` the version (released on
a day, or not yet) and the commit (:class:`Stamp`), and ``publicationStmt/availability`` the apparatus's licence
and the source text's status, as ``corpus/LICENSE`` states them (:mod:`replay.corpus.licence`).
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from dataclasses import dataclass

from replay.corpus.licence import apparatus_licence, licence_text, release_date, source_status
from replay.corpus.loader import Corpus
from replay.corpus.models import Correction

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
ET.register_namespace("", TEI_NS)


def _t(tag: str) -> str:
    return f"{{{TEI_NS}}}{tag}"


def _xml(attr: str) -> str:
    return f"{{{XML_NS}}}{attr}"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, _t(tag), attrs)
    if text is not None:
        el.text = text
    return el


def _append_text(parent: ET.Element, text: str) -> None:
    """Append character data after the last child (or as the element's text)."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _emit_with_corrections(parent: ET.Element, src: str, start: int, end: int, corrections: dict[int, Correction]) -> None:
    i = start
    buf: list[str] = []
    while i < end:
        c = corrections.get(i)
        if c is not None and i + len(c.sic) <= end:
            _append_text(parent, "".join(buf))
            buf = []
            choice = _sub(parent, "choice")
            _sub(choice, "sic", c.sic)
            corr = _sub(choice, "corr", c.corr, resp="#replay", type=c.kind)
            corr.set("cert", "high" if c.kind == "yat" else "medium")
            i += len(c.sic)
        else:
            buf.append(src[i])
            i += 1
    _append_text(parent, "".join(buf))


_TOKEN = re.compile(r"\w+|[^\w\s]+|\s+")


def _emit_regularized(parent: ET.Element, orig: str, reg: str) -> None:
    a, b = _TOKEN.findall(orig), _TOKEN.findall(reg)
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            _append_text(parent, "".join(a[i1:i2]))
            continue
        choice = _sub(parent, "choice")
        _sub(choice, "orig", "".join(a[i1:i2]))
        _sub(choice, "reg", "".join(b[j1:j2]))


@dataclass(frozen=True)
class Stamp:
    """The state of the edition a document is made from: the package's version, the commit (None: not recorded)
    and the day (the commit's, else the build's)."""

    version: str
    commit: str | None
    date: str


def _edition_stmt(fd: ET.Element, corpus: Corpus, stamp: Stamp | None) -> None:
    """``editionStmt``: ``edition[@n]`` with the version, whether and when it was released, and the commit."""
    if stamp is None:
        return
    released = release_date(corpus, stamp.version)
    es = _sub(fd, "editionStmt")
    ed = _sub(es, "edition", f"replay {stamp.version}, " + (f"released {released}" if released else "not yet released")
              + "; commit ", n=stamp.version)
    if stamp.commit:
        idno = _sub(ed, "idno", stamp.commit, type="git-commit")
        idno.tail = ", of "
    else:
        ed.text = (ed.text or "") + "not recorded, built "
    _sub(ed, "date", stamp.date, when=stamp.date)


def _publication_stmt(fd: ET.Element, corpus: Corpus, text_id: str, stamp: Stamp | None) -> None:
    """``publicationStmt``: who publishes, the text's ID and the availability (corpus/LICENSE §1-§3)."""
    ps = _sub(fd, "publicationStmt")
    _sub(ps, "publisher", "the replay editors")
    _sub(ps, "idno", text_id, type="replay-text")
    if stamp is not None:
        _sub(ps, "date", stamp.date, when=stamp.date)
    licence = licence_text(corpus)
    name, url = apparatus_licence(licence)
    av = _sub(ps, "availability")
    app_licence = _sub(av, "licence", f"The edition's apparatus (segmentation, repairs, modern reading, translation, "
                                      f"notes, ambiguity register): {name}; corpus/LICENSE §1.")
    if url:
        app_licence.set("target", url)
    status = source_status(licence, text_id)
    _sub(av, "licence", "The source text, kept byte for byte, is not the editors' work and is not covered by that "
                        f"licence: {status or 'its status is not stated'} (corpus/LICENSE §2).")
    _sub(av, "licence", "Quotations of other texts in the apparatus keep their own terms (corpus/LICENSE §3): "
                        "Cadogan's English is in the public domain; English Wikipedia's words are under CC BY-SA 4.0; "
                        "a page that states no licence is quoted in short extracts for comparison only.")


def tei_document(corpus: Corpus, text_id: str, stamp: Stamp | None = None) -> ET.ElementTree:
    """The TEI P5 document of one text; ``stamp`` names the state of the edition it is made from (the header's
    ``editionStmt``), None leaving it out."""
    text = corpus.texts[text_id]
    src = corpus.sources[text_id]
    clauses = sorted(corpus.clause_files[text_id].clauses, key=lambda c: c.spans[0][0])
    corrections = {c.at: c for c in corpus.corrections(text_id)}

    root = ET.Element(_t("TEI"), {_xml("lang"): text.language})
    header = _sub(root, "teiHeader")
    fd = _sub(header, "fileDesc")
    ts = _sub(fd, "titleStmt")
    _sub(ts, "title", text.title)
    resp = _sub(ts, "respStmt")
    resp.set(_xml("id"), "replay")
    _sub(resp, "resp", "segmentation, correction, normalization, translation and annotation")
    _sub(resp, "name", "the replay project")
    _edition_stmt(fd, corpus, stamp)
    _publication_stmt(fd, corpus, text_id, stamp)
    sd = _sub(fd, "sourceDesc")
    bibl = _sub(sd, "bibl")
    _sub(bibl, "title", text.title)
    _sub(bibl, "idno", text.sha256, type="sha256")
    _sub(bibl, "note", text.provenance.summary, type="summary")
    for kind, statements in (("known", text.provenance.known), ("inferred", text.provenance.inferred)):
        for st in statements:
            note = _sub(bibl, "note", st.claim, type=kind)
            for ev in st.evidence:
                _sub(note, "bibl", f"{ev.source}{' — ' + ev.cite if ev.cite else ''}: {ev.says}")
    for q in text.provenance.unknown:
        _sub(bibl, "note", q, type="unknown")
    enc = _sub(header, "encodingDesc")
    _sub(_sub(enc, "projectDesc"), "p",
         f"Generated by `replay corpus export --format tei` from the replay corpus, text {text.id}.")
    ed = _sub(enc, "editorialDecl")
    corr_p = _sub(ed, "correction")
    _sub(corr_p, "p", "OCR damage is kept in sic and repaired in corr, one choice per change; the yat "
                      "letter read by the OCR as ‘ђ’ is restored as ‘ѣ’ throughout.")
    norm = _sub(ed, "normalization")
    _sub(norm, "p", "Modern spelling is given word by word as reg against the diplomatic orig.")
    seg_p = _sub(ed, "segmentation")
    _sub(seg_p, "p", "Each clause (one rule or statement) is a seg whose xml:id is its stable clause ID.")
    prof = _sub(header, "profileDesc")
    lu = _sub(prof, "langUsage")
    _sub(lu, "language", text.language, ident=text.language)
    _sub(lu, "language", "English", ident="en")

    body = _sub(_sub(root, "text"), "body")
    edition = _sub(body, "div", type="edition")
    edition.set(_xml("lang"), text.language)
    # paragraphs of the source: split on newlines, keeping segs inside
    pos = 0
    para = _sub(edition, "p")
    spans = [(s, e, c) for c in clauses for (s, e) in c.spans]
    spans.sort(key=lambda x: x[0])
    seen: set[str] = set()

    def gap(upto: int) -> None:
        nonlocal pos, para
        chunk = src[pos:upto]
        parts = chunk.split("\n")
        for k, part in enumerate(parts):
            if k:
                if len(para) or (para.text or "").strip():
                    para = _sub(edition, "p")
                else:
                    para.text = None
            _append_text(para, part if part.strip() else (part if k == 0 else ""))
        pos = upto

    for s, e, c in spans:
        gap(s)
        attrs = {"type": c.kind, "ana": f"#game-{c.game}"}
        seg = _sub(para, "seg", **attrs)
        if c.id not in seen:
            seg.set(_xml("id"), c.id)
            seen.add(c.id)
        else:
            seg.set("prev", f"#{c.id}")
        _emit_with_corrections(seg, src, s, e, corrections)
        pos = e
    gap(len(src))

    if any(c.normalized for c in clauses):
        reg_div = _sub(body, "div", type="regularization")
        reg_div.set(_xml("lang"), text.language)
        for c in clauses:
            if c.normalized:
                seg = _sub(reg_div, "seg", corresp=f"#{c.id}")
                _emit_regularized(seg, corpus.diplomatic(c.id), c.normalized)

    tr = _sub(body, "div", type="translation")
    tr.set(_xml("lang"), "en")
    for c in clauses:
        seg = _sub(tr, "seg", c.translation, corresp=f"#{c.id}")
        if c.notes:
            _sub(seg, "note", c.notes, type="translator")

    back = _sub(root.find(_t("text")), "back")  # type: ignore[arg-type]
    amb_div = _sub(back, "div", type="ambiguities")
    for a in corpus.ambiguities.values():
        if corpus.text_id_of_ambiguity(a) != text_id:
            continue
        note = _sub(amb_div, "note", type="ambiguity", target=" ".join(f"#{c}" for c in a.clauses))
        note.set(_xml("id"), a.id)
        note.set("subtype", a.category)
        _sub(note, "label", a.title)
        _sub(note, "p", a.problem)
        app = _sub(note, "app")
        if a.ruling:
            app.set("n", a.ruling)
        for r in a.readings:
            rdg = _sub(app, "rdg", r.summary)
            rdg.set(_xml("id"), f"{a.id}.{r.id}")
            rdg.set("type", "default" if r.id == a.default else "alternative")
            rdg.set("n", r.id)
        reason = _sub(note, "p", a.reasons, type="reasons")
        reason.set("rend", a.status)
        cert = _sub(note, "certainty", locus="value", target=f"#{a.id}.{a.default}",
                    cert="high" if a.status == "resolved" else "medium")
        cert.set("resp", "#replay")
    _indent(root)
    return ET.ElementTree(root)


#: elements that hold only other elements; whitespace may be added inside them without changing the text
_STRUCTURAL = {_t(x) for x in ("TEI", "teiHeader", "fileDesc", "titleStmt", "respStmt", "editionStmt",
                               "publicationStmt", "availability", "projectDesc",
                               "sourceDesc", "encodingDesc", "editorialDecl", "correction", "normalization",
                               "segmentation", "profileDesc", "langUsage", "text", "body", "div", "back", "app")}


def _indent(el: ET.Element, level: int = 0) -> None:
    """Indent structural elements only; mixed content (p, seg, choice, note…) is left exactly as it is."""
    if el.tag not in _STRUCTURAL or not len(el) or (el.text and el.text.strip()):
        return
    pad = "\n" + "  " * (level + 1)
    el.text = pad
    for child in el:
        _indent(child, level + 1)
        child.tail = pad if (child.tail is None or not child.tail.strip()) else child.tail
    el[-1].tail = "\n" + "  " * level


def export(corpus: Corpus, out_dir: Path, stamp: Stamp | None = None) -> list[Path]:
    """Write ``<text-id>.tei.xml`` for every text (each atomically); return the paths."""
    import io

    from replay.fsio import atomic_write, check_target

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for tid in corpus.texts:
        path = out_dir / f"{tid}.tei.xml"
        buf = io.BytesIO()
        tei_document(corpus, tid, stamp).write(buf, encoding="utf-8", xml_declaration=True)
        check_target(path, update=True)  # the export directory is the command's own output: rewritten
        atomic_write(path, buf.getvalue())
        paths.append(path)
    return paths
