"""The statistics page's figure: each form's curve against the budget, drawn as SVG from the data file.

One small panel per form (every game and variant, and each relative's rules): across, the position budgets of
the ladder (a log scale); up, a share of the deals.  The band between the deals *won* and the deals *not
proved lost* is what the budget leaves open: a form is settled where the band is thin, and still climbing
where its lines still move.  A dotted line gives the mean cards home (of 104, as a share).  The site's build
puts the figure into the page (``<!-- replay:stats-curves -->``); the page's table under it says the same
in words and figures (its text equivalent).

Colours come from the site's theme (Material's CSS variables, which follow its light and dark schemes), with
fallbacks for a page without them; lines differ in dash as well as colour.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from replay.engine import cards as C

from replay.solver.page import FIGURE as PLACEHOLDER
from replay.solver.page import figure_rows as _rows
from replay.solver.page import form_title as title
from replay.solver.page import row_state as state
from replay.solver.page import sup as _sup

W, H = 250, 168  # a panel
PAD_L, PAD_R, PAD_T, PAD_B = 34, 10, 34, 30
COLUMNS = 3

STYLE = """
.rs-fig{font:11px/1.2 var(--md-text-font-family, system-ui, sans-serif)}
.rs-fig text{fill:var(--md-default-fg-color, #1f1f1f)}
.rs-fig .rs-muted{fill:var(--md-default-fg-color--light, #5c5c5c)}
.rs-fig .rs-axis{stroke:var(--md-default-fg-color--light, #5c5c5c);stroke-width:1;fill:none}
.rs-fig .rs-grid{stroke:var(--md-default-fg-color--lightest, #d0d0d0);stroke-width:1;fill:none}
.rs-fig .rs-band{fill:var(--md-accent-fg-color--transparent, rgba(83,109,254,.18))}
.rs-fig .rs-won{stroke:var(--md-primary-fg-color, #3f51b5);stroke-width:2.2;fill:none}
.rs-fig .rs-won-dot{fill:var(--md-primary-fg-color, #3f51b5)}
.rs-fig .rs-open{stroke:var(--md-accent-fg-color, #c2185b);stroke-width:2;stroke-dasharray:6 3;fill:none}
.rs-fig .rs-home{stroke:var(--md-default-fg-color--light, #5c5c5c);stroke-width:1.5;stroke-dasharray:1.5 3;fill:none}
""".strip()


def curves_svg(data: dict[str, Any]) -> str:
    """The figure (inline SVG) for every form of ``data`` (a ``replay-stats/2`` file)."""
    rows = [r for r in _rows(data) if r.get("curve")]
    budgets = sorted({p["budget"] for r in rows for p in r["curve"]})
    if not rows or not budgets:
        return ""
    lo, hi = math.log10(budgets[0]), math.log10(budgets[-1])
    span = hi - lo or 1.0
    cols = min(COLUMNS, len(rows))
    nrows = math.ceil(len(rows) / cols)
    width, height = cols * W, nrows * H + 26
    out = [f'<svg class="rs-fig" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" role="img" aria-labelledby="rs-fig-title rs-fig-desc">',
           '<title id="rs-fig-title">How each form settles as the budget per deal grows</title>',
           f'<desc id="rs-fig-desc">{escape(_desc(rows))}</desc>', f"<style>{STYLE}</style>"]
    out.append(_legend(width))
    for i, r in enumerate(rows):
        x0, y0 = (i % cols) * W, 26 + (i // cols) * H
        out.append(_panel(r, x0, y0, lo, span, budgets))
    out.append("</svg>")
    return "\n".join(out)


def _desc(rows: list[dict[str, Any]]) -> str:
    parts = []
    for r in rows:
        c = r["curve"]
        a, b = c[0], c[-1]
        parts.append(f"{title(r)}: won {_share(a['won'], a['deals'])} to {_share(b['won'], b['deals'])}, proved lost "
                     f"{_share(a['unwinnable'], a['deals'])} to {_share(b['unwinnable'], b['deals'])}, from "
                     f"{_sup(a['budget'])} to {_sup(b['budget'])} positions ({state(r)})")
    return "; ".join(parts) + ". The table below gives every budget."


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.0f}%" if n else "–"


def _legend(width: int) -> str:
    y = 14
    items = [("rs-won", "won"), ("rs-open", "not proved lost"), ("rs-home", "mean cards home, of 104")]
    out = ['<g aria-hidden="true">', f'<rect class="rs-band" x="4" y="{y - 8}" width="18" height="10"/>',
           f'<text x="26" y="{y}">the true rate lies in the band (before sampling error)</text>']
    x = 340
    for cls, label in items:
        out.append(f'<line class="{cls}" x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}"/>')
        out.append(f'<text x="{x + 26}" y="{y}">{escape(label)}</text>')
        x += 40 + 6 * len(label)
    out.append("</g>")
    return "".join(out)


def _panel(r: dict[str, Any], x0: float, y0: float, lo: float, span: float, budgets: list[int]) -> str:
    pw, ph = W - PAD_L - PAD_R, H - PAD_T - PAD_B
    left, top = x0 + PAD_L, y0 + PAD_T

    def X(b: int) -> float:
        return left + pw * (math.log10(b) - lo) / span

    def Y(share: float) -> float:
        return top + ph * (1 - share)

    c = r["curve"]
    won = [(X(p["budget"]), Y(p["won"] / max(p["deals"], 1))) for p in c]
    open_ = [(X(p["budget"]), Y(1 - p["unwinnable"] / max(p["deals"], 1))) for p in c]
    home = [(X(p["budget"]), Y((p["mean_home"] or 0) / C.DECK_SIZE)) for p in c]
    g = [f'<g aria-hidden="true">']
    name, _, rules = title(r).partition(": ")
    g.append(f'<text x="{x0 + 6}" y="{y0 + 13}">{escape(_clip(name, 40))}</text>')
    sub = f"{rules}: " if rules else ""
    g.append(f'<text class="rs-muted" x="{x0 + 6}" y="{y0 + 26}">{escape(_clip(sub + state(r), 44))}, '
             f'{r["deals"]:,} deals</text>')
    for s in (0.0, 0.5, 1.0):
        g.append(f'<line class="rs-grid" x1="{left:.1f}" y1="{Y(s):.1f}" x2="{left + pw:.1f}" y2="{Y(s):.1f}"/>')
        g.append(f'<text class="rs-muted" x="{left - 4:.1f}" y="{Y(s) + 4:.1f}" text-anchor="end">{100 * s:.0f}%</text>')
    for b in budgets:
        g.append(f'<text class="rs-muted" x="{X(b):.1f}" y="{top + ph + 16:.1f}" text-anchor="middle">{_sup(b)}</text>')
    g.append(f'<path class="rs-axis" d="M{left:.1f},{top:.1f}V{top + ph:.1f}H{left + pw:.1f}"/>')
    band = won + list(reversed(open_))
    if len(c) == 1:  # one budget: a bar, not a band
        x, y1, y2 = won[0][0], won[0][1], open_[0][1]
        g.append(f'<rect class="rs-band" x="{x - 5:.1f}" y="{y2:.1f}" width="10" height="{max(y1 - y2, 0.5):.1f}"/>')
    else:
        g.append(f'<path class="rs-band" d="{_path(band)}Z"/>')
    g.append(f'<path class="rs-home" d="{_path(home)}"/>')
    g.append(f'<path class="rs-open" d="{_path(open_)}"/>')
    g.append(f'<path class="rs-won" d="{_path(won)}"/>')
    for x, y in won:
        g.append(f'<circle class="rs-won-dot" cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>')
    if any(p.get("subset") for p in c):
        p = c[-1]
        g.append(f'<text class="rs-muted" x="{X(p["budget"]) - 2:.1f}" y="{top + 10:.1f}" text-anchor="end">'
                 f'first {p["deals"]}</text>')
    g.append("</g>")
    return "".join(g)


def _path(pts: list[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


__all__ = ["PLACEHOLDER", "curves_svg", "state", "title"]
