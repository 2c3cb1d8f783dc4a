"""What ``replay play`` shows in a terminal: the table, the last move, the legal moves and the session's answer,
fitted to the terminal's width and height (issue 31), so that the table, the last move and the prompt are on one
screen.

:func:`compose` lays out the :class:`Parts` of a screen.  Every line is cut at word boundaries to the width
(:func:`wrap`: a line's further rows indented past its first); the rows are counted, and while they are more
than the height leaves above the prompt, the screen is made tighter, one step at a time (:data:`STEPS`): the
note on several numbers goes (``help`` says it), the moves are listed several a line, the blank lines go,
a refusal's quoted clause is printed above the screen and the screen keeps its first lines, the line of
commands goes, the moves not allowed now are named with their clauses only, a long comment or answer keeps
two rows (an answer is printed in full above), and at last the list keeps only the moves that fit, ``moves``
listing them all.  The drawing of
the table itself is never cut.  Off a terminal (a file of moves) none of this applies: ``replay play`` prints
every line as it is.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Sequence

from replay.play.moves import AHEAD, Choice, NotNow, alike_note, short_form

#: the tightening steps, in the order they are taken (each keeps the ones before)
STEPS = ("full", "no-ahead", "compact", "no-blanks", "refusal-above", "no-commands", "short-reasons", "cut-long",
         "cut-list")

#: at the step ``cut-long``, the most rows the last move (its comment) and each line of an answer keep on the screen
LONG_ROWS = 2

#: what a refusal's first lines are followed by when its quoted clause is printed above the screen
QUOTED_ABOVE = "  (the clause and the table it was refused on are quoted above)"


@dataclass
class Parts:
    """The pieces of one screen, as the session and the table give them (not yet wrapped)."""

    header: list[str]  #: the game, rulings and state (``replay show``'s first lines)
    drawing: list[str]  #: the table's drawing, each line already fitted to the width (markup allowed)
    last: str | None  #: ``last: move 4 ($.moves[3]) p6 → K2  QS`` (None: no move yet)
    legal: Sequence[Choice]
    verdict: str  #: where the game stands (:func:`replay.play.moves.verdict`)
    not_now: Sequence[NotNow] = ()
    said: list[str] = field(default_factory=list)  #: the session's answer (``undone: …``, ``noted on …``)
    refused: list[str] = field(default_factory=list)  #: a refusal, as ``replay validate`` words it
    #: the refusal in a line or two, for when it is printed in full above the screen (None: its lines up to the
    #: quoted clause, and :data:`QUOTED_ABOVE`)
    brief: list[str] | None = None
    commands: str = ""  #: the line of commands above the prompt


@dataclass
class Row:
    """One line to print: ``where`` is ``out`` (standard output), ``err`` (a refusal, standard error) or
    ``drawing`` (standard output, with the drawing's markup)."""

    text: str
    where: str = "out"


@dataclass
class Screen:
    """What to print: ``above`` (what scrolls off: a refusal in full when the screen keeps only its start), then
    ``rows``, which fit the height above the prompt (unless the drawing alone does not)."""

    above: list[Row]
    rows: list[Row]
    step: str  #: the tightest step taken (:data:`STEPS`)


def wrap(line: str, width: int | None, hang: int | None = None, sep: str | None = None) -> list[str]:
    """``line`` cut at word boundaries into lines of at most ``width`` characters, its further lines indented
    ``hang`` spaces (None: two past its own indent); a word longer than the width is not broken (the terminal
    wraps it).  ``sep`` (the state line's ``"; "``): cut where it stands first, at words only inside a part
    longer than a line.  As it is when it fits, or when ``width`` is None."""
    if width is None or len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    pad = " " * (indent + 2 if hang is None else hang)
    if sep:
        parts = line.split(sep)
        out, cur = [], parts[0]
        for part in parts[1:]:
            if len(cur) + len(sep) + len(part) <= width:
                cur += sep + part
            else:
                out.append((cur + sep).rstrip())
                cur = pad + part
        return [x for chunk in out + [cur] for x in wrap(chunk, width, len(pad))]
    wrapped = textwrap.wrap(line, width, subsequent_indent=pad, break_long_words=False, break_on_hyphens=False)
    return wrapped or [line]


def rows_of(lines: Sequence[str | Row], width: int) -> int:
    """The terminal rows ``lines`` take at ``width`` columns (a line longer than the width takes several; a line
    of the drawing, fitted already, one whatever its markup)."""
    return sum(1 if isinstance(x, Row) and x.where == "drawing" else
               max(1, -(-len(x.text if isinstance(x, Row) else x) // width)) for x in lines)


def compact_move(c: Choice) -> str:
    """A choice in a few characters: ``p5→f1 AC``, ``tuck p10→p1 AS``, ``p3→p5 7H×3``, ``deal``; the other
    foundations of a move to an empty one as ``(or f2…f8)``."""
    text = short_form(c.step, compact=True)
    if c.alike:
        others = [a["to"] for a in c.alike]
        text += f" (or {others[0]}…{others[-1]})" if len(others) > 2 else f" (or {', '.join(others)})"
    return text


def columns(items: Sequence[str], width: int, indent: int = 2, gap: int = 2) -> list[str]:
    """``items`` in as many columns as ``width`` holds, read down each column (as ``ls`` lists files)."""
    if not items:
        return []
    cell = max(len(x) for x in items) + gap
    across = max(1, (width - indent + gap) // cell)
    down = -(-len(items) // across)
    lines = []
    for r in range(down):
        row = [items[i] for i in range(r, len(items), down)]
        lines.append((" " * indent + "".join(x.ljust(cell) for x in row)).rstrip())
    return lines


def numbered(legal: Sequence[Choice]) -> list[str]:
    """Each choice as ``12 p5→f1 AC``, the numbers right-aligned."""
    digits = len(str(len(legal)))
    return [f"{c.number:>{digits}} {compact_move(c)}" for c in legal]


def not_now_lines(items: Sequence[NotNow], merge: bool, short: bool = False) -> list[str]:
    """``  no deal: ex-10: …`` for each move the rules forbid now; ``merge``: those with the same clause and reason
    in one line (``  no deal, no redeal: ex-10: …``); ``short``: one line for all, their clauses only (typed,
    such a move is refused with its reason)."""
    if short and items:
        return ["  not now: " + ", ".join(f"{x.type} ({x.clause})" for x in items)]
    if not merge:
        return [f"  no {x.type}: {x.clause}: {x.reason}" for x in items]
    groups: dict[tuple[str, str], list[str]] = {}
    for x in items:
        groups.setdefault((x.clause, x.reason), []).append(f"no {x.type}")
    return [f"  {', '.join(kinds)}: {clause}: {reason}" for (clause, reason), kinds in groups.items()]


def _quoted(refused: list[str]) -> int:
    """How many of a refusal's lines come before its quoted clause (``diplomatic:``): the head and the rule."""
    for i, line in enumerate(refused):
        if line.lstrip().startswith(("diplomatic:", "translation:", "table held:")):
            return i
    return len(refused)


def _layout(p: Parts, width: int, step: str, room: int) -> tuple[list[Row], list[Row]]:
    """The rows above and on the screen at ``step``; ``room``: the rows the screen may take (for the last step,
    which cuts the list to what fits)."""
    at = STEPS.index(step)
    blank = [] if at >= STEPS.index("no-blanks") else [Row("")]

    def out(lines: Sequence[str], where: str = "out") -> list[Row]:
        return [Row(x, where) for line in lines for x in wrap(line, width)]

    header = [Row(x) for line in p.header for x in wrap(line, width, sep="; ")]
    head = header + blank + [Row(x, "drawing") for x in p.drawing] + blank
    long = at >= STEPS.index("cut-long")

    def cut(lines: Sequence[str], where: str = "out") -> list[Row]:
        return [Row(x, where) for line in lines for x in _cut(line, width)] if long else out(lines, where)

    last = cut([p.last] if p.last else [])
    above: list[Row] = []
    if long and rows_of(out(p.said), width) > LONG_ROWS * len(p.said):
        above = out(p.said)
    refused = p.refused
    if refused and at >= STEPS.index("refusal-above") and _quoted(refused) < len(refused):
        above = above + out(refused, "err")
        refused = p.brief if p.brief is not None else refused[:_quoted(refused)] + [QUOTED_ABOVE]
    tail = cut(p.said) + cut(refused, "err") + ([] if at >= STEPS.index("no-commands") or not p.commands
                                               else out([p.commands]))
    merge = at >= STEPS.index("compact")
    after = out([p.verdict] + not_now_lines(p.not_now, merge, at >= STEPS.index("short-reasons")))
    if at < STEPS.index("compact"):
        digits = len(str(len(p.legal)))
        listed = out([f"  {c.number:>{digits}}  {c.short}{alike_note(c)}" for c in p.legal])
    else:
        listed = out(columns(numbered(p.legal), width))
    if at < STEPS.index("no-ahead") and len(p.legal) > 1:
        after += out([f"({AHEAD})"])
    if step == "cut-list":
        keep = room - rows_of(head + last + after + tail, width)
        if rows_of(listed, width) > keep:
            listed = out(_cut_list(p.legal, width, max(0, keep - 1)))
    return above, head + last + listed + after + tail


def _cut(line: str, width: int) -> list[str]:
    """``line`` wrapped (:func:`wrap`) and cut to its first :data:`LONG_ROWS` rows, the last ending ``…`` (a word
    longer than a row is cut where the row ends: it cannot stand whole)."""
    rows = [r[i:i + width] for r in wrap(line, width) for i in range(0, max(1, len(r)), width)]
    if len(rows) <= LONG_ROWS:
        return rows
    kept = rows[:LONG_ROWS]
    kept[-1] = (kept[-1] if len(kept[-1]) < width else kept[-1][:width - 1]) + "…"
    return kept


def _cut_list(legal: Sequence[Choice], width: int, rows: int) -> list[str]:
    """The first moves of the list in ``rows`` rows of columns, then how many more there are."""
    items = numbered(legal)
    shown = next(n for n in range(len(items), -1, -1) if len(columns(items[:n], width)) <= rows)  # none: no row
    more = len(items) - shown
    return columns(items[:shown], width) + ([f"  … and {more} more: 'moves' lists every one"] if more else [])


def compose(p: Parts, width: int, height: int | None) -> Screen:
    """The screen for a terminal of ``width`` columns and ``height`` rows (None: no limit), with the prompt's row
    left free: the first step of :data:`STEPS` whose rows fit, else the tightest."""
    room = None if height is None else height - 1
    for step in STEPS:
        above, rows = _layout(p, width, step, room or 0)
        if room is None or rows_of(rows, width) <= room:
            return Screen(above, rows, step)
    return Screen(above, rows, step)
