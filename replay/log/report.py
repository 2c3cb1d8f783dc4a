"""Verdicts on logs: the problems found and how they are shown (text for people, JSON for programs).

A :class:`Report` is the verdict on one log:

* ``valid`` - every move legal, the result claim (if any) true;
* ``illegal`` - a well-formed log whose play breaks the rules (``illegal-move``, citing a
  clause), names the wrong card (``card-mismatch``) or claims a false result (``false-result``);
* ``malformed`` - not a log of this format for this game (bad JSON, wrong types, unknown names,
  an impossible deck, …): one problem, one line;
* ``error`` - the log could not be read (``io-error``) or the validator failed (``internal-error``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from replay.log.names import printable_json

VALID, ILLEGAL, MALFORMED, ERROR = "valid", "illegal", "malformed", "error"
VERDICTS = (VALID, ILLEGAL, MALFORMED, ERROR)

#: problem code -> the verdict it gives (documented in docs/log-format.md)
CODES: dict[str, str] = {
    "illegal-move": ILLEGAL,
    "card-mismatch": ILLEGAL,
    "false-result": ILLEGAL,
    "too-large": MALFORMED,
    "not-utf8": MALFORMED,
    "json-syntax": MALFORMED,
    "too-deep": MALFORMED,
    "schema": MALFORMED,
    "too-many-moves": MALFORMED,
    "unknown-move-type": MALFORMED,
    "bad-card": MALFORMED,
    "unknown-game": MALFORMED,
    "unknown-variant": MALFORMED,
    "bad-combination": MALFORMED,
    "unknown-ruling": MALFORMED,
    "unknown-reading": MALFORMED,
    "unknown-pile": MALFORMED,
    "invalid-deck": MALFORMED,
    "io-error": ERROR,
    "internal-error": ERROR,
}

REPORT_FORMAT = "replay-report/1"


@dataclass
class Problem:
    """One thing wrong with a log, and where."""

    code: str  #: one of :data:`CODES`
    message: str  #: what is wrong, in one line
    path: str = "$"  #: JSON path of the offending value
    line: int | None = None
    column: int | None = None
    move: int | None = None  #: index of the move (0-based), for problems of play
    written: str | None = None  #: the move as the log writes it
    clause: str | None = None  #: the clause broken (illegal-move only)
    diplomatic: str | None = None  #: the clause in the source text, its OCR repairs applied (the diplomatic layer)
    translation: str | None = None  #: its English translation
    held: str | None = None  #: what the relevant piles held, in one line
    snapshot: dict[str, Any] | None = None  #: the whole table when the move was tried
    carried_out: bool | None = None  #: --lenient: whether the move was made anyway

    @property
    def verdict(self) -> str:
        return CODES[self.code]

    def where(self, file: str) -> str:
        """``file:line:column`` (or ``file`` alone when the place has no line)."""
        if self.line is not None:
            return f"{file}:{self.line}:{self.column}"
        return file


@dataclass
class Report:
    """The verdict on one log."""

    file: str
    verdict: str = VALID
    game: str | None = None
    variants: list[str] = field(default_factory=list)
    rulings: dict[str, str] = field(default_factory=dict)  #: every ruling that applies, resolved
    moves: int = 0  #: moves in the log
    replayed: int = 0  #: moves replayed (up to the first violation unless lenient)
    outcome: str | None = None  #: won / lost / unfinished after the moves replayed
    claimed: str | None = None  #: the log's result claim
    until: int | None = None  #: replay stopped after this many moves (--until)
    snapshots_omitted: int = 0  #: --lenient: violations past the cap whose table snapshot was not kept
    details_omitted: int = 0  #: --lenient: violations kept without their quoted clause and table (the report's room)
    cut_at: int | None = None  #: --lenient: the move (0-based) from which violations are only counted
    omitted: int = 0  #: --lenient: violations from ``cut_at`` on, counted and not listed
    problems: list[Problem] = field(default_factory=list)
    #: the version of the archive whose rules and defaults the log was read with (corpus/changes.yaml)
    archive: str | None = None
    #: the rulings that apply and that the log does not name, each with the reading applied by default and its
    #: history: since which version it is the default, what an older archive read (the edition's record of changes)
    defaulted: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.verdict == VALID

    @property
    def first(self) -> Problem | None:
        return self.problems[0] if self.problems else None

    def add(self, p: Problem) -> None:
        self.problems.append(p)
        rank = VERDICTS.index
        if rank(p.verdict) > rank(self.verdict):
            self.verdict = p.verdict

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["problems"] = [{k: v for k, v in asdict(p).items() if v is not None} for p in self.problems]
        return d


# --------------------------------------------------------------------------- text


def _quote(s: str | None) -> str:
    return "“" + " ".join(s.split()) + "”" if s else "(not found in the corpus)"


def problem_lines(report: Report, p: Problem) -> list[str]:
    """A problem as text: one line for a malformed log; a short block for a violation."""
    where = p.where(report.file)
    if p.verdict in (MALFORMED, ERROR):
        path = "" if p.path == "$" else f" {p.path}:"
        return [f"{where}: {p.verdict}:{path} {p.message}"]
    if p.code == "false-result":
        return [f"{where}: illegal: {p.path}: {p.message}"]
    from replay.log.locate import move_ref  # a problem's words only

    head = f"{where}: illegal {move_ref(p.move)}" if p.move is not None else f"{where}: illegal ({p.path})"
    if p.written:
        head += f" {p.written}"
    out = [head]
    if p.code == "card-mismatch":
        out.append(f"  card-mismatch: {p.message}")
    else:
        out.append(f"  breaks {p.clause}: {p.message}")
        if p.clause:
            out.append(f"  diplomatic:  {_quote(p.diplomatic)}")
            out.append(f"  translation: {_quote(p.translation)}")
    if p.held:
        out.append(f"  table held:  {p.held}")
    if p.carried_out is not None:
        out.append("  (carried out anyway; the replay goes on)" if p.carried_out
                   else "  (cannot be carried out; skipped, the replay goes on)")
    return out


def summary_of(report: Report) -> str:
    bits = [report.game or "?"]
    if report.variants:
        bits.append("+".join(report.variants))
    n = f"{report.replayed} move{'s' if report.replayed != 1 else ''}"
    if report.until is not None and report.until < report.moves:
        n += f" of {report.moves} (--until)"
    bits.append(n)
    if report.outcome:
        bits.append(report.outcome)
    return ", ".join(bits)


def default_text(note: dict[str, Any]) -> str:
    """One reading applied by default, with what an older archive read: ``base-timing=on-dealing (a ruling since
    0.1.0; before it, as-playable)``, ``foundations=withdrawn-first (the default since 0.2.0; before, aces-and-kings)``."""
    said = []
    if "ruling_since" in note:
        before = note["before_the_ruling"]
        said.append(f"a ruling since {note['ruling_since']}; " + ("played so before it too" if before == note["reading"]
                                                                  else f"before it, {before}"))
    earlier = note.get("earlier_defaults")
    if earlier:
        said.append(f"the default since {note['default_since']}; before, {earlier[-1]['reading']}")
    return f"{note['ruling']}={note['reading']}" + (f" ({'; '.join(said)})" if said else "")


def defaults_lines(report: Report) -> list[str]:
    """The readings applied by default to the rulings the log leaves out, and the archive's version (none when the
    log names every ruling that applies)."""
    if not report.defaulted:
        return []
    which = f"archive {report.archive}" if report.archive else "this archive"
    return [f"  read by default under {which}, the log naming no reading: "
            + ", ".join(default_text(n) for n in report.defaulted)]


def report_lines(report: Report) -> list[str]:
    """The verdict on one log as text (with the readings applied by default, when the log leaves a ruling out)."""
    if report.ok:
        return [f"{report.file}: valid ({summary_of(report)})"] + defaults_lines(report)
    out: list[str] = []
    for p in report.problems:
        out.extend(problem_lines(report, p))
    if (len(report.problems) > 1 or report.omitted) and report.verdict == ILLEGAL:
        cut = ""
        if report.snapshots_omitted:
            cut = (f"; table snapshots kept for the first {len(report.problems) - report.snapshots_omitted} "
                   f"only, {report.snapshots_omitted} omitted")
        if report.details_omitted:
            cut += f"; {report.details_omitted} without their clause and table"
        if report.omitted:
            from replay.log.locate import move_ref

            cut += (f"; the report stops at {move_ref(report.cut_at or 0)}: {report.omitted} more "
                    f"violation{'s' if report.omitted != 1 else ''} counted, not listed (a report is kept within "
                    "a few times the log's size)")
        out.append(f"{report.file}: {len(report.problems) + report.omitted} problems ({summary_of(report)}){cut}")
    return out + defaults_lines(report)


class Tally:
    """Verdict counts and the exit code of a run, kept as the reports go by (the reports are not kept)."""

    def __init__(self) -> None:
        self.counts = {v: 0 for v in VERDICTS}

    def add(self, report: Report) -> None:
        self.counts[report.verdict] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def exit_code(self) -> int:
        if self.counts[ERROR]:
            return 2
        return 1 if self.total - self.counts[VALID] else 0


class JsonStream:
    """The ``replay-report/1`` document written as the reports are made, one log at a time.

    The output is the document :func:`json_document` makes (``format``, then the ``logs`` array,
    then ``summary`` and ``exit_code``), written incrementally so that memory stays flat however
    many logs there are; each log's object is written whole as soon as its verdict is known.
    """

    def __init__(self, write: Callable[[str], None], format: str = REPORT_FORMAT) -> None:
        self.write, self.tally, self._first = write, Tally(), True
        write('{\n  "format": ' + json.dumps(format) + ',\n  "logs": [')

    def add(self, report: Report) -> None:
        self.tally.add(report)
        self.add_json(report.to_json())

    def add_json(self, item: Any) -> None:
        """Write one element of ``logs`` (as ``json.dumps(document, indent=2)`` would place it)."""
        body = printable_json(json.dumps(item, ensure_ascii=False, indent=2)).replace("\n", "\n    ")
        self.write(("\n    " if self._first else ",\n    ") + body)
        self._first = False

    def close(self, extra: dict[str, Any] | None = None, tally: bool = True) -> int:
        """End the document (with the summary and the exit code of the reports added, then ``extra``);
        returns that exit code.  ``tally=False``: only ``extra`` follows the array."""
        tail = {"summary": self.tally.counts, "exit_code": self.tally.exit_code} if tally else {}
        tail.update(extra or {})
        inner = printable_json(json.dumps(tail, ensure_ascii=False, indent=2))[1:-2]
        self.write(("\n  ]," if not self._first else "],") + inner + "\n}\n")
        return self.tally.exit_code


def count_verdicts(reports: list[Report]) -> dict[str, int]:
    counts = {v: 0 for v in VERDICTS}
    for r in reports:
        counts[r.verdict] += 1
    return counts


def summary_line(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    parts = [f"{counts[v]} {v}" for v in VERDICTS if counts[v] or v == VALID]
    return f"{total} log{'s' if total != 1 else ''}: " + ", ".join(parts)


def exit_code(reports: list[Report]) -> int:
    """0 when every log is valid, 1 when one is rejected, 2 when one could not be read."""
    if any(r.verdict == ERROR for r in reports):
        return 2
    return 0 if all(r.ok for r in reports) else 1


def json_document(reports: list[Report], extra: dict[str, Any] | None = None) -> str:
    counts = count_verdicts(reports)
    doc = {
        "format": REPORT_FORMAT,
        "logs": [r.to_json() for r in reports],
        "summary": counts,
        "exit_code": exit_code(reports),
    }
    if extra:
        doc.update(extra)
    return printable_json(json.dumps(doc, ensure_ascii=False, indent=2))
