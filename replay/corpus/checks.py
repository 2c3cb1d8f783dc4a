"""Whole-corpus checks: `replay corpus check` prints one line per problem found here."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Protocol

from replay.corpus.loader import Corpus, load
from replay.corpus.models import GameInfo
from replay.engine.errors import CorpusError


class Unplayed(Protocol):
    """A finding of :func:`replay.games.played.unplayed_readings` (the corpus layer never imports the games)."""

    @property
    def game(self) -> str: ...
    @property
    def ruling(self) -> str: ...
    @property
    def reading(self) -> str: ...
    @property
    def ambiguity(self) -> str: ...
    @property
    def why(self) -> str: ...

_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Problem:
    file: str
    entry: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.entry}: {self.message}" if self.entry else f"{self.file}: {self.message}"


def clause_hash(verbatim: str) -> str:
    """The short hash the clause-ID lock records for a clause's verbatim text."""
    return hashlib.sha256(verbatim.encode("utf-8")).hexdigest()[:16]


def span_text(source: str, spans: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> str:
    return " … ".join(source[s:e] for s, e in spans)


def occurrence_pattern(needle: str) -> re.Pattern[str]:
    """Where a glossary form's ``match`` occurs: at the start of a word, case-insensitively.

    A match is a whole word or phrase, or the stem of one ("kart" finds "karty", "kartę"), but
    never a piece from inside a word: "rząd" must not be found in "porządku".
    """
    return re.compile(r"(?<!\w)" + re.escape(needle), re.IGNORECASE)


def check_corpus(root: Path | None = None) -> list[Problem]:
    """Every problem in the corpus (an empty list when it is sound)."""
    try:
        corpus = load(root)
    except CorpusError as e:
        return [Problem(str(e).split(":", 1)[0], "", str(e).split(":", 1)[-1].strip())]
    out: list[Problem] = []
    for fn in (_texts, _clauses, _corrections, _lock, _games, _ambiguities, _glossary, _layouts, _witnesses,
               _changes):
        out.extend(fn(corpus))
    return out


def unplayed_problems(c: Corpus, findings: Iterable[Unplayed]) -> list[Problem]:
    """The problems of the readings :func:`replay.games.played.unplayed_readings` found unplayed: one read by no
    rule function of its game always; one that plays as the default unless its entry says why (``plays_as_default``).
    A ``plays_as_default`` on a reading that is played, or on a default, is a problem too (it would outlive its reason).
    """
    out = []
    found = {(u.ambiguity, u.reading): u for u in findings}
    for u in found.values():
        a = c.ambiguities.get(u.ambiguity)
        f = f"ambiguities/{c.text_id_of_ambiguity(a) or '?'}.yaml" if a else "ambiguities"
        if u.why == "unread":
            out.append(Problem(f, u.ambiguity, f"reading {u.reading!r} of ruling {u.ruling!r} is read by no rule "
                               f"function of {u.game} (its module's RULINGS does not list it): a log naming it "
                               "would play the default"))
        elif a is None or not next((r.plays_as_default for r in a.readings if r.id == u.reading), None):
            out.append(Problem(f, u.ambiguity, f"reading {u.reading!r} of ruling {u.ruling!r} plays as the default "
                               f"{a.default if a else '?'!r} on random walks of every form of {u.game}: make it "
                               "play, or say why it is kept (plays_as_default)"))
    for a in c.ambiguities.values():
        for r in a.readings:
            if r.plays_as_default and (a.ruling is None or r.id == a.default or (a.id, r.id) not in found):
                f = f"ambiguities/{c.text_id_of_ambiguity(a) or '?'}.yaml"
                out.append(Problem(f, a.id, f"reading {r.id!r} says why it plays as the default (plays_as_default), "
                                   "but random walks find it playing otherwise, or it is no ruling's other reading"))
    return out


def _texts(c: Corpus) -> list[Problem]:
    out = []
    for t in c.texts.values():
        raw = (c.root / t.file).read_bytes()
        f = f"texts/{t.id}.yaml"
        if hashlib.sha256(raw).hexdigest() != t.sha256:
            out.append(Problem(f, t.id, f"{t.file} does not match its recorded SHA-256: a byte has changed"))
        if len(raw) != t.size:
            out.append(Problem(f, t.id, f"{t.file} is {len(raw)} bytes, recorded {t.size}"))
        for g in t.games:
            if g not in c.games:
                out.append(Problem(f, t.id, f"names game {g!r}, which has no file in games/"))
    return out


def _clauses(c: Corpus) -> list[Problem]:
    out = []
    for tid, cf in c.clause_files.items():
        f = f"clauses/{tid}.yaml"
        src = c.sources[tid]
        text = c.texts[tid]
        if cf.text != tid:
            out.append(Problem(f, "", f"says text {cf.text!r}"))
        pieces: list[tuple[int, int, str]] = []
        for cl in cf.clauses:
            for s, e in cl.spans:
                if e > len(src):
                    out.append(Problem(f, cl.id, f"span [{s}, {e}] runs past the end of the text ({len(src)})"))
                pieces.append((s, e, cl.id))
            if span_text(src, cl.spans) != cl.verbatim:
                out.append(Problem(f"{f}:{_line_of(c.root / f, cl.id)}", cl.id, span_mismatch(src, cl.spans, cl.verbatim)))
            if cl.game not in text.games:
                out.append(Problem(f, cl.id, f"game {cl.game!r} is not a game of text {tid}"))
            game = c.games.get(cl.game)
            if cl.variant and game and cl.variant not in {v.id for v in game.variants}:
                out.append(Problem(f, cl.id, f"variant {cl.variant!r} is not a variant of {cl.game}"))
            if (cl.kind == "variant") != (cl.variant is not None):
                out.append(Problem(f, cl.id, "a clause of kind 'variant' names its variant, and only such a clause does"))
            if "normalized" in text.layers and not cl.normalized:
                out.append(Problem(f, cl.id, "the modern-spelling reading (normalized) is missing"))
            for field in ("translation", "normalized"):
                val = getattr(cl, field)
                if val is not None and "TODO" in val:
                    out.append(Problem(f, cl.id, f"{field} is not written yet (TODO)"))
        pieces.sort()
        pos = 0
        for s, e, cid in pieces:
            if s < pos:
                out.append(Problem(f, cid, f"span starting at {s} overlaps the previous clause"))
            elif _WORD.search(src[pos:s]):
                out.append(Problem(f, cid, f"text between clauses is not covered: {src[pos:s]!r}"))
            pos = max(pos, e)
        if _WORD.search(src[pos:]):
            out.append(Problem(f, "", f"text after the last clause is not covered: {src[pos:][:60]!r}"))
    return out


def _short(text: str, n: int = 70) -> str:
    text = " ".join(text.split()) if len(text) > n else text
    return repr(text if len(text) <= n else text[: n - 1] + "…")


def fitting_spans(source: str, verbatim: str) -> list[list[tuple[int, int]]]:
    """Every set of spans whose text is ``verbatim`` (its pieces, joined by `` … ``, found in order), at most 5."""
    pieces = verbatim.split(" … ")
    out: list[list[tuple[int, int]]] = []

    def walk(i: int, start: int, got: list[tuple[int, int]]) -> None:
        if len(out) >= 5:
            return
        if i == len(pieces):
            out.append(list(got))
            return
        at = source.find(pieces[i], start)
        while at >= 0 and len(out) < 5:
            walk(i + 1, at + len(pieces[i]), [*got, (at, at + len(pieces[i]))])
            if i == 0 or len(pieces) == 1:
                at = source.find(pieces[i], at + 1)
            else:
                break
    if all(pieces):
        walk(0, 0, [])
    return out


def span_mismatch(source: str, spans: list[tuple[int, int]] | tuple[tuple[int, int], ...], verbatim: str) -> str:
    """The words of a wrong span: what the spans hold, what ``verbatim`` says, and the offsets that would fit."""
    shown = ", ".join(f"[{s}, {e}]" for s, e in spans)
    have = span_text(source, spans)
    fits = fitting_spans(source, verbatim)
    if fits:
        where = "; ".join("spans: [" + ", ".join(f"[{s}, {e}]" for s, e in f) + "]" for f in fits)
        hint = f"the verbatim text is at {where}"
    else:
        hint = "the verbatim text occurs nowhere in the source (is it copied exactly, with its OCR errors?)"
    at = next((i for i, (a, b) in enumerate(zip(have, verbatim)) if a != b), min(len(have), len(verbatim)))
    return (f"verbatim does not equal the text of its spans {shown}: the spans hold {_short(have)}, "
            f"verbatim is {_short(verbatim)} (they differ from character {at} on: {_short(have[at:at + 20], 24)} "
            f"against {_short(verbatim[at:at + 20], 24)}); {hint}")


def _line_of(path: Path, clause_id: str) -> int:
    """The line of ``path`` where the entry of ``clause_id`` starts (its ``id:`` key; 1 if not found)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    pat = re.compile(rf"^\s*-?\s*id:\s*['\"]?{re.escape(clause_id)}['\"]?\s*(#.*)?$")
    start = next((i for i, ln in enumerate(lines) if pat.match(ln)), None)
    if start is None:
        return 1
    spans = next((i for i in range(start, min(start + 12, len(lines))) if lines[i].strip().startswith("spans:")), start)
    return spans + 1


def _corrections(c: Corpus) -> list[Problem]:
    out = []
    for tid, cf in c.clause_files.items():
        f = f"clauses/{tid}.yaml"
        src = c.sources[tid]
        for k in cf.corrections:
            if src[k.at:k.at + len(k.sic)] != k.sic:
                out.append(Problem(f, f"correction at {k.at}", f"the text there is {src[k.at:k.at + len(k.sic)]!r}, not {k.sic!r}"))
        for sub in cf.substitutions:
            if sub.sic not in src:
                out.append(Problem(f, f"substitution {sub.sic!r}", "does not occur in the text"))
        spans = sorted((k.at, k.at + len(k.sic)) for k in c.corrections(tid))
        for (a, b), (x, _) in zip(spans, spans[1:]):
            if x < b:
                out.append(Problem(f, f"correction at {x}", f"overlaps the correction at {a}"))
    return out


def _lock(c: Corpus) -> list[Problem]:
    f = "clause-ids.yaml"
    if c.lock is None:
        return [Problem(f, "", "missing: run `replay corpus lock` and commit it")]
    out = []
    for cid, locked in c.lock.active.items():
        cl = c.clauses.get(cid)
        if cl is None:
            if cid not in c.lock.retired:
                out.append(Problem(f, cid, "this ID has disappeared from the corpus; IDs are only retired, with a note"))
        elif clause_hash(cl.verbatim) != locked.sha256 or c.text_of[cid] != locked.text:
            out.append(Problem(f, cid, "this ID now points at other text; never reuse an ID — add a new one and retire this"))
    for cid in c.clauses:
        if cid not in c.lock.active:
            out.append(Problem(f, cid, "new clause not in the lock: run `replay corpus lock` and commit the file"))
        if cid in c.lock.retired:
            out.append(Problem(f, cid, "this ID was retired and may not be used again"))
    return out


def _games(c: Corpus) -> list[Problem]:
    out = []
    for g in c.games.values():
        f = f"games/{g.id}.yaml"
        if g.text not in c.texts or g.id not in c.texts[g.text].games:
            out.append(Problem(f, g.id, f"text {g.text} does not list this game"))
        ids = [v.id for v in g.variants]
        if len(set(ids)) != len(ids):
            out.append(Problem(f, g.id, "variant IDs repeat"))
        for v in ids:
            if not any(cl.variant == v and cl.game == g.id for cl in c.clauses.values()):
                out.append(Problem(f, v, "no clause of the text belongs to this variant"))
        out += _plays_as(c, g, f, set(ids))
    return out


def _plays_as(c: Corpus, g: GameInfo, f: str, variants: set[str]) -> list[Problem]:
    """A relative's ``plays_as`` names variants of its game and rulings of its game with one of their readings."""
    out = []
    rulings = {a.ruling: a for a in c.ambiguities_of_game(g.id) if a.ruling}
    for r in g.relatives:
        p = r.plays_as
        if p is None:
            continue
        for v in p.variants:
            if v not in variants:
                out.append(Problem(f, r.name, f"plays_as: {v!r} is not a variant of {g.id}"))
        for name, reading in p.rulings.items():
            a = rulings.get(name)
            if a is None:
                out.append(Problem(f, r.name, f"plays_as: {name!r} is not a ruling of {g.id}"))
            elif reading not in {x.id for x in a.readings if x.selectable}:
                out.append(Problem(f, r.name, f"plays_as: {reading!r} is not a selectable reading of {name!r}"))
            elif a.variants and not set(a.variants) & set(p.variants):
                out.append(Problem(f, r.name, f"plays_as: {name!r} applies only with {', '.join(a.variants)}"))
    return out


def _ambiguities(c: Corpus) -> list[Problem]:
    out = []
    rulings: dict[tuple[str, str], str] = {}
    for a in c.ambiguities.values():
        f = f"ambiguities/{c.text_id_of_ambiguity(a) or '?'}.yaml"
        games = set()
        for cid in a.clauses:
            if cid not in c.clauses:
                out.append(Problem(f, a.id, f"names clause {cid}, which does not exist"))
            else:
                games.add(c.clauses[cid].game)
        prefix = a.id.split("-")[1]
        if any(not cid.startswith(prefix + "-") for cid in a.clauses):
            out.append(Problem(f, a.id, f"an 'amb-{prefix}-' entry may only name {prefix}- clauses"))
        if a.ruling:
            for g in games:
                key = (g, a.ruling)
                if key in rulings:
                    out.append(Problem(f, a.id, f"ruling {a.ruling!r} of {g} is already defined by {rulings[key]}"))
                rulings[key] = a.id
        for v in a.variants:
            if not any(v in {x.id for x in c.games[g].variants} for g in games if g in c.games):
                out.append(Problem(f, a.id, f"variant {v!r} is not a variant of {sorted(games)}"))
        if len(a.readings) < 2 and a.status != "resolved":
            out.append(Problem(f, a.id, "an entry with one reading has status 'resolved'"))
    return out


def _glossary(c: Corpus) -> list[Problem]:
    out = []
    for t in c.terms.values():
        f = "glossary"
        for other in t.see_also:
            if other not in c.terms:
                out.append(Problem(f, t.id, f"see_also names unknown term {other!r}"))
        for form in t.forms:
            needle = occurrence_pattern(form.match or form.form)
            for cid in form.occurs:
                cl = c.clauses.get(cid)
                if cl is None:
                    out.append(Problem(f, t.id, f"{form.form!r} is said to occur in unknown clause {cid}"))
                    continue
                hay = {
                    "pl": cl.verbatim,
                    "ru-old": c.diplomatic(cid) + " " + cl.verbatim,
                    "ru-modern": cl.normalized or "",
                    "en": cl.translation,
                }[form.lang]
                if not needle.search(hay):
                    out.append(Problem(f, t.id, f"{form.form!r} (looked for as {(form.match or form.form)!r}, "
                                                f"at the start of a word) does not occur in {cid}"))
    return out


def _layouts(c: Corpus) -> list[Problem]:
    out = []
    for spec in c.layouts.values():
        f = f"layouts/{spec.id}.yaml"
        if spec.game not in c.games:
            out.append(Problem(f, spec.id, f"unknown game {spec.game!r}"))
            continue
        if spec.reading is not None:
            readings = {r.id for a in c.ambiguities_of_game(spec.game) if a.ruling for r in a.readings}
            if spec.reading not in readings:
                out.append(Problem(f, spec.id, f"reading {spec.reading!r} is no reading of any ruling of {spec.game}"))
    return out


def _witnesses(c: Corpus) -> list[Problem]:
    """Every quotation names its source, and every passage a clause of the witness's game."""
    out = []
    for w in c.witnesses.values():
        f = f"witnesses/{w.id}.yaml"
        if w.game not in c.games:
            out.append(Problem(f, w.id, f"unknown game {w.game!r}"))
        used = set()
        for p in w.passages:
            where = f"{w.id} {p.clause}"
            cl = c.clauses.get(p.clause)
            if cl is None:
                out.append(Problem(f, where, f"names clause {p.clause}, which does not exist"))
            elif cl.game != w.game:
                out.append(Problem(f, where, f"{p.clause} is a clause of {cl.game}, not of {w.game}"))
            if p.source not in w.sources:
                out.append(Problem(f, where, f"the quotation names source {p.source!r}, which `sources` does not define"))
            used.add(p.source)
            if p.quote is not None and ("TODO" in p.quote or p.quote != p.quote.strip()):
                out.append(Problem(f, where, "the quotation is not written out (TODO or stray spaces)"))
        for key in w.sources:
            if key not in used:
                out.append(Problem(f, w.id, f"source {key!r} is quoted by no passage"))
    return out


def _changes(c: Corpus) -> list[Problem]:
    """The record of changes agrees with the register: every ruling, reading and default of the register is
    accounted for version by version (:func:`replay.corpus.history.problems`)."""
    from replay.corpus.history import problems

    out = [Problem("changes.yaml", "", p) for p in problems(c)]
    known = set(c.texts) | set(c.clauses) | set(c.ambiguities)
    for v in c.changes.versions if c.changes else ():
        for r in v.apparatus:
            out += [Problem("changes.yaml", v.version, f"apparatus {r.subject!r} cites {x!r}, which is no text, clause "
                            "or register entry") for x in r.cites if x not in known]
    return out

