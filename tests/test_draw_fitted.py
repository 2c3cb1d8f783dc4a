"""The Play page's drawing of a table (replay.draw.svg.fitted, fold): at any width from a phone's to a wide
screen, every layout fits, no text is under 12 px, every container is a touch target of at least 44 px,
and no two containers overlap; the site's own drawing is unchanged by the sizes it may now take."""

from __future__ import annotations

import re

import pytest

from replay.draw.svg import DEFAULT, fitted, fold, table_parts, table_svg
from replay.games.catalog import create

LAYOUTS = [("printex-frame", (), {}), ("printex-frame", ("cztery-katy",), {"frame": "square-20"}),
           ("printex-frame", (), {"frame": "rect-16"}), ("zwarta-kolumna", (), {}), ("exiles", (), {}),
           ("exiles", (), {"foundations": "eight-aces"}), ("napoleons-square", (), {})]
WIDTHS = [320, 358, 390, 480, 600, 760, 1000, 1400]


def drawn(gid: str, variants: tuple[str, ...], rulings: dict[str, str], width: float) -> tuple[str, list, list]:
    game = create(gid, variants, rulings)
    t = game.new_table(game.deck_from_seed(5))
    for _ in range(12):
        legal = t.legal_moves()
        if not legal:
            break
        t.push(legal[0])
    lay = game.layout
    m, across = fitted(width, lay.cols)
    rows, cols = fold(lay.rows, lay.cols, across)
    snap = t.snapshot()
    svg = table_svg(lay.names, lay.roles, rows, cols, snap["piles"], foundation_suits=snap["foundation_suits"],
                    metrics=m)
    return svg, rows, cols


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("form", LAYOUTS, ids=lambda f: "/".join([f[0], *f[1], *f[2].values()]))
def test_every_layout_fits_with_legible_text_and_large_targets(form, width) -> None:  # type: ignore[no-untyped-def]
    svg, rows, cols = drawn(*form, width)
    w = float(re.search(r'width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    assert w <= width
    sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
    assert min(sizes) >= 12
    cards = re.findall(r'<rect x="[\d.-]+" y="[\d.-]+" width="([\d.]+)" height="([\d.]+)" rx="6"', svg)
    assert min(float(c[0]) for c in cards) >= 48
    hits = re.findall(r'<rect class="hit" x="[\d.-]+" y="[\d.-]+" width="([\d.]+)" height="([\d.]+)"', svg)
    assert len(hits) == len(rows) and min(min(float(a), float(b)) for a, b in hits) >= 44
    assert len(set(zip(rows, cols))) == len(rows)  # no two containers in one cell


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("form", LAYOUTS, ids=lambda f: "/".join([f[0], *f[1], *f[2].values()]))
def test_no_pile_is_cut_off_at_the_drawings_edges(form, width) -> None:  # type: ignore[no-untyped-def]
    """Every card, its touch target and the Play page's thickest outline (a chosen pile: 5 px, half of it outside
    the card) lie inside the drawing: the right-hand column was cut off by 1 to 3 px."""
    svg, rows, cols = drawn(*form, width)
    w, h = (float(re.search(rf'<svg [^>]*\b{k}="([\d.]+)"', svg).group(1)) for k in ("width", "height"))  # type: ignore[union-attr]
    cards = re.findall(r'<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" rx="6"', svg)
    hits = re.findall(r'<rect class="hit" x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    for (x, y, cw, ch), grow in [(c, 2.5) for c in cards] + [(c, 0) for c in hits]:
        x, y, cw, ch = map(float, (x, y, cw, ch))
        assert x - grow >= 0 and y - grow >= 0 and x + cw + grow <= w and y + ch + grow <= h, (x, y, cw, ch, w, h)


def test_a_row_wider_than_the_screen_is_wrapped_below_itself() -> None:
    game = create("exiles")
    lay = game.layout
    m, across = fitted(358, lay.cols)
    assert across is not None and across < 13
    rows, cols = fold(lay.rows, lay.cols, across)
    where = dict(zip(lay.names, zip(rows, cols)))
    packets = [where[f"p{k}"] for k in range(1, 14)]
    assert sorted(packets) == packets  # p1 … p13 read in order, band after band
    assert max(r for r, _ in packets) < min(where[n][0] for n in ("stock", "exiles"))  # the row below moved down
    assert fold(lay.rows, lay.cols, None) == (list(lay.rows), list(lay.cols))
    assert fitted(1400, lay.cols)[1] is None  # a wide screen holds the row


def test_the_sites_drawing_keeps_its_sizes() -> None:
    game = create("zwarta-kolumna")
    lay = game.layout
    snap = game.new_table(game.deck_from_seed(1)).snapshot()
    head, groups, tail = table_parts(lay.names, lay.roles, lay.rows, lay.cols, snap["piles"])
    assert 'class="hit"' not in "".join(groups) and DEFAULT.card_w == 62 and DEFAULT.card_h == 86
    assert f'width="{DEFAULT.card_w}" height="{DEFAULT.card_h}"' in groups[0]
    assert re.search(r">p1 · \d+</text>", "".join(groups))
