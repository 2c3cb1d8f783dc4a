"""The clause-ID lock (``corpus/clause-ids.yaml``): IDs are added, never renumbered."""

from __future__ import annotations

import json

from replay.corpus.checks import clause_hash
from replay.corpus.loader import Corpus


def update_lock(corpus: Corpus) -> tuple[str, list[str]]:
    """The lock file's new text (existing entries kept as they are, new clauses added) and the IDs added."""
    active = dict(corpus.lock.active) if corpus.lock else {}
    retired = dict(corpus.lock.retired) if corpus.lock else {}
    added = []
    lines = [
        "# Clause-ID lock: every clause ID ever issued, with a hash of its verbatim text.",
        "# A test fails if an ID disappears or comes to point at other text. Add IDs with",
        "# `replay corpus lock`; retire one by moving it to `retired` with a note. Never renumber.",
        "active:",
    ]
    for cid, cl in corpus.clauses.items():
        if cid not in active:
            added.append(cid)
    order = list(active) + added
    text: str
    for cid in order:
        if cid in active:
            entry = active[cid]
            text, sha, quote = entry.text, entry.sha256, entry.quote
        else:
            cl = corpus.clauses[cid]
            text, sha, quote = corpus.text_of[cid], clause_hash(cl.verbatim), " ".join(cl.verbatim.split()[:6])
        lines.append(f"  {cid}: {{text: \"{text}\", sha256: {sha}, quote: {json.dumps(quote, ensure_ascii=False)}}}")
    lines.append("retired:" + ("" if retired else " {}"))
    for cid, r in retired.items():
        lines.append(f"  {cid}: {{text: \"{r.text}\", note: {json.dumps(r.note, ensure_ascii=False)}}}")
    return "\n".join(lines) + "\n", added
