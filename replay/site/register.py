"""Corpus-wide pages: the ambiguity register, the glossary and the sources."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Any

from replay.site.data import AMBIGUITIES_PAGE, GLOSSARY_PAGE, SOURCES_PAGE, SiteData
from replay.site.games import STATUS_TEXT, ambiguity_body, layouts_of, provenance_section
from replay.site.about import numbering_section, source_download, tei_uri, text_page_uri
from replay.site.links import Linker
from replay.site.text import attr, esc, fence, raw_block

LANG_LABEL = {"pl": "Polish", "ru-old": "Russian, pre-1918", "ru-modern": "Russian, modern", "en": "English"}


def _games_of_amb(d: SiteData, clauses: list[str]) -> list[str]:
    out: list[str] = []
    for c in clauses:
        g = d.corpus.clauses[c].game if c in d.corpus.clauses else None
        if g and g not in out:
            out.append(g)
    return out


def ambiguities_page(d: SiteData) -> str:
    link = Linker(d, AMBIGUITIES_PAGE)
    ambs = list(d.corpus.ambiguities.values())
    by_status = Counter(a.status for a in ambs)
    out = ["---", "title: Ambiguity register", "---", "", "# The ambiguity register", "",
           "Every place where the texts leave more than one reading: the readings, the one the engine takes "
           "by default and why, the evidence, and how it is settled. **ruling**: a log may select the reading "
           "(`\"rulings\"` in the log); **resolved**: the evidence leaves one reading; **no play difference**: "
           "the readings play the same.", "",
           f"{len(ambs)} entries: " + ", ".join(f"{n} {STATUS_TEXT.get(s, s)}" for s, n in sorted(by_status.items()))
           + ". Filter them by game, status, category or words; click a column heading to sort the table.", "",
           raw_block(register_filter(d, ambs)), "",
           '<div class="sortable amb-table" markdown>', "",
           "| ID | Title | Game | Text | Status | Category | Ruling |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for a in ambs:
        tid = d.corpus.text_id_of_ambiguity(a)
        gids = ", ".join(_games_of_amb(d, a.clauses))
        out.append(f"| [{a.id}](#{a.id}) | {esc(a.title)} | {gids} | {tid} | {STATUS_TEXT.get(a.status, a.status)} | "
                   f"{a.category} | {f'`{a.ruling}`' if a.ruling else ''} |")
    out += ["", "</div>", ""]
    current = None
    for a in ambs:
        tid = d.corpus.text_id_of_ambiguity(a)
        if tid != current:
            current = tid
            title = d.corpus.texts[tid].title if tid in d.corpus.texts else "?"
            out += [f"## Text {tid}: {esc(title)} {{#register-{tid}}}", ""]
        status = STATUS_TEXT.get(a.status, a.status)
        games = " ".join(_games_of_amb(d, a.clauses))
        out += [f'<div class="amb-entry" data-id="{a.id}" data-games="{attr(games)}" data-status="{attr(a.status)}" '
                f'data-category="{attr(a.category)}" markdown>', "",
                f"### {a.id} {{#{a.id} data-toc-label=\"{a.id}\"}}", "",
                f"**{esc(a.title)}** · {status}" + (f" · ruling `{a.ruling}`" if a.ruling else "")
                + f" · {a.category}", "", ambiguity_body(d, a, link), ""]
        layouts = [s for g in _games_of_amb(d, a.clauses) for s in layouts_of(d, g)
                   if a.ruling and s.reading in {r.id for r in a.readings}]
        if layouts:
            out += ["Layouts drawn for its readings: " + ", ".join(
                f"[{s.id}]({link.game(s.game, 'layout')}) (`{s.reading}`)" for s in layouts), ""]
        out += ["</div>", ""]
    return "\n".join(out) + "\n"


def register_filter(d: SiteData, ambs: list[Any]) -> str:
    """The register's filter: game, status, category and words (``docs/javascripts/replay.js`` runs it)."""
    from html import escape

    def options(values: list[tuple[str, str]]) -> str:
        return "".join(f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in values)

    games = [(g, d.corpus.games[g].title) for g in d.game_order]
    statuses = sorted({a.status for a in ambs})
    categories = sorted({a.category for a in ambs})
    return (
        '<form class="amb-filter" role="search" aria-label="Filter the register" hidden>'
        f'<label>Game <select name="game"><option value="">every game</option>{options(games)}</select></label>'
        '<label>Status <select name="status"><option value="">every status</option>'
        f'{options([(x, STATUS_TEXT.get(x, x)) for x in statuses])}</select></label>'
        '<label>Category <select name="category"><option value="">every category</option>'
        f'{options([(x, x) for x in categories])}</select></label>'
        '<label>Words <input type="search" name="q" placeholder="in the entry: frame, reach, as…" '
        'autocomplete="off"></label>'
        '<button type="reset">show all</button>'
        '<output class="amb-count" aria-live="polite"></output></form>')


def glossary_order(t: Any) -> tuple[str, str]:
    """Alphabetical by the English headword, quotes and a leading "the" or "to" set aside."""
    words = re.sub(r"^[^\w]+", "", t.gloss.casefold())
    words = re.sub(r"^(the|to) ", "", words)
    return words, t.id


def glossary_page(d: SiteData) -> str:
    link = Linker(d, GLOSSARY_PAGE)
    terms = sorted(d.corpus.terms.values(), key=glossary_order)
    out = ["---", "title: Glossary", "---", "", "# Glossary", "",
           "The words of the texts that carry the rules, in each language and spelling, with the clauses they "
           "occur in, in alphabetical order of the English (click a column's heading to sort by it). On the game "
           "pages the terms of art are underlined with a dotted line: hover or tap them to read their entry.", ""]
    if not terms:
        return "\n".join(out + ["*The glossary is empty.*", ""])
    out += ['<div class="sortable" markdown>', "",
            "| Term | Language | Original forms | English |", "| --- | --- | --- | --- |"]
    for t in terms:
        forms = {lang: ", ".join(dict.fromkeys(esc(f.form) for f in t.forms if f.lang == lang)) for lang in LANG_LABEL}
        if forms["pl"]:
            language, original = "Polish", forms["pl"]
        else:
            language = "Russian"
            original = forms["ru-old"] + (f" (modern: {forms['ru-modern']})"
                                          if forms["ru-modern"] and forms["ru-modern"] != forms["ru-old"] else "")
        out.append(f"| [{esc(t.gloss)}](#{t.id}) | {language} | {original} | {forms['en']} |")
    out += ["", "</div>", ""]
    for t in terms:
        out += [f"## {esc(t.gloss)} {{#{t.id} data-toc-label=\"{esc(t.gloss)}\"}}", "",
                f"`{t.id}` — {link.prose(t.definition)}", ""]
        for f in t.forms:
            where = link.clause_list(f.occurs) if f.occurs else "—"
            match = f" (matched as “{esc(f.match)}”)" if f.match and f.match != f.form else ""
            out.append(f"- {LANG_LABEL.get(f.lang, f.lang)}: **{esc(f.form)}**{match} — {where}")
        if t.see_also:
            out += ["", "See also: " + ", ".join(f"[{s}](#{s})" if s in d.corpus.terms else s for s in t.see_also)]
        out.append("")
    return "\n".join(out) + "\n"


def sources_page(d: SiteData) -> str:
    link = Linker(d, SOURCES_PAGE)
    out = ["---", "title: Sources", "---", "", "# Sources", "",
           "The texts of the archive exactly as they were received, byte for byte (the files under "
           "`corpus/sources/`), with their checksums and what is known of where they come from. The game "
           "pages quote them clause by clause, with OCR errors repaired; the repairs are listed here.", "",
           "| Text | Title | Language | Bytes | SHA-256 | Games |", "| --- | --- | --- | --- | --- | --- |"]
    for tid, t in d.corpus.texts.items():
        games = ", ".join(f"[{g}]({link.game(g)})" for g in t.games if g in d.corpus.games)
        out.append(f"| [{tid}](#text-{tid}) | {esc(t.title)} | {t.language} | {t.size} | `{t.sha256[:16]}…` | "
                   f"{games} |")
    out.append("")
    out.append(numbering_section(d))
    for tid, t in d.corpus.texts.items():
        raw = (d.corpus.root / t.file).read_bytes()
        actual = hashlib.sha256(raw).hexdigest()
        check = "matches the recorded checksum" if actual == t.sha256 and len(raw) == t.size else \
            f"**does not match** the recorded {t.sha256} / {t.size} bytes"
        out += [f"## Text {tid}: {esc(t.title)} {{#text-{tid} data-toc-label=\"Text {tid}\"}}", "",
                f"- **File** `corpus/{t.file}` ([download]({source_download(t.file)}), byte for byte)",
                f"- **Size** {len(raw)} bytes, {len(d.corpus.sources[tid])} characters",
                f"- **SHA-256** `{actual}` ({check})",
                f"- **Language** {t.language}; {esc(t.orthography)}",
                f"- **Layers** {', '.join(t.layers)}",
                f"- **Games** {', '.join(f'[{g}]({link.game(g)})' for g in t.games if g in d.corpus.games)}",
                f"- **Whole** [the text run on]({link.to(text_page_uri(tid))}): diplomatic, "
                + ("modern, " if t.language == "ru" else "") + f"translation; [TEI P5]({link.to(tei_uri(tid))})",
                "", f"### Provenance {{#provenance-{tid}}}", "", provenance_section(d, tid, link, collapsible=False)]
        fixes = d.corpus.corrections(tid)
        cf = d.corpus.clause_files[tid]
        if cf.substitutions or cf.corrections:
            out += [f"### Repairs {{#repairs-{tid}}}", "", "What the diplomatic text on the game pages changes, and why.", "",
                    "| Where | Verbatim | Read as | Kind | Why |", "| --- | --- | --- | --- | --- |"]
            for s in cf.substitutions:
                n = sum(1 for k in fixes if k.sic == s.sic and k.corr == s.corr and k.kind == s.kind)
                out.append(f"| everywhere ({n}×) | “{esc(s.sic)}” | “{esc(s.corr)}” | {s.kind} | {link.prose(s.reason)} |")
            for k in cf.corrections:
                out.append(f"| character {k.at} | “{esc(k.sic)}” | “{esc(k.corr)}” | {k.kind} | {link.prose(k.reason)} |")
            out.append("")
        out += [f"### Verbatim text {{#verbatim-{tid}}}", "",
                f"Exactly as in `corpus/{t.file}` ({t.language}; line breaks as in the file).", "",
                fence(d.corpus.sources[tid], "text"), ""]
    return "\n".join(out) + "\n"






COVERAGE_PAGE = "coverage.md"


def coverage_page(d: SiteData) -> str:
    """Every clause with its status, as ``replay coverage`` reports it (:mod:`replay.trace.coverage`)."""
    from replay.trace.coverage import coverage_report

    link = Linker(d, COVERAGE_PAGE)
    report = coverage_report(d.corpus)
    out = ["---", "title: Coverage", "---", "", "# Coverage", "",
           "Every clause of the texts: the functions that implement it and the tests that show it, or why it "
           "has none. The same report as `replay coverage`; click a column heading to sort.", "",
           "| Status | Clauses |", "| --- | --- |"]
    out += [f"| {status} | {n} |" for status, n in report["summary"].items()]
    out += ["", '<div class="sortable" markdown>', "",
            "| Clause | Kind | Status | Functions | Tests |", "| --- | --- | --- | --- | --- |"]
    for c in report["clauses"]:
        fns = ", ".join(link.code_ref(f) for f in c["functions"] if f in d.impls)
        refs = d.tests.get(c["clause"], [])
        tests = ", ".join(link.test(t, str(i), t.name) for i, t in enumerate(refs, start=1))
        status = c["status"] + (f": {link.prose(c['excuse'])}" if c.get("excuse") else "")
        out.append(f"| [{c['clause']}]({link.clause(c['clause'])}) | {c['kind']} | {status} | {fns} | {tests} |")
    out += ["", "</div>", ""]
    if report["dangling"]:
        out += ["## Dangling references", ""] + [f"- {esc(x['from'])} cites **{esc(x['clause'])}**, which does not exist"
                                                 for x in report["dangling"]] + [""]
    return "\n".join(out)
