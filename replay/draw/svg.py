"""Pure-Python SVG drawings of layouts and tables (no dependency, deterministic output).

Two drawings share one grid: a pile at grid ``(row, col)`` is a card-shaped
rectangle whose top-left corner is at ``(MARGIN_X + col * PITCH_X, MARGIN_Y + row * PITCH_Y)``.

* :func:`layout_svg` draws a reconstruction from ``corpus/layouts`` (as the engine's
  :class:`~replay.engine.edition.LayoutPlan`): every pile with its
  name, what the text calls it (corner labels), its place in the dealing order (and in
  later deals when they differ), foundations with their base (A builds up, K builds
  down) and suit where the default arrangement fixes it, stock, waste and reserves,
  and dashed guides for each row and column of the grid.
* :func:`table_svg` draws a position: the top card of every container, how many cards
  it holds, and (optionally) the source and target of the move that led to it.  Its sizes are
  :data:`DEFAULT` (the site's and the viewer's drawing, scaled to fit its page) or, for the Play page,
  :func:`fitted` to the width it is shown at: one unit a CSS pixel, no text under 12 px, cards at
  least 48 px wide, a grid row wider than the screen wrapped onto the rows below it (:func:`fold`).

The same input always gives the same bytes: numbers are formatted with fixed
precision, dictionaries are walked in layout order, and nothing depends on time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Iterable, Mapping, Sequence

from replay.engine.edition import LayoutPlan

CARD_W, CARD_H = 62, 86
PITCH_X, PITCH_Y = 84, 116
MARGIN_X, MARGIN_Y = 44, 34
RADIUS = 6

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
RANK_TEXT = {"T": "10"}

#: fill, stroke and caption of each role
ROLE_STYLE = {
    "tableau": ("#ffffff", "#37474f", "pile"),
    "foundation": ("#e8f5e9", "#2e7d32", "foundation"),
    "stock": ("#1565c0", "#0d47a1", "stock"),
    "waste": ("#fffde7", "#9e9d24", "waste"),
    "reserve": ("#eceff1", "#546e7a", "reserve"),
}
ROLE_ORDER = ("tableau", "foundation", "stock", "waste", "reserve")


@dataclass(frozen=True)
class Metrics:
    """The sizes of a table drawing, in SVG units: the cards, the grid, the margins, each text's size and
    place (offsets from a card's top-left corner)."""

    card_w: float = CARD_W
    card_h: float = CARD_H
    pitch_x: float = PITCH_X
    pitch_y: float = PITCH_Y
    margin_x: float = MARGIN_X
    margin_y: float = MARGIN_Y
    pad_x: float = 24  #: right of the last column
    pad_y: float = 22  #: below the last row
    face: float = 22  #: the top card, in the middle
    face_y: float = 50
    corner: float = 11  #: the top card again, in the top-left corner
    corner_x: float = 5
    corner_y: float = 14
    under: float = 11  #: the cards beneath it, as many as fit in 9 characters (0: not drawn)
    under_y: float = 74
    label: float = 12  #: the container's name (and count) under the card
    label_y: float = CARD_H + 14
    count: float = 12  #: the stock's count
    note: float = 10  #: "empty"
    stock_box: float = 20  #: height of the white box around the stock's count
    count_inside: bool = False  #: the count in the card's bottom-right corner (the label: the name alone)
    hit: bool = False  #: a transparent rectangle over the whole cell, the container's touch target


#: the site's and the viewer's drawing
DEFAULT = Metrics()

#: the Play page's drawing: the smallest text, the narrowest and widest card, the space between cards (CSS px)
SMALLEST_TEXT, NARROWEST, WIDEST, GAP, EDGE = 12, 48, 80, 6, 4


def fitted(width: float, cols: Sequence[float]) -> tuple[Metrics, int | None]:
    """The Play page's sizes for a table of columns ``cols`` shown ``width`` CSS pixels wide (one unit a pixel),
    and the columns a grid row may span before it is wrapped (:func:`fold`; None: none is)."""
    span = max(cols) - min(cols) + 1 if cols else 1
    room = max(width - 2 * EDGE, NARROWEST + GAP)
    across: int | None = None
    if room / span - GAP < NARROWEST:
        fits = max(1, int(room // (NARROWEST + GAP)))
        span = across = math.ceil(span / math.ceil(span / fits))  # bands as even as they can be
    w = max(NARROWEST, min(WIDEST, room / span - GAP))
    h = round(w * CARD_H / CARD_W)
    w = round(w)
    face = max(16, min(28, round(w * 0.36)))
    small = SMALLEST_TEXT if w < 72 else 13
    return Metrics(card_w=w, card_h=h, pitch_x=w + GAP, pitch_y=h + small + 10 + GAP, margin_x=EDGE, margin_y=EDGE,
                   pad_x=EDGE, pad_y=small + 10 + EDGE, face=face, face_y=round(h / 2 + face * 0.35),
                   corner=small, corner_x=4, corner_y=small + 2, under=small if w >= 72 else 0,
                   under_y=h - 8, label=small, label_y=h + small + 3, count=small + 2, note=small,
                   stock_box=small + 10, count_inside=True, hit=True), across


def fold(rows: Sequence[float], cols: Sequence[float], across: int | None) -> tuple[list[float], list[float]]:
    """Grid positions with every grid row wider than ``across`` columns wrapped, in bands of ``across``
    columns, onto new rows just below it (the rows under it move down to make room); unchanged when
    ``across`` is None or every row fits."""
    rows, cols = list(rows), list(cols)
    if across is None or not cols or max(cols) - min(cols) < across:
        return rows, cols
    c0 = min(cols)
    bands = {r: int((max(c for q, c in zip(rows, cols) if q == r) - c0) // across) + 1 for r in set(rows)}
    below = {r: sum(n - 1 for q, n in bands.items() if q < r) for r in bands}
    return ([r + below[r] + (c - c0) // across for r, c in zip(rows, cols)],
            [c0 + (c - c0) % across for c in cols])


def _n(x: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros (deterministic)."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _text(x: float, y: float, s: str, *, size: float = 11, anchor: str = "middle", weight: str | None = None,
          fill: str = "#263238", cls: str | None = None, extra: str = "") -> str:
    attrs = [f'x="{_n(x)}"', f'y="{_n(y)}"', f'font-size="{_n(size)}"', f'text-anchor="{anchor}"', f'fill="{fill}"']
    if weight:
        attrs.append(f'font-weight="{weight}"')
    if cls:
        attrs.append(f'class="{cls}"')
    if extra:
        attrs.append(extra)
    return f"<text {' '.join(attrs)}>{escape(s)}</text>"


def card_text(code: str) -> tuple[str, str]:
    """``"TH"`` -> (``"10♥"``, colour)."""
    rank, suit = code[0], code[1]
    return RANK_TEXT.get(rank, rank) + SUIT_SYMBOL[suit], ("#c62828" if suit in RED_SUITS else "#212121")


class Grid:
    """Geometry of one layout: where each pile is drawn and how big the picture is."""

    def __init__(self, cells: Sequence[tuple[float, float]], extra_bottom: float = 0, m: Metrics = DEFAULT) -> None:
        rows = [r for r, _ in cells] or [0.0]
        cols = [c for _, c in cells] or [0.0]
        self.m = m
        self.min_row, self.min_col = min(rows), min(cols)
        self.max_row, self.max_col = max(rows), max(cols)
        self.width = m.margin_x + (self.max_col - self.min_col) * m.pitch_x + m.card_w + m.pad_x
        self.height = m.margin_y + (self.max_row - self.min_row) * m.pitch_y + m.card_h + m.pad_y + 8 + extra_bottom

    def x(self, col: float) -> float:
        return self.m.margin_x + (col - self.min_col) * self.m.pitch_x

    def y(self, row: float) -> float:
        return self.m.margin_y + (row - self.min_row) * self.m.pitch_y


def _open(width: float, height: float, label: str, cls: str, role: str = "img") -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" role="{role}" aria-label="{escape(label)}" '
        f'font-family="Roboto, Helvetica, Arial, sans-serif">',
        f"<title>{escape(label)}</title>",
        '<defs><pattern id="back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#1565c0"/><line x1="0" y1="0" x2="0" y2="8" stroke="#64b5f6" '
        'stroke-width="3"/></pattern></defs>',
        f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#fafafa"/>',
    ]


def _guides(grid: Grid, rows: Iterable[float], cols: Iterable[float]) -> list[str]:
    """Dashed lines through the centre of each grid row and column, labelled at the edges."""
    out = []
    for r in sorted(set(rows)):
        y = grid.y(r) + CARD_H / 2
        out.append(f'<line x1="{_n(MARGIN_X - 8)}" y1="{_n(y)}" x2="{_n(grid.width - 8)}" y2="{_n(y)}" '
                   'stroke="#b0bec5" stroke-width="1" stroke-dasharray="3 4"/>')
        out.append(_text(MARGIN_X - 12, y + 4, f"r{_n(r)}", size=10, anchor="end", fill="#78909c", cls="guide"))
    for c in sorted(set(cols)):
        x = grid.x(c) + CARD_W / 2
        out.append(f'<line x1="{_n(x)}" y1="{_n(MARGIN_Y - 8)}" x2="{_n(x)}" y2="{_n(grid.height - 22)}" '
                   'stroke="#b0bec5" stroke-width="1" stroke-dasharray="3 4"/>')
        out.append(_text(x, MARGIN_Y - 14, f"c{_n(c)}", size=10, fill="#78909c", cls="guide"))
    return out


def _card(x: float, y: float, role: str, *, stroke: str | None = None, width: float = 1.5,
          dashed: bool = False, m: Metrics = DEFAULT) -> str:
    fill, default_stroke, _ = ROLE_STYLE[role]
    if role == "stock":
        fill = "url(#back)"
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(m.card_w)}" height="{_n(m.card_h)}" rx="{RADIUS}" '
            f'fill="{fill}" stroke="{stroke or default_stroke}" stroke-width="{_n(width)}"{dash}/>')


def layout_svg(spec: LayoutPlan, *, suits: Mapping[str, str] | None = None, title: str | None = None) -> str:
    """The diagram of one reconstruction.

    ``suits`` maps foundation names to the suit letter the default arrangement gives them
    (foundations not in it are drawn with their base rank only: their suit is set in play).
    """
    suits = suits or {}
    deal = {n: i + 1 for i, n in enumerate(spec.deal)}
    later = {n: i + 1 for i, n in enumerate(spec.later_deal)} if spec.later_deal and spec.later_deal != spec.deal \
        else {}
    cells = [(p.row, p.col) for p in spec.piles] + [(f.row, f.col) for f in spec.foundations]
    grid = Grid(cells, extra_bottom=26)
    label = title or f"Layout {spec.id}: {spec.title}"
    out = _open(grid.width, grid.height, label, "replay-layout")
    grid_rows = [p.row for p in spec.piles if p.row == int(p.row)] + [f.row for f in spec.foundations]
    grid_cols = [p.col for p in spec.piles if p.col == int(p.col)] + [f.col for f in spec.foundations]
    out += _guides(grid, grid_rows, grid_cols)
    for p in spec.piles:
        x, y = grid.x(p.col), grid.y(p.row)
        out.append(f'<g class="pile role-{p.role}" data-name="{escape(p.name)}">')
        out.append(_card(x, y, p.role, dashed=p.role == "waste"))
        cx = x + CARD_W / 2
        if p.role == "stock":
            out.append(f'<rect x="{_n(x + 6)}" y="{_n(y + CARD_H / 2 - 11)}" width="{CARD_W - 12}" height="20" '
                       'rx="3" fill="#ffffff"/>')
            out.append(_text(cx, y + CARD_H / 2 + 4, p.name, size=11, weight="bold", fill="#0d47a1"))
        else:
            out.append(_text(cx, y + 15, p.name, size=11, weight="bold"))
        if p.name in deal:
            out.append(_text(cx, y + 52, str(deal[p.name]), size=22, weight="bold", fill="#546e7a", cls="deal"))
            out.append(_text(cx, y + 66, "dealt", size=9, fill="#78909c"))
            if p.name in later:
                out.append(_text(cx, y + 78, f"later {later[p.name]}", size=9, fill="#8d6e63"))
        elif p.role != "stock":
            out.append(_text(cx, y + 52, ROLE_STYLE[p.role][2], size=10, fill="#546e7a"))
        if p.label:
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="11" fill="#37474f"/>')
            out.append(_text(x, y + 4, p.label, size=11, weight="bold", fill="#ffffff", cls="label"))
        out.append("</g>")
    for f in spec.foundations:
        x, y = grid.x(f.col), grid.y(f.row)
        cx = x + CARD_W / 2
        suit = suits.get(f.name)
        out.append(f'<g class="pile role-foundation" data-name="{escape(f.name)}">')
        out.append(_card(x, y, "foundation"))
        out.append(_text(cx, y + 15, f.name, size=11, weight="bold", fill="#1b5e20"))
        base = f.base + (SUIT_SYMBOL[suit] if suit else "")
        colour = "#c62828" if suit in RED_SUITS else "#212121"
        out.append(_text(cx, y + 50, base, size=22, weight="bold", fill=colour, cls="base"))
        arrow = "builds up ↑" if f.base == "A" else "builds down ↓"
        out.append(_text(cx, y + 68, arrow, size=9, fill="#2e7d32"))
        if not suit:
            out.append(_text(cx, y + 80, "suit: in play", size=8, fill="#558b2f"))
        out.append("</g>")
    # key
    ky = grid.height - 14
    kx = 8.0
    present = [r for r in ROLE_ORDER if r == "foundation" and spec.foundations or any(p.role == r for p in spec.piles)]
    for role in present:
        fill, stroke, caption = ROLE_STYLE[role]
        fill = "url(#back)" if role == "stock" else fill
        out.append(f'<rect x="{_n(kx)}" y="{_n(ky - 9)}" width="12" height="12" rx="2" fill="{fill}" '
                   f'stroke="{stroke}"/>')
        out.append(_text(kx + 16, ky + 1, caption, size=10, anchor="start"))
        kx += 26 + 6.2 * len(caption)
    note = "number: order of the deal · ● what the text calls it · r/c: grid row, column"
    out.append(_text(kx + 4, ky + 1, note, size=10, anchor="start", fill="#546e7a"))
    out.append("</svg>")
    needed = kx + 4 + 5.4 * len(note) + 8
    if needed > grid.width:  # widen the picture so that the key fits
        for i in (0, 3):
            out[i] = out[i].replace(f'width="{_n(grid.width)}"', f'width="{_n(needed)}"', 1)
        out[0] = out[0].replace(f'viewBox="0 0 {_n(grid.width)} ', f'viewBox="0 0 {_n(needed)} ', 1)
    return "\n".join(out) + "\n"


def table_svg(
    names: Sequence[str],
    roles: Sequence[str],
    rows: Sequence[float],
    cols: Sequence[float],
    piles: Mapping[str, Sequence[str]],
    *,
    foundation_suits: Mapping[str, str | None] | None = None,
    src: str | None = None,
    dst: str | None = None,
    label: str = "table",
    metrics: Metrics = DEFAULT,
) -> str:
    """A position: each container's top card and card count; ``src``/``dst`` outlined.

    ``piles`` maps container names to card codes, bottom first (the stock's next card last);
    ``metrics`` gives the sizes (:func:`fitted`: the Play page's; fold the rows and columns to match).
    """
    head, groups, tail = table_parts(names, roles, rows, cols, piles, foundation_suits=foundation_suits, src=src,
                                     dst=dst, label=label, metrics=metrics)
    return "\n".join([head, *groups, tail]) + "\n"


def table_parts(
    names: Sequence[str],
    roles: Sequence[str],
    rows: Sequence[float],
    cols: Sequence[float],
    piles: Mapping[str, Sequence[str]],
    *,
    foundation_suits: Mapping[str, str | None] | None = None,
    src: str | None = None,
    dst: str | None = None,
    label: str = "table",
    metrics: Metrics = DEFAULT,
) -> tuple[str, list[str], str]:
    """The pieces of :func:`table_svg`: the opening (size, title, patterns), one ``<g>`` per container, the end.

    The game viewer (:mod:`replay.view`) draws each step from these pieces: a container's group
    depends only on its name, role, place, cards and suit, so equal groups are stored once.
    """
    foundation_suits = foundation_suits or {}
    grid = Grid(list(zip(rows, cols)), m=metrics)
    # a group of piles, each an image named by its cards (as `replay show` tells them), for screen readers
    head = "\n".join(_open(grid.width, grid.height - 8, label, "replay-table", role="group"))
    groups = [_pile_group(name, role, grid.x(col), grid.y(row), tuple(piles.get(name, ())),
                          foundation_suits.get(name), name == src, name == dst, metrics)
              for name, role, row, col in zip(names, roles, rows, cols)]
    return head, groups, "</svg>"


@lru_cache(maxsize=65536)
def _pile_group(name: str, role: str, x: float, y: float, cards: tuple[str, ...], suit: str | None, is_src: bool,
                is_dst: bool, m: Metrics = DEFAULT) -> str:
    """One container of :func:`table_svg` as an SVG group (a pure function: a game's steps share most of
    their groups, and the site draws thousands of steps, so each is drawn once)."""
    stroke, width = None, 1.5
    if is_src:
        stroke, width = "#ef6c00", 4.0
    elif is_dst:
        stroke, width = "#1e88e5", 4.0
    cls = f"pile role-{role}" + (" src" if is_src else "") + (" dst" if is_dst else "")
    out = [f'<g class="{cls}" data-name="{escape(name)}" role="img" '
           f'aria-label="{escape(pile_words(name, role, cards, suit, is_src, is_dst))}">']
    if m.hit:  # the whole cell answers a click or a touch, not the card alone
        out.append(f'<rect class="hit" x="{_n(x - GAP / 2)}" y="{_n(y - GAP / 2)}" width="{_n(m.pitch_x)}" '
                   f'height="{_n(m.pitch_y)}" fill="transparent"/>')
    cx = x + m.card_w / 2
    mid = y + m.card_h / 2
    if role == "stock":
        if cards:
            out.append(_card(x, y, "stock", stroke=stroke, width=width, m=m))
            out.append(f'<rect x="{_n(x + 8)}" y="{_n(mid - m.stock_box / 2 - 1)}" width="{_n(m.card_w - 16)}" '
                       f'height="{_n(m.stock_box)}" rx="3" fill="#ffffff"/>')
            out.append(_text(cx, mid + m.count / 3, str(len(cards)), size=m.count, weight="bold", fill="#0d47a1"))
        else:
            out.append(_card(x, y, "waste", stroke=stroke or "#90a4ae", width=width, dashed=True, m=m))
            out.append(_text(cx, mid + m.note * 0.4, "empty", size=m.note, fill="#90a4ae"))
    elif cards:
        fill_role = "foundation" if role == "foundation" else "tableau"
        out.append(_card(x, y, fill_role, stroke=stroke, width=width, m=m))
        face, colour = card_text(cards[-1])
        out.append(_text(cx, y + m.face_y, face, size=m.face, weight="bold", fill=colour, cls="card"))
        out.append(_text(x + m.corner_x, y + m.corner_y, face, size=m.corner, anchor="start", fill=colour,
                         cls="corner"))
        if len(cards) > 1 and m.under:  # the cards beneath, as many as fit the card's width at a legible size
            beneath = [card_text(c)[0] for c in cards[-4:-1]]
            while len(beneath) > 1 and len(" ".join(beneath)) > 9:
                beneath.pop(0)
            out.append(_text(cx, y + m.under_y, " ".join(beneath), size=m.under, fill="#455a64", cls="under"))
    else:
        out.append(_card(x, y, role if role != "stock" else "waste", stroke=stroke or "#b0bec5", width=width,
                         dashed=True, m=m))
        if role == "foundation" and suit:
            out.append(_text(cx, y + m.face_y, SUIT_SYMBOL[suit], size=m.face - 2,
                             fill="#ef9a9a" if suit in RED_SUITS else "#9e9e9e", cls="suit"))
    if m.count_inside:
        if cards and role != "stock":
            out.append(_text(x + m.card_w - 4, y + m.card_h - 5, str(len(cards)), size=m.label, anchor="end",
                             fill="#455a64", cls="count"))
        out.append(_text(cx, y + m.label_y, name, size=m.label, fill="#37474f", cls="name"))
    else:
        out.append(_text(cx, y + m.label_y, f"{name} · {len(cards)}", size=m.label, fill="#37474f", cls="name"))
    out.append("</g>")
    return "\n".join(out)


def pile_words(name: str, role: str, cards: Sequence[str], suit: str | None = None, is_src: bool = False,
               is_dst: bool = False) -> str:
    """A container in words, for screen readers: ``p3, pile, 3 cards, Q♠ on top, beneath it 10♥ 2♣``."""
    kind = ROLE_STYLE.get(role, ("", "", role))[2]
    n = len(cards)
    words = [name, kind, f"{n} card" + ("" if n == 1 else "s")]
    if role == "stock":
        pass  # face down: only the count
    elif cards:
        words.append(f"{card_text(cards[-1])[0]} on top")
        if n > 1:
            words.append("beneath it " + " ".join(card_text(c)[0] for c in reversed(cards[:-1][-12:]))
                         + (" …" if n > 13 else ""))
    elif role == "foundation" and suit:
        words.append(f"for {SUIT_NAME[suit]}")
    if is_src:
        words.append("the move took a card from here")
    if is_dst:
        words.append("the move put a card here")
    return ", ".join(words)
