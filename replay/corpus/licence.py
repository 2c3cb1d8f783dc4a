"""What ``corpus/LICENSE`` says, read from the file: the apparatus's licence (§1) and each source text's status (§2).

The site's page of licences and the TEI export both state them; the file is the one authority, so neither copies
its words into code.  And the version of the edition a citation names: its release date from ``corpus/changes.yaml``.
"""

from __future__ import annotations

import re

from replay.corpus.loader import Corpus

#: the legal code of the licence §1 names, by its version
CC_BY_URL = "https://creativecommons.org/licenses/by/{version}/legalcode"


def licence_text(corpus: Corpus) -> str | None:
    """``corpus/LICENSE`` as it stands (None when it is missing or unreadable)."""
    try:
        return (corpus.root / "LICENSE").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def apparatus_licence(text: str | None) -> tuple[str, str | None]:
    """The licence §1 names, as a name and the URL of its legal code: ``("CC BY 4.0 (…)", "https://…")``, or
    ``("see the file", None)`` when the file names no Creative Commons Attribution licence."""
    m = re.search(r"Creative Commons Attribution ([\d.]+) International", " ".join((text or "").split()))
    if not m:
        return "see the file", None
    v = m.group(1)
    return f"CC BY {v} (Creative Commons Attribution {v} International)", CC_BY_URL.format(version=v)


def source_status(text: str | None, tid: str) -> str | None:
    """The paragraph of §2 on text ``tid`` (a bullet ``* 000 (…): …``), run on; None when the file has none."""
    lines = (text or "").splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"* {tid} "):
            body = [line[2:]]
            for nxt in lines[i + 1:]:
                if not nxt.startswith("  ") or not nxt.strip():
                    break
                body.append(nxt.strip())
            return " ".join(" ".join(body).split())
    return None


def release_date(corpus: Corpus, version: str) -> str | None:
    """The day ``version`` was released, as ``corpus/changes.yaml`` records it (None: not released, or not recorded)."""
    for v in corpus.changes.versions if corpus.changes else ():
        if v.version == version:
            return v.date
    return None
