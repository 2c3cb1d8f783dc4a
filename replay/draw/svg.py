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
  it holds, and (optionally) the source and target of the move that led to it.

The same input always gives the same bytes: numbers are formatted with fixed
precision, dictionaries are walked in layout order, and nothing depends on time.
"""

from __future__ import annotations

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

    def __init__(self, cells: Sequence[tuple[float, float]], extra_bottom: float = 0) -> None:
        rows = [r for r, _ in cells] or [0.0]
        cols = [c for _, c in cells] or [0.0]
        self.min_row, self.min_col = min(rows), min(cols)
        self.max_row, self.max_col = max(rows), max(cols)
        self.width = MARGIN_X + (self.max_col - self.min_col) * PITCH_X + CARD_W + 24
        self.height = MARGIN_Y + (self.max_row - self.min_row) * PITCH_Y + CARD_H + 30 + extra_bottom

    def x(self, col: float) -> float:
        return MARGIN_X + (col - self.min_col) * PITCH_X

    def y(self, row: float) -> float:
        return MARGIN_Y + (row - self.min_row) * PITCH_Y


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
          dashed: bool = False) -> str:
    fill, default_stroke, _ = ROLE_STYLE[role]
    if role == "stock":
        fill = "url(#back)"
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{CARD_W}" height="{CARD_H}" rx="{RADIUS}" fill="{fill}" '
            f'stroke="{stroke or default_stroke}" stroke-width="{_n(width)}"{dash}/>')


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
) -> str:
    """A position: each container's top card and card count; ``src``/``dst`` outlined.

    ``piles`` maps container names to card codes, bottom first (the stock's next card last).
    """
    head, groups, tail = table_parts(names, roles, rows, cols, piles, foundation_suits=foundation_suits, src=src,
                                     dst=dst, label=label)
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
) -> tuple[str, list[str], str]:
    """The pieces of :func:`table_svg`: the opening (size, title, patterns), one ``<g>`` per container, the end.

    The game viewer (:mod:`replay.view`) draws each step from these pieces: a container's group
    depends only on its name, role, place, cards and suit, so equal groups are stored once.
    """
    foundation_suits = foundation_suits or {}
    grid = Grid(list(zip(rows, cols)))
    # a group of piles, each an image named by its cards (as `replay show` tells them), for screen readers
    head = "\n".join(_open(grid.width, grid.height - 8, label, "replay-table", role="group"))
    groups = [_pile_group(name, role, grid.x(col), grid.y(row), tuple(piles.get(name, ())),
                          foundation_suits.get(name), name == src, name == dst)
              for name, role, row, col in zip(names, roles, rows, cols)]
    return head, groups, "</svg>"


@lru_cache(maxsize=65536)
def _pile_group(name: str, role: str, x: float, y: float, cards: tuple[str, ...], suit: str | None, is_src: bool,
                is_dst: bool) -> str:
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
    cx = x + CARD_W / 2
    if role == "stock":
        if cards:
            out.append(_card(x, y, "stock", stroke=stroke, width=width))
            out.append(f'<rect x="{_n(x + 8)}" y="{_n(y + CARD_H / 2 - 11)}" width="{CARD_W - 16}" '
                       'height="20" rx="3" fill="#ffffff"/>')
            out.append(_text(cx, y + CARD_H / 2 + 4, str(len(cards)), size=12, weight="bold", fill="#0d47a1"))
        else:
            out.append(_card(x, y, "waste", stroke=stroke or "#90a4ae", width=width, dashed=True))
            out.append(_text(cx, y + CARD_H / 2 + 4, "empty", size=10, fill="#90a4ae"))
    elif cards:
        fill_role = "foundation" if role == "foundation" else "tableau"
        out.append(_card(x, y, fill_role, stroke=stroke, width=width))
        face, colour = card_text(cards[-1])
        out.append(_text(cx, y + 50, face, size=22, weight="bold", fill=colour, cls="card"))
        out.append(_text(x + 5, y + 14, face, size=11, anchor="start", fill=colour))
        if len(cards) > 1:  # the cards beneath, as many as fit the card's width at a legible size
            beneath = [card_text(c)[0] for c in cards[-4:-1]]
            while len(beneath) > 1 and len(" ".join(beneath)) > 9:
                beneath.pop(0)
            out.append(_text(cx, y + 74, " ".join(beneath), size=11, fill="#455a64", cls="under"))
    else:
        out.append(_card(x, y, role if role != "stock" else "waste", stroke=stroke or "#b0bec5", width=width,
                         dashed=True))
        if role == "foundation" and suit:
            out.append(_text(cx, y + 50, SUIT_SYMBOL[suit], size=20,
                             fill="#ef9a9a" if suit in RED_SUITS else "#9e9e9e"))
    out.append(_text(cx, y + CARD_H + 14, f"{name} · {len(cards)}", size=12, fill="#37474f", cls="name"))
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
