"""`replay trace`: from a rule sentence to the code that implements it, and back.

A query is, in this order of precedence: a clause ID (``zk-8``, any case); an
ambiguity ID (``amb-pf-playable-all``: the clauses it concerns); a test's node ID
(``tests/test_x.py::test_y``, or the test's name: the clauses it is tagged with); a
function's dotted name (or its last parts, e.g. ``zwarta_kolumna.freed_places_are_not_refilled``)
or a module's (``replay.games.zwarta_kolumna``, ``zwarta_kolumna``, or its file: every
rule function in it); or a phrase in Polish, Russian (pre-1918 or modern spelling, with
or without the OCR damage of the source) or English.  Phrases are matched against every
layer of every clause after :func:`~replay.trace.normalize.fold`, and against the English
witness passages aligned to it (Cadogan's words, ``corpus/witnesses/``), so that a reader
holding the English book finds the clause from its words; a phrase found whole ranks above
fuzzy matches; when nothing matches but one clause is clearly nearer than the others, it is
given as the best match.

The layers of a clause have one name each, here as on the site and in ``validate``:
*verbatim* (the source as printed, OCR damage and all), *diplomatic* (its repairs
applied), *modern* (modern spelling) and *translation*; a match in a witness passage names
the layer *witness* and the passage (:attr:`Hit.passage`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from replay.corpus.ids import PREFIX_ALTERNATION
from replay.corpus.loader import Corpus, default_corpus
from replay.engine.registry import Implementation, by_clause, excuses, implementations
from replay.trace.normalize import fold

ROOT = Path(__file__).resolve().parents[2]

#: layers of a clause that a phrase is matched against, with the name shown to the user (and the English
#: witness passages aligned to the clause, the layer WITNESS)
LAYERS = ("verbatim", "diplomatic", "modern", "translation")
WITNESS = "witness"
#: a fuzzy score (0-100) at or above this counts as a match
MATCH = 82.0
#: below a match, candidates at or above this are offered as "nearest"
NEAR = 45.0
#: no match, but the nearest clause scores at least BEST and leads the next by LEAD: it is the best match
BEST, LEAD = 65.0, 8.0
#: a witness passage's fuzzy score is its wording's (partial ratio) times this: a query nearly quoting it (about
#: 92% alike) matches, one that merely shares a run of common words does not
WITNESS_WEIGHT = 0.9


@dataclass(frozen=True)
class Hit:
    clause: str
    score: float  #: 0-100 (a whole-phrase match scores 100 and ranks by how much of the clause it covers)
    layer: str  #: which layer matched (a LAYERS name, or WITNESS)
    exact: bool
    #: for a match in a witness passage: (the witness file's ID, the passage's place in its ``passages``)
    passage: tuple[str, int] | None = None


@dataclass
class TraceResult:
    query: str
    kind: str  #: "clause", "ambiguity", "test", "function", "phrase", "best" (a paraphrase) or "none"
    hits: list[Hit] = field(default_factory=list)
    functions: list[Implementation] = field(default_factory=list)
    nearest: list[Hit] = field(default_factory=list)
    about: str = ""  #: for an ambiguity or a test: what the query named, in one line


@lru_cache(maxsize=1)
def _index() -> dict[str, list[tuple[str, str, tuple[str, int] | None]]]:
    """Clause ID -> (layer, folded text, witness passage or None) for each layer and each witness quotation."""
    corpus = default_corpus()
    out: dict[str, list[tuple[str, str, tuple[str, int] | None]]] = {}
    for cid, cl in corpus.clauses.items():
        layers = {"verbatim": cl.verbatim, "diplomatic": corpus.diplomatic(cid), "translation": cl.translation}
        if cl.normalized:
            layers["modern"] = cl.normalized
        out[cid] = [(k, fold(v), None) for k, v in layers.items()]
    for w in corpus.witnesses.values():
        for n, p in enumerate(w.passages):
            if p.quote and p.clause in out:
                out[p.clause].append((WITNESS, fold(p.quote), (w.id, n)))
    return out


def _registry() -> dict[str, Implementation]:
    from replay.games import catalog

    catalog()
    return implementations()


def find_functions(query: str) -> list[Implementation]:
    """Registered functions whose dotted name is ``query`` or ends with it (dot-separated), any case."""
    q = query.strip().casefold()
    if not q or " " in q:
        return []
    impls = _registry()
    exact = [i for i in impls.values() if i.name.casefold() == q]
    if exact:
        return exact
    return sorted((i for i in impls.values() if i.name.casefold().endswith("." + q)), key=lambda i: i.name)


def find_module(query: str) -> list[Implementation]:
    """Registered functions of the module ``query`` names: ``replay.games.zwarta_kolumna``,
    ``games.zwarta_kolumna``, ``zwarta_kolumna``, or its file ``replay/games/zwarta_kolumna.py``;
    or, for ``path.py:line`` as trace prints it, the function whose lines hold that line."""
    q = query.strip().casefold()
    if not q or " " in q:
        return []
    at = re.fullmatch(r"(.+\.py):(\d+)", q)
    if at:  # path:line, as trace prints a function: the function whose lines hold it
        file, line = at.group(1), int(at.group(2))
        return [i for i in _registry().values() if i.file.casefold() == file and i.line <= line <= i.end_line]
    if q.endswith(".py"):
        q = q[:-3].replace("/", ".").replace("\\", ".")
    impls = _registry()
    modules = {i.name.rsplit(".", 1)[0] for i in impls.values()}
    chosen = [m for m in modules if m.casefold() == q or m.casefold().endswith("." + q)]
    if len(chosen) != 1:
        return []
    return sorted((i for i in impls.values() if i.name.rsplit(".", 1)[0] == chosen[0]), key=lambda i: i.name)


def find_test(query: str) -> tuple[str, list[str]] | None:
    """(the test's node ID, its clause IDs) for a node ID ``tests/x.py::test_y`` (parameters in brackets
    allowed), a ``path:line`` as trace prints it, or a test's bare name when one test has it."""
    from replay.trace.testindex import clause_tests

    q = query.strip()
    if not q or " " in q:
        return None
    q = re.sub(r"\[.*\]$", "", q)  # a parametrized test's node ID: tests/x.py::test_y[case]
    tags, _ = clause_tests(ROOT)
    by_test: dict[str, list[str]] = {}
    lines: dict[str, str] = {}
    for cid, refs in tags.items():
        for r in refs:
            by_test.setdefault(r.nodeid, []).append(cid)
            if r.line:
                lines[f"{r.file}:{r.line}"] = r.nodeid
    node = q if q in by_test else lines.get(q)
    if node is None:
        named = [n for n in by_test if n.rsplit("::", 1)[-1] == q]
        node = named[0] if len(named) == 1 else None
    if node is None:
        return None
    return node, sorted(set(by_test[node]), key=_clause_order)


def find_phrase(query: str) -> tuple[list[Hit], list[Hit]]:
    """Clauses matching the phrase (ranked), and the nearest non-matching ones."""
    q = fold(query)
    if not q:
        return [], []
    scored: list[Hit] = []
    for cid, layers in _index().items():
        best: Hit | None = None
        for layer, text, passage in layers:
            if q in text:
                # the whole phrase is there: rank by how much of the clause (or passage) it covers
                hit = Hit(cid, 100.0 + len(q) / max(len(text), 1), layer, True, passage)
            else:
                s = fuzz.partial_ratio(q, text) if len(q) <= len(text) else fuzz.ratio(q, text)
                if passage is None:
                    tokens = fuzz.token_set_ratio(q, text)
                    hit = Hit(cid, float(max(s * 0.97, tokens * 0.9)), layer, False)
                else:  # a witness passage is long English prose, which a short English query resembles by chance:
                    # it is matched by its wording alone (not by its set of words), and must be nearly quoted
                    hit = Hit(cid, float(s * WITNESS_WEIGHT), layer, False, passage)
            if best is None or hit.score > best.score:
                best = hit
        if best is not None:
            scored.append(best)
    scored.sort(key=lambda h: (-h.score, _clause_order(h.clause)))
    matches = [h for h in scored if h.exact or h.score >= MATCH]
    if any(h.exact for h in matches):
        matches = [h for h in matches if h.exact]
    nearest = [h for h in scored if h not in matches and h.score >= NEAR][:3]
    return matches, nearest


def _clause_order(cid: str) -> tuple[str, int]:
    prefix, num = cid.split("-")
    return prefix, int(num)


_CLAUSE_ID = re.compile(rf"^\s*({PREFIX_ALTERNATION})[\s_-]*(\d+)\s*$", re.IGNORECASE)


def trace(query: str) -> TraceResult:
    """Resolve ``query`` to clauses or functions."""
    corpus = default_corpus()
    m = _CLAUSE_ID.match(query)
    if m:
        cid = f"{m.group(1).lower()}-{int(m.group(2))}"
        if cid in corpus.clauses:
            return TraceResult(query, "clause", [Hit(cid, 100.0, "id", True)])
        near = [Hit(c, 50.0, "id", False) for c in corpus.clauses if c.startswith(m.group(1).lower() + "-")]
        return TraceResult(query, "none", nearest=near[-3:])
    amb = corpus.ambiguities.get(query.strip().lower())
    if amb is not None:
        about = f"ambiguity {amb.id} — {amb.title}"
        return TraceResult(query, "ambiguity", [Hit(c, 100.0, "id", True) for c in amb.clauses], about=about)
    test = find_test(query)
    if test is not None:
        node, ids = test
        return TraceResult(query, "test", [Hit(c, 100.0, "id", True) for c in ids if c in corpus.clauses],
                           about=f"test {node}")
    funcs = find_functions(query) or find_module(query)
    if funcs:
        return TraceResult(query, "function", functions=funcs)
    hits, nearest = find_phrase(query)
    if hits:
        return TraceResult(query, "phrase", hits=hits)
    if nearest and nearest[0].score >= BEST and (len(nearest) == 1 or nearest[0].score - nearest[1].score >= LEAD):
        return TraceResult(query, "best", hits=nearest[:1], nearest=nearest[1:])
    return TraceResult(query, "none", nearest=nearest)


# --------------------------------------------------------------------------- reports


def clause_record(cid: str, corpus: Corpus | None = None, with_examples: bool = True) -> dict[str, Any]:
    """Everything known about a clause: texts, ambiguities, implementing functions, tests, example logs."""
    from replay.trace.testindex import clause_tests

    corpus = corpus or default_corpus()
    cl = corpus.clauses[cid]
    _registry()
    impls = by_clause().get(cid, [])
    tests = clause_tests(ROOT)[0].get(cid, [])
    rec: dict[str, Any] = {
        "id": cid,
        "game": cl.game,
        "variant": cl.variant,
        "kind": cl.kind,
        "text": corpus.text_of[cid],
        "verbatim": cl.verbatim,
        "diplomatic": corpus.diplomatic(cid),
        "modern": cl.normalized,
        "translation": cl.translation,
        "ambiguities": [
            {
                "id": a.id,
                "title": a.title,
                "status": a.status,
                "ruling": a.ruling,
                "default": a.default,
                "readings": [{"id": r.id, "summary": r.summary, "selectable": r.selectable} for r in a.readings],
            }
            for a in corpus.ambiguities_of_clause(cid)
        ],
        "implemented_by": [
            {"function": i.name, "kind": i.kind, "path": i.file, "line": i.line, "summary": i.summary}
            for i in impls
        ],
        "excused": excuses()[cid].reason if cid in excuses() else None,
        "tested_by": [{"test": t.name, "path": t.file, "line": t.line} for t in tests],
        "witnesses": witness_records(cid, corpus),
    }
    if with_examples:
        from replay.trace.examples import examples_touching

        rec["example_logs"] = examples_touching().get(cid, [])
    return rec


def witness_records(cid: str, corpus: Corpus | None = None) -> list[dict[str, Any]]:
    """The English witness passages aligned to a clause (originals first): which witness, where in its section,
    the quotation (or why there is none), the copy it was read in and what the clause changes."""
    corpus = corpus or default_corpus()
    out = []
    for w, p in corpus.witness_passages(cid):
        src = w.sources[p.source]
        rec: dict[str, Any] = {"witness": w.id, "passage": w.passages.index(p), "title": w.title,
                               "relation": w.relation, "part": p.part, "quote": p.quote, "url": src.url}
        if p.not_verified:
            rec["not_verified"] = p.not_verified
        if p.departs:
            rec["departs"] = p.departs
        out.append(rec)
    return out


def match_record(h: Hit) -> dict[str, Any]:
    """How a clause matched a query, as ``replay trace --format json`` gives it: the score, the layer, whether the
    phrase was found whole, and (a match in the English witness) the passage, as ``{"witness", "passage"}``."""
    rec: dict[str, Any] = {"score": round(min(h.score, 100.0), 1), "layer": h.layer, "exact": h.exact}
    if h.passage is not None:
        rec["witness"], rec["passage"] = h.passage
    return rec


def witness_lines(rec: dict[str, Any], match: dict[str, Any] | None = None, width: int = 100) -> list[str]:
    """The witness passages of a clause record as ``replay trace`` prints them: the passage the query matched
    (``match``, from :func:`match_record`) first, marked, then the others; each with its witness and part."""
    import textwrap

    passages = rec.get("witnesses") or []
    hit = (match or {}).get("witness"), (match or {}).get("passage")
    ordered = sorted(passages, key=lambda p: (p["witness"], p["passage"]) != hit)
    out = []
    for p in ordered:
        label = "witness:" if (p["witness"], p["passage"]) != hit else "matched in:"
        words = f"“{' '.join(p['quote'].split())}”" if p["quote"] else f"(no quotation: {p['not_verified']})"
        body = textwrap.wrap(f"{p['title']}, {p['part']}: {words}", width=width - 16, break_on_hyphens=False,
                             break_long_words=False) or [""]
        out += [f"  {label:<13} {body[0]}"] + [f"  {'':<13} {line}" for line in body[1:]]
    return out


def function_record(impl: Implementation) -> dict[str, Any]:
    corpus = default_corpus()
    return {
        "function": impl.name,
        "kind": impl.kind,
        "path": impl.file,
        "line": impl.line,
        "summary": impl.summary,
        "clauses": [clause_record(c, corpus) for c in impl.clauses if c in corpus.clauses],
    }
