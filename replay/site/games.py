"""Game pages: provenance, layout diagrams, then the text clause by clause.

Each clause is a heading whose anchor is the clause ID (``games/zwarta-kolumna/#zk-8``),
followed by the original (diplomatic text; the verbatim one in a collapsible block
when they differ; the modern-spelling reading for Russian) beside the English
translation and, where one exists, the English witness (Cadogan's words that the clause
renders or echoes, with where they were read and what the text changed), the translator's
notes, **Implemented by** (autorefs links to the API
documentation of each function and relative links to its source lines), **Tested
by** (links to the tagged tests' source lines) and the ambiguities of the register
that concern it, as callouts.  Glossary terms become tooltips (``abbr``).
"""

from __future__ import annotations

import re
from collections import OrderedDict

from replay.corpus.models import Ambiguity, Clause, LayoutSpec, Passage, PlaysAs, WitnessFile
from replay.engine.registry import Implementation
from replay.site.data import SiteData
from replay.site.links import Linker
from replay.site.play import play_link, reading_link
from replay.site.text import attr, doc_md, esc, indent, one_line

LANG_NAMES = {"pl": "Polish", "ru": "Russian"}
KIND_TEXT = {
    "setup": "setup", "rule": "rule", "variant": "variant rule", "example": "example",
    "commentary": "commentary", "provenance": "provenance",
}
STATUS_TEXT = {"ruling": "ruling", "resolved": "resolved", "no-play-difference": "no play difference"}


# --------------------------------------------------------------------------- layouts


def layouts_of(d: SiteData, gid: str) -> list[LayoutSpec]:
    return sorted((s for s in d.corpus.layouts.values() if s.game == gid), key=lambda s: s.id)


def layout_selection(d: SiteData, spec: LayoutSpec) -> tuple[Ambiguity | None, bool]:
    """The register entry whose ruling selects this layout, and whether it is the default."""
    if spec.reading is None:
        return None, True
    for amb in d.corpus.ambiguities_of_game(spec.game):
        if amb.ruling and any(r.id == spec.reading for r in amb.readings):
            return amb, amb.default == spec.reading
    return None, False


def foundation_suits(d: SiteData, spec: LayoutSpec) -> dict[str, str]:
    """Suit letter of each foundation that the engine fixes before play, for the default arrangement.

    Asks the engine: the game is created with the ruling that selects this layout, and the
    suits of the base cards it lays out (or the suits it fixes without a card) are read back.
    """
    from replay.engine import cards as C
    from replay.games import create

    amb, _ = layout_selection(d, spec)
    rulings = {amb.ruling: spec.reading} if amb and amb.ruling and spec.reading else {}
    variants = amb.variants[:1] if amb and amb.variants else []  # a ruling that only a variant has
    game = create(spec.game, variants, rulings=rulings)
    if game.layout.spec.id != spec.id:
        return {}
    out = {}
    for f, card in game.setup.bases.items():
        out[game.layout.names[f]] = C.SUITS[C.suit_of(card)]
    for f, suit in game.setup.suits.items():
        out[game.layout.names[f]] = C.SUITS[suit]
    return out


def layout_section(d: SiteData, gid: str, link: Linker) -> str:
    specs = layouts_of(d, gid)
    if not specs:
        return "*No layout is recorded for this game.*\n"
    out = []
    if len(specs) > 1:
        amb, _ = layout_selection(d, specs[0])
        which = f" ([{amb.id}]({link.ambiguity(amb.id)}), ruling `{amb.ruling}`)" if amb else ""
        out.append(f"The figure is lost; the register keeps {len(specs)} reconstructions{which}. "
                   "Each tab draws one. Numbers on the piles give the order of the deal.\n")
    for spec in specs:
        amb, default = layout_selection(d, spec)
        tab = spec.id + (" (default)" if default and len(specs) > 1 else "")
        img = link.to(d.layout_asset(spec.id))
        body = [f"[![{attr(spec.title)}]({img}){{ .layout-diagram loading=lazy }}]({img} \"Open the drawing\")", ""]
        body.append(f"**{esc(spec.title)}.** {link.prose(spec.description)}")
        body.append("")
        if amb:
            body.append(f"Selected by the ruling `{amb.ruling}` = `{spec.reading}` "
                        f"([{amb.id}]({link.ambiguity(amb.id)}))" + (", the default." if default else "."))
            body.append("")
        body.append(layout_table(spec))
        if len(specs) > 1:
            out.append(f'=== "{tab}"\n\n{indent(chr(10).join(body))}\n')
        else:
            out.append("\n".join(body) + "\n")
    return "\n".join(out)


def layout_table(spec: LayoutSpec) -> str:
    deal = {n: i + 1 for i, n in enumerate(spec.deal)}
    later = {n: i + 1 for i, n in enumerate(spec.later_deal or spec.deal)}
    gather = {n: i + 1 for i, n in enumerate(spec.gather or spec.deal)}
    rows = ["| Pile | Role | Called | Row | Column | Dealt | Later deals | Gathered |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    fmt = lambda x: f"{x:g}"  # noqa: E731
    for p in spec.piles:
        rows.append(f"| `{p.name}` | {p.role} | {esc(p.label) or '—'} | {fmt(p.row)} | {fmt(p.col)} | "
                    f"{deal.get(p.name, '—')} | {later.get(p.name, '—')} | {gather.get(p.name, '—')} |")
    for f in spec.foundations:
        base = "ace, builds up" if f.base == "A" else "king, builds down"
        rows.append(f"| `{f.name}` | foundation ({base}) | — | {fmt(f.row)} | {fmt(f.col)} | — | — | — |")
    table = "\n".join(rows)
    out = f'??? abstract "Piles of {spec.id}"\n\n{indent(table)}\n'
    if spec.arrangements:
        arr = ["| Arrangement | " + " | ".join(f"`{f.name}`" for f in spec.foundations) + " |",
               "| --- |" + " --- |" * len(spec.foundations)]
        for name, suits in spec.arrangements.items():
            arr.append(f"| `{name}` | " + " | ".join(_suit(suits[f.name]) for f in spec.foundations) + " |")
        out += f'\n??? abstract "Suit arrangements of {spec.id}"\n\n{indent(chr(10).join(arr))}\n'
    return out


def _suit(s: str) -> str:
    sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s]
    return f'<span class="suit-{s}">{sym}</span>'


# --------------------------------------------------------------------------- clauses


def words_with(text: str, needle: str) -> set[str]:
    """The words or phrases of ``text`` that begin with ``needle`` (case-insensitive), as they are spelt.

    As in ``replay corpus check``, a match starts a word: it is never a piece from inside one.
    """
    if not needle.strip():
        return set()
    from replay.corpus.checks import occurrence_pattern

    pat = re.compile(occurrence_pattern(needle).pattern + r"\w*", re.IGNORECASE)  # and the rest of the word
    return {m.group(0) for m in pat.finditer(text) if m.group(0)}


def glossary_words(d: SiteData, gid: str) -> dict[str, dict[str, str]]:
    """Per clause of this game: word or phrase, as spelt there -> its tooltip (gloss and definition).

    Only the terms of art (``art`` in the glossary), and only in the source texts (the diplomatic and verbatim Polish or Russian, and
    the modern-spelling Russian), and only for the words as they literally occur there: each
    glossary form's ``match`` (or the form itself) is looked for in the clauses it ``occurs`` in,
    and the whole word around it is taken.  A word is marked only in the clauses the glossary lists
    it for: the same words elsewhere may mean something else (pf-5's "cztery kąty" are four corner
    cards, not the variant).
    """
    found: dict[str, dict[str, list[str]]] = {}
    clauses = {c.id: c for c in d.clauses_of(gid)}
    for term in d.corpus.terms.values():
        if not term.art:  # an ordinary word: in the glossary, not underlined in the text
            continue
        tip = f"{term.gloss}: {one_line(term.definition)}"
        for form in term.forms:
            if form.lang == "en":
                continue
            needle = form.match or form.form
            for cid in form.occurs:
                c = clauses.get(cid)
                if c is None:
                    continue
                if form.lang == "ru-modern":
                    layers = [c.normalized or ""]
                else:
                    layers = [d.corpus.diplomatic(cid), c.verbatim]
                for layer in layers:
                    for w in words_with(layer, needle):
                        if re.match(r"^\w", w) and re.search(r"\w$", w):
                            tips = found.setdefault(cid, OrderedDict()).setdefault(w, [])
                            if tip not in tips:
                                tips.append(tip)
    return {cid: {w: " / ".join(tips) for w, tips in ws.items()} for cid, ws in found.items()}


def mark_terms(md_text: str, words: dict[str, str]) -> str:
    """Wrap the glossary words of escaped Markdown text in ``<abbr title>`` (longest match first)."""
    if not words:
        return md_text
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    pat = re.compile(rf"(?<!\w)({alternatives})(?!\w)")
    # tabindex: the tooltip opens on keyboard focus too, not only under a pointer
    return pat.sub(lambda m: f'<abbr title="{attr(words[m.group(1)])}" tabindex="0">{m.group(1)}</abbr>', md_text)


def clause_heading(c: Clause) -> str:
    kind = KIND_TEXT.get(c.kind, c.kind)
    return f"### {c.id} · {kind} {{#{c.id} data-toc-label=\"{c.id} · {kind}\"}}"


def clause_text_block(d: SiteData, c: Clause, link: Linker, words: dict[str, str] | None = None) -> str:
    tid = d.corpus.text_of[c.id]
    text = d.corpus.texts[tid]
    lang = text.language
    diplomatic = d.corpus.diplomatic(c.id)
    cols = []
    if lang == "ru":
        cols.append(("diplomatic", "ru", "Diplomatic · pre-1918 spelling", diplomatic))
        if c.normalized:
            cols.append(("modern", "ru", "Modern · present-day spelling", c.normalized))
    else:
        cols.append(("diplomatic", lang, f"Diplomatic · {LANG_NAMES.get(lang, lang)}", diplomatic))
    cols.append(("translation", "en", "Translation · English", c.translation))
    witnesses = d.corpus.witness_passages(c.id)
    for w, p in witnesses:
        if p.quote is not None:
            src = w.sources[p.source]
            kind = "English original" if w.relation == "original" else "Compare"
            cols.append(("witness", "en", f"{kind} · {src.section.title()} · {p.part}", f"“{p.quote}”"))
    # two Russian columns: the English beneath them, the whole width (three layers) or beside
    # the English witness (four) -- replay.css
    shape = ""
    if lang == "ru" and len(cols) in (3, 4):
        shape = f" clause-text--{'three' if len(cols) == 3 else 'four'}"
    out = [f'<div class="clause-text{shape}" markdown>', ""]
    for cls, lng, caption, body in cols:
        shown = esc(body) if cls in ("translation", "witness") else mark_terms(esc(body), words or {})
        out += [f'<div class="clause-{cls}" lang="{lng}" markdown>', "",
                f'<span class="layer">{caption}</span>', "", shown, "", "</div>", ""]
    out += ["</div>", ""]
    out += witness_notes(witnesses, link)
    if diplomatic != c.verbatim:
        fixes = d.corpus.clause_corrections(c.id)
        kinds: OrderedDict[tuple[str, str, str], int] = OrderedDict()
        for k in fixes:
            kinds.setdefault((k.sic, k.corr, k.kind), 0)
            kinds[(k.sic, k.corr, k.kind)] += 1
        listed = "; ".join(f"“{esc(s)}” → “{esc(r)}” ({kind}{', ×' + str(n) if n > 1 else ''})"
                           for (s, r, kind), n in kinds.items())
        verbatim = [f'<div lang="{lang}" markdown>', "", mark_terms(esc(c.verbatim), words or {}), "", "</div>", "",
                    f"Repairs made in the text above: {listed}. The whole verbatim text: "
                    f"[text {tid}]({link.verbatim(tid)})."]
        out.append('??? quote "Verbatim, as digitized"\n\n' + indent("\n".join(verbatim)) + "\n")
    return "\n".join(out)


def witness_notes(witnesses: list[tuple[WitnessFile, Passage]], link: Linker) -> list[str]:
    """Under the columns: where each English witness was read, and where the clause departs from it (an original)
    or differs from it (a relative, cited for comparison)."""
    out = []
    for w, p in witnesses:
        src = w.sources[p.source]
        where = (f"{esc(src.work)}, {esc(src.edition)}, {esc(src.section)}, {esc(p.part)} "
                 f"([copy consulted]({src.url}))")
        if p.quote is None:
            out += [f'<p class="clause-witness-note" markdown>**{esc(w.title)}**, {esc(p.part)}: not verified. '
                    f"{link.prose(p.not_verified or '')}</p>", ""]
            continue
        text = f"**{esc(w.title)}**: {where}."
        if p.departs:  # an original is departed from; a relative (cited for comparison) only differs
            label = "Departs from the English" if w.relation == "original" else "Where our text differs"
            text += f" **{label}:** " + link.prose(p.departs)
        out += [f'<p class="clause-witness-note" markdown>{text}</p>', ""]
    return out


def implemented_by(d: SiteData, c: Clause, link: Linker) -> str:
    impls: list[Implementation] = d.by_clause.get(c.id, [])
    if impls:
        lines = ["**Implemented by**", ""]
        for impl in impls:
            lines.append(
                f"- {link.code_ref(impl.name)} · {impl.kind} · `{impl.module}` — {doc_md(impl.summary)} "
                f"[lines {impl.line}–{impl.end_line}]({link.source(impl.file, impl.line, impl.end_line)})"
            )
        return "\n".join(lines) + "\n"
    excuse = d.excuses.get(c.id)
    if excuse:
        return f"**Implemented by** no function, deliberately: {link.prose(excuse.reason)}\n"
    if c.kind in ("provenance", "commentary"):
        return f"**Implemented by** nothing: a {c.kind} clause states no rule.\n"
    return "**Implemented by** no function yet.\n"


def tested_by(d: SiteData, c: Clause, link: Linker) -> str:
    refs = d.tests.get(c.id, [])
    if not refs:
        return "**Tested by** no tagged test.\n"
    lines = ["**Tested by**", ""]
    for t in refs:
        lines.append(f"- {link.test(t)} · `{t.file}" + (f":{t.line}`" if t.line else "`"))
    return "\n".join(lines) + "\n"


def ambiguity_callout(d: SiteData, a: Ambiguity, link: Linker, first_at: str | None) -> str:
    status = f"ruling {a.ruling}" if a.ruling else STATUS_TEXT.get(a.status, a.status)
    title = f"{a.id} · {one_line(a.title)} · {status}"
    title = title.replace('"', "'")
    if first_at:
        body = (f"See under [{first_at}](#{first_at}) above. Default reading: `{a.default}`. "
                f"[In the register]({link.ambiguity(a.id)}).")
        return f'??? question "{title}"\n\n{indent(body)}\n'
    return f'??? question "{title}"\n\n{indent(ambiguity_body(d, a, link))}\n'


def ambiguity_body(d: SiteData, a: Ambiguity, link: Linker) -> str:
    lines = [link.prose(a.problem), "", "**Readings**", ""]
    for r in a.readings:
        marks = []
        if r.id == a.default:
            marks.append("**default**")
        if not r.selectable:
            marks.append("*not selectable*")
        mark = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"- `{r.id}`{mark} — {link.prose(r.summary)}{reading_link(d, link, a, r.id)}")
        if r.detail:
            lines.append(f"    {link.prose(r.detail)}")
    lines += ["", f"**Why `{a.default}`:** {link.prose(a.reasons)}", ""]
    if a.evidence:
        lines += ["**Evidence**", ""]
        for e in a.evidence:
            cite = f" ({link.prose(e.cite)})" if e.cite else ""
            lines.append(f"- {esc(e.source)}{cite}: {link.prose(e.says)}")
        lines.append("")
    if a.measured:
        lines += ["**Measured** (the figures the argument rests on, from the committed statistics)", ""]
        for m in a.measured:
            home = f", {m.mean_home:.1f} cards home on average" if m.mean_home is not None else ""
            lines.append(f"- `{m.form}`, {m.budget:,} positions a deal ({esc(m.data)}): {m.won} of {m.deals:,} "
                         f"deals won, {m.unwinnable} proved lost{home}. {link.prose(m.says)}")
        lines.append("")
    status = STATUS_TEXT.get(a.status, a.status)
    if a.ruling:
        scope = f", in the variant(s) {', '.join(f'`{v}`' for v in a.variants)}" if a.variants else ""
        lines.append(f"**Status:** {status}: a log selects the reading with the ruling `{a.ruling}`{scope} "
                     f"(`\"rulings\": {{\"{a.ruling}\": \"…\"}}`).")
    else:
        lines.append(f"**Status:** {status}.")
    evidence = playability_of(d, a, link)
    if evidence:
        lines += ["", evidence]
    lines += ["", f"Clauses: {link.clause_list(a.clauses)} · category {a.category} · "
              f"[in the register]({link.ambiguity(a.id)})"]
    return "\n".join(lines)


def plays_as_text(d: SiteData, gid: str, p: PlaysAs, link: Linker) -> str:
    """Under which of our readings the engine plays as a relative's rules, and how that played in the table."""
    if p.unplayable:
        return f"*Not played as {esc(p.title)}:* {link.prose(p.unplayable)}"
    form = ", ".join([*(f"the variant `{v}`" for v in p.variants),
                      *(f"`{k} = {v}`" for k, v in p.rulings.items())]) or "our default readings"
    out = f"*Played as {esc(p.title)}:* {form}."
    label = " ".join([gid] + ["+" + v for v in p.variants] + [f"{k}={v}" for k, v in sorted(p.rulings.items())])
    from replay.solver.page import RELATIVES_ANCHOR, relative_rows, true_rate

    rows = [*relative_rows(d.stats), *d.stats["forms"]] if d.stats else []  # our defaults: the game's own row
    row = next((x for x in rows if x["label"] == label), None)
    if row:
        lo, hi = true_rate(row["solver"], row["deals"])
        where = f" ([statistics]({link.to(d.stats_page, RELATIVES_ANCHOR)}))" if d.stats_page else ""
        out += (f" Measured{where}: won {row['solver']['won']} of {row['deals']:,} deals, proved lost "
                f"{row['solver']['unwinnable']}; the true rate lies in {100 * lo:.1f}–{100 * hi:.1f}%.")
    if p.beyond:
        out += "\n\n" + "\n".join(f"- Beyond our readings: {link.prose(x)}" for x in p.beyond)
    return out


def playability_of(d: SiteData, a: Ambiguity, link: Linker) -> str:
    """How the readings of an entry's ruling played in the results table, where they play differently
    (:func:`replay.solver.page.playability`); empty without a table, a ruling or a difference."""
    if not a.ruling or d.stats is None:
        return ""
    from replay.solver.page import RULINGS_ANCHOR, playability, playability_text

    for gid in dict.fromkeys(d.corpus.clauses[c].game for c in a.clauses if c in d.corpus.clauses):
        ev = playability(d.stats, gid, a.ruling)
        if ev:
            return playability_text(ev, link.to(d.stats_page, RULINGS_ANCHOR) if d.stats_page else None)
    return ""


def clause_block(d: SiteData, c: Clause, link: Linker, seen_amb: dict[str, str], level: int = 3,
                 words: dict[str, str] | None = None) -> str:
    heading = clause_heading(c).replace("### ", "#" * level + " ", 1)
    tid = d.corpus.text_of[c.id]
    start, end = c.spans[0][0], c.spans[-1][1]
    known = {v.id for v in d.corpus.games[c.game].variants} if c.game in d.corpus.games else set()
    variant = ""
    if c.variant:
        variant = f" · variant [`{c.variant}`](#variant-{c.variant})" if c.variant in known else f" · variant `{c.variant}`"
    from replay.site.about import cite_line

    parts = [heading, "",
             f"Text [{tid}]({link.text(tid)}), characters {start}–{end}{variant}", "{ .clause-meta }", "",
             clause_text_block(d, c, link, words), cite_line(d, c.id, link)]
    if c.notes:
        parts += [f"*Notes.* {link.prose(c.notes)}", "{ .clause-notes }", ""]
    parts += [implemented_by(d, c, link), tested_by(d, c, link)]
    for a in d.corpus.ambiguities_of_clause(c.id):
        # in the search index once, in the register (each entry its own section there): not in every clause
        callout = ambiguity_callout(d, a, link, seen_amb.get(a.id))
        parts.append(f"<div data-search-exclude=\"\" markdown>\n\n{callout}\n</div>\n")
        seen_amb.setdefault(a.id, c.id)
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- the page


def provenance_section(d: SiteData, tid: str, link: Linker, *, collapsible: bool = True) -> str:
    """The provenance of a text: the summary, then what is known, inferred and unknown, with evidence."""
    p = d.corpus.texts[tid].provenance
    out = [link.prose(p.summary), ""]
    blocks = [("success", "Known", p.known), ("tip", "Inferred", p.inferred)]
    for kind, title, items in blocks:
        if not items:
            continue
        body = []
        for s in items:
            body.append(f"- {link.prose(s.claim)}")
            for e in s.evidence:
                cite = f" ({link.prose(e.cite)})" if e.cite else ""
                body.append(f"    - *{esc(e.source)}*{cite}: {link.prose(e.says)}")
        text = "\n".join(body)
        head = f"{title}: {len(items)} statement{'s' if len(items) != 1 else ''}, with their evidence"
        if collapsible:
            out += [f'??? {kind} "{head}"', "", indent(text), ""]
        else:
            out += [f"**{title}**", "", text, ""]
    if p.unknown:
        text = "\n".join(f"- {link.prose(u)}" for u in p.unknown)
        if collapsible:
            out += [f'??? question "Unknown: {len(p.unknown)} open question{"s" if len(p.unknown) != 1 else ""}"',
                    "", indent(text), ""]
        else:
            out += ["**Unknown**", "", text, ""]
    return "\n".join(out)


def rulings_table(d: SiteData, gid: str, link: Linker) -> str:
    ambs = [a for a in d.corpus.ambiguities_of_game(gid) if a.ruling]
    if not ambs:
        return "This game has no rulings: every ambiguity of its text is resolved.\n"
    rows = ["| Ruling | Readings (default first) | Ambiguity | Applies to |", "| --- | --- | --- | --- |"]
    for a in ambs:
        readings = [r for r in a.readings if r.selectable]
        readings.sort(key=lambda r: r.id != a.default)
        shown = ", ".join((f"**`{r.id}`**" if r.id == a.default else f"`{r.id}`")
                          + f" ([play]({play_link(link, gid, a.variants[:1], {a.ruling: r.id})} "
                            f"\"play under this reading\"))" for r in readings if a.ruling)
        scope = ", ".join(f"`{v}`" for v in a.variants) or "every form"
        rows.append(f"| `{a.ruling}` | {shown} | [{a.id}]({link.ambiguity(a.id)}) {esc(a.title)} | {scope} |")
    return "\n".join(rows) + "\n"


def game_page(d: SiteData, gid: str) -> str:
    g = d.corpus.games[gid]
    here = d.game_page(gid)
    link = Linker(d, here)
    tid = g.text
    text = d.corpus.texts[tid]
    clauses = d.clauses_of(gid)
    main = [c for c in clauses if not c.variant]
    by_variant: dict[str, list[Clause]] = OrderedDict((v.id, []) for v in g.variants)
    for c in clauses:
        if c.variant:
            by_variant.setdefault(c.variant, []).append(c)
    ambs = d.corpus.ambiguities_of_game(gid)
    n_impl = len({i.name for c in clauses for i in d.by_clause.get(c.id, [])})
    n_tests = len({(t.file, t.name) for c in clauses for t in d.tests.get(c.id, [])})

    out = ["---", f"title: {_yaml_str(g.title)}", f"description: {_yaml_str(one_line(g.summary))}",
           "search:", "  boost: 3", "---", ""]
    orig = f" — *{esc(g.original_title)}*" if g.original_title else ""
    out += [f"# {esc(g.title)}{orig}", "", link.prose(g.summary), ""]
    if g.also_known_as:
        out += ["Also known as " + ", ".join(f"*{esc(n)}*" for n in g.also_known_as) + ".", ""]
    n_var = len([v for v in by_variant if by_variant[v]])
    split = f" ({len(main)} in the main game, {len(clauses) - len(main)} in {n_var} variants)" if len(main) < len(clauses) else ""
    out += [
        f"- **Text** [{tid}]({link.text(tid)}): {esc(text.title)} · {LANG_NAMES.get(text.language, text.language)}, "
        f"{esc(text.orthography)} · [the whole text]({link.to(f'texts/{tid}.md')}), its TEI P5 document",
        f"- **Clauses** {len(clauses)}{split}",
        f"- **Ambiguities** {len(ambs)}, {sum(1 for a in ambs if a.ruling)} of them with a ruling",
        f"- **Code** {n_impl} rule functions in [`{_game_module(gid)}`]({link.module(_game_module(gid))}) · "
        f"**Tests** {n_tests} tagged tests",
    ]
    # in the search index once, on the sources page (its #provenance-<text>): not again on every game of the text
    out += ["## Provenance { data-search-exclude }", "", provenance_section(d, tid, link)]
    out += ["## Layout", "", layout_section(d, gid, link)]
    out += ["## Rulings", "",
            "What a log may switch, each between the readings of an entry of the "
            f"[ambiguity register]({link.to('ambiguities.md')}):", "", rulings_table(d, gid, link)]
    seen: dict[str, str] = {}
    words = glossary_words(d, gid)
    out += ["## The text, clause by clause", "",
            "Each clause in its layers: the diplomatic text (the verbatim one with its OCR errors repaired, the "
            "verbatim one a click away)" + (", its modern reading in modern spelling" if text.language == "ru" else "")
            + " and the English translation; then the code that implements it and the tests that show it.", ""]
    for c in main:
        out.append(clause_block(d, c, link, seen, words=words.get(c.id, {})))
    if g.variants:
        out += ["## Variants", ""]
        for v in g.variants:
            vt = f" — *{esc(v.original_title)}*" if v.original_title else ""
            out += [f"### {esc(v.title)}{vt} {{#variant-{v.id}}}", "", f"`{v.id}`: {link.prose(v.summary)}", ""]
            vc = by_variant.get(v.id, [])
            if not vc:
                out += ["*No clause of the text belongs to this variant alone.*", ""]
            for c in vc:
                out.append(clause_block(d, c, link, seen, level=4, words=words.get(c.id, {})))
    if g.relatives:
        out += ["## Published relatives", ""]
        for r in g.relatives:
            out += [f"**{link.prose(r.name)}** — {link.prose(r.where)}", ""]
            if r.differences:
                out += ["Differences (our text wins):", ""] + [f"- {link.prose(x)}" for x in r.differences] + [""]
            if r.followed:
                out += ["Where our text is silent and we follow it:", ""] + [f"- {link.prose(x)}" for x in r.followed] + [""]
            if r.plays_as:
                out += [plays_as_text(d, gid, r.plays_as, link), ""]
    examples = [e for e in d.examples if e.game == gid]
    if examples:
        out += ["## Example games", ""]
        for e in examples:
            out.append(f"- [{e.form} / {e.name}]({link.to(e.page)})")
        out.append("")
    return "\n".join(out) + "\n"


def _game_module(gid: str) -> str:
    from replay.games.catalog import MODULES

    return MODULES.get(gid, "replay.games")


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
