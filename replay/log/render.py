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


def draw(t: Table, codes: bool = False, style: Style = _plain) -> list[str]:
    """The table as lines of text (with ``style`` applied to the top cards)."""
    lay = t.game.layout
    rows = sorted(set(lay.rows))
    cols = sorted(set(lay.cols))
    cells = {(lay.rows[i], lay.cols[i]): i for i in range(len(lay.names))}
    content = {i: cell_lines(t, i, codes) for i in range(len(lay.names))}
    width = max(max(len(a), len(b)) for a, b, _ in content.values()) + 2
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
    parts = [f"pass {t.passes}", f"{t.rounds} round{'s' if t.rounds != 1 else ''} dealt",
             f"{home} card{'s' if home != 1 else ''} on the foundations"]
    state = {k: v for k, v in t.vars.items() if not k.startswith("_") and v not in (None, 0, [], {})}
    parts += [f"{k}: {v}" for k, v in sorted(state.items())]
    return "; ".join(parts)
