"""Draw a table in the terminal, in the shape of its layout, with the pile names.

Each container takes one cell of a grid: the distinct rows and columns of the layout
(fractional ones included, e.g. a stock at row 4.5) are taken in order, so the drawing
keeps the layout's shape; a blank line marks a gap of more than one row.  A cell shows
the pile's name and card count and its top card (a foundation: its top card and suit).
"""

from __future__ import annotations

from typing import Callable

from replay.engine import cards as C
from replay.engine.game import Table
from replay.engine.layout import FOUNDATION, STOCK
from replay.log.describe import dealt

Style = Callable[[int, str], str]


def _plain(card: int, text: str) -> str:
    return text


def rich_style(card: int, text: str) -> str:
    """Rich markup: red suits in red."""
    return f"[red]{text}[/red]" if C.is_red(card) else f"[bold]{text}[/bold]"


def card_text(card: int, codes: bool) -> str:
    return C.code(card) if codes else C.pretty(card)


def cell_lines(t: Table, i: int, codes: bool) -> tuple[str, str, int]:
    """The two lines of a cell (name line, card line) and the card shown (-1: none)."""
    g = t.game
    pile = t.piles[i]
    name = t.name(i)
    role = g.roles[i]
    label = g.layout.labels[i]
    head = name + (f"·{label}" if label and label not in name else "")
    if role == STOCK:
        return f"{head} ({len(pile)})", ("▒▒" if pile else "--"), -1
    if role == FOUNDATION:
        suit = t.fsuit[i]
        head += f" {C.SUIT_SYMBOLS[suit] if suit >= 0 and not codes else (C.SUITS[suit] if suit >= 0 else '')}"
        if pile:
            return head.rstrip() + f" ({len(pile)})", card_text(pile[-1], codes), pile[-1]
        return head.rstrip(), "··", -1
    count = f" ({len(pile)})" if pile else ""
    if pile:
        return head + count, card_text(pile[-1], codes), pile[-1]
    return head, "--", -1


def draw(t: Table, codes: bool = False, style: Style = _plain, width: int | None = None) -> list[str]:
    """The table as lines of text (with ``style`` applied to the top cards).

    ``width`` (a terminal's columns; None: no limit) fits the drawing to it: the cells are narrowed to
    one space between them, and when the layout is still too wide (exiles' thirteen packets) its columns
    are cut into bands drawn one under the other, each with the same rows, so that every pile name still
    stands above its card.
    """
    lay = t.game.layout
    cols = sorted(set(lay.cols))
    content = {i: cell_lines(t, i, codes) for i in range(len(lay.names))}
    widest = max(max(len(a), len(b)) for a, b, _ in content.values())
    cell = widest + 2
    if width is None or len(cols) * cell - 2 <= width:
        return _grid(t, content, cols, cell, style)
    if len(cols) * (widest + 1) - 1 <= width:
        return _grid(t, content, cols, widest + 1, style)
    # bands: as few as fit, with two spaces between the cells where that takes no more bands than one space
    bands, cell = min((-(-len(cols) // max(1, (width + gap) // (widest + gap))), -gap) for gap in (2, 1))
    cell = widest - cell
    per = -(-len(cols) // bands)  # as even as the bands can be
    out: list[str] = []
    for b in range(bands):
        if b:
            out.append("")
        out += _grid(t, content, cols[b * per:(b + 1) * per], cell, style)
    return out


def _grid(t: Table, content: dict[int, tuple[str, str, int]], cols: list[float], width: int,
          style: Style) -> list[str]:
    """The rows of the layout over the columns ``cols`` (rows with no container there left out)."""
    lay = t.game.layout
    cells = {(lay.rows[i], lay.cols[i]): i for i in range(len(lay.names))}
    rows = sorted({lay.rows[i] for i in range(len(lay.names)) if lay.cols[i] in cols})
    out: list[str] = []
    last = None
    for r in rows:
        if last is not None and r - last > 1:
            out.append("")
        last = r
        top, bottom = [], []
        for c in cols:
            i = cells.get((r, c))
            if i is None:
                top.append(" " * width)
                bottom.append(" " * width)
                continue
            a, b, card = content[i]
            top.append(a.ljust(width))
            pad = " " * (width - len(b))
            bottom.append((style(card, b) if card >= 0 else b) + pad)
        out.append("".join(top).rstrip())
        out.append("".join(bottom).rstrip())
    return out


def piles_listing(t: Table, codes: bool = False, style: Style = _plain) -> list[str]:
    """Every container's cards, bottom first (the stock: next card first)."""
    lay = t.game.layout
    width = max(len(n) for n in lay.names)
    out = []
    for i, n in enumerate(lay.names):
        cards = t.piles[i][::-1] if i == t.game.stock else t.piles[i]
        shown = " ".join(style(c, card_text(c, codes)) for c in cards) or "-"
        out.append(f"{n:<{width}}  {shown}")
    return out


def state_line(t: Table) -> str:
    home = t.cards_home()
    parts = [f"pass {t.passes}", dealt(t),
             f"{home} card{'s' if home != 1 else ''} on the foundations"]
    state = {k: v for k, v in t.vars.items() if not k.startswith("_") and v not in (None, 0, [], {})}
    parts += [f"{k}: {v}" for k, v in sorted(state.items())]
    return "; ".join(parts)
