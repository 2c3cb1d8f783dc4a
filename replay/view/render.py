"""The game viewer as HTML: one fragment for the site's example pages and for ``replay view``.

:func:`viewer_html` turns a :class:`~replay.view.model.GameView` into a ``<div class="replay-viewer">``:

* the table, drawn by :func:`replay.draw.svg.table_parts` at every step, in a data block
  (:func:`viewer_data` and :func:`frame_svg` read it as the script does): each line of SVG is
  stored once, each container's group is the list of its lines, a step the list of its groups,
  and the JSON of it all is deflated, so the file stays small and the drawing is exactly the site's;
* one ``<section class="step">`` per step (readable without JavaScript as collapsible
  blocks): the move in words, its ``comment``, the clauses consulted, and at the move the
  rules refuse the clause broken, in the diplomatic text and in translation, linked to the rules site;
* with an analysis (``replay analyse``) each position's verdict, also on a timeline.

``viewer.js`` (:data:`SCRIPT`) makes it a stepper: buttons, a slider, a timeline, the move
list, ←/→ and Home/End.  :func:`standalone_page` wraps the fragment, the script and the
styles (:data:`STYLE`) in one self-contained HTML file: no server, no network.
"""

from __future__ import annotations

import html
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from replay.draw.svg import fitted, fold, table_parts
from replay.log.describe import short_move
from replay.log.locate import move_ref
from replay.view.model import GameView, Step, comment_of

#: the analysis statuses in words
STATUS_TEXT = {"won": "winnable", "unwinnable": "lost (unwinnable)", "unknown": "unknown within the budget"}


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return resources.files("replay.view").joinpath("static", name).read_text(encoding="utf-8")


def script() -> str:
    """The viewer's JavaScript (``replay/view/static/viewer.js``)."""
    return _asset("viewer.js")


def style() -> str:
    """The viewer's styles (``replay/view/static/viewer.css``)."""
    return _asset("viewer.css")


#: the schemes a rules site's address may have (none: a relative address)
URL_SCHEMES = ("http", "https", "file")


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the rules site's root (None: it can): only http(s), file and relative URLs.

    A ``javascript:`` or ``data:`` root would make every clause link run script when clicked; a space
    or control character (which browsers drop, so that ``java\tscript:`` is ``javascript:``) is refused too.
    """
    from urllib.parse import urlsplit

    if any(ord(ch) <= 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in url):
        return "an address holds no spaces or control characters"
    scheme = urlsplit(url).scheme.lower()
    if scheme and scheme not in URL_SCHEMES:
        return f"{scheme}: is not a scheme for a rules site: give an http(s), file or relative URL"
    return None


def script_hash(code: str) -> str:
    """The Content-Security-Policy source that lets exactly this inline script run (``'sha256-…'``)."""
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii")


def clause_url(base: str | None, cid: str) -> str | None:
    """The address of clause ``cid`` on the rules site whose root is ``base`` (None: no link).

    ``base`` may be relative (the site's own pages), a web address, or a ``file:`` URL of a site
    built on disk (``mkdocs build``), whose pages are then named with their ``index.html``.
    """
    from replay.corpus.edition import default_edition

    c = default_edition().clauses.get(cid)
    if base is None or c is None or url_problem(base):
        return None
    page = "index.html" if base.startswith("file:") else ""  # a site on disk: no server to find index.html
    return f"{base.rstrip('/')}/games/{c.game}/{page}#{cid}"


def _clause_link(base: str | None, cid: str, tip: bool = True) -> str:
    """A clause named, linked to the rules site, with its translation as the tooltip (``tip``; without, the
    script gives the link the tooltip of the clause's first link in the viewer)."""
    from replay.log.describe import clause_text

    href = clause_url(base, cid)
    _, translation, _, _ = clause_text(cid)
    text = " ".join((translation or "").split()) if tip else ""
    text = text if len(text) <= 90 else text[:89] + "…"
    title = f' title="{html.escape(text)}"' if text else ""
    if href is None:
        return f'<span class="rv-clause"{title}>{html.escape(cid)}</span>'
    return f'<a class="rv-clause" href="{html.escape(href)}"{title}>{html.escape(cid)}</a>'


# --------------------------------------------------------------------------- the table at each step


def _drawing(v: GameView, snapshot: dict[str, Any], src: str | None, dst: str | None,
             label: str) -> tuple[str, list[str], str]:
    assert v.game is not None
    lay = v.game.layout
    return table_parts(lay.names, lay.roles, lay.rows, lay.cols, snapshot["piles"],
                       foundation_suits=snapshot.get("foundation_suits"), src=src, dst=dst, label=label)


def _frames(v: GameView) -> tuple[dict[str, Any], str]:
    """The JSON data of the drawings (lines and groups stored once) and the SVG of the start."""
    lines: dict[str, int] = {}
    groups: dict[str, int] = {}
    frames = []
    shown: list[tuple[Step, str | None, str | None, str]] = [
        (s, s.src, s.dst, f"the table after move {s.n}" if s.n else "the table before the first move")
        for s in v.steps]
    if v.refused is not None:
        r = v.refused
        shown.append((v.steps[-1], r.src, r.dst, f"the table before move {r.n}, which the rules refuse"))
    head = tail = ""
    for s, src, dst, label in shown:
        head, parts, tail = _drawing(v, s.snapshot, src, dst, LABEL)
        frames.append({"g": [groups.setdefault(p, len(groups)) for p in parts], "label": label})
    h, parts, t = _drawing(v, v.steps[0].snapshot, None, None, shown[0][3])
    first = "\n".join([h, *parts, t])  # the start, for a reader without JavaScript
    data: dict[str, Any] = {"head": head, "tail": tail, "groups": _lined(groups, lines), "steps": frames,
                            "width": float(_width(first))}
    narrow = _narrow(v, shown, lines)
    if narrow is not None and narrow["width"] < data["width"]:
        data["narrow"] = narrow
    data["lines"] = list(lines)
    return data, first


def _lined(groups: dict[str, int], lines: dict[str, int]) -> list[list[int]]:
    """Each group (in the order of its number) as the numbers of its lines, each line numbered once in ``lines``."""
    return [[lines.setdefault(x, len(lines)) for x in g.split("\n")] for g in groups]


def frame_svg(data: dict[str, Any], k: int, phone: bool = False) -> str:
    """The SVG the viewer's script shows at step ``k`` from the data of :func:`viewer_html` (the phone's drawing
    with ``phone``): the tests hold it equal to :func:`replay.draw.svg.table_svg`, and the script to it."""
    frame = data["steps"][k]
    kind = data["narrow"] if phone else data
    ids = kind["steps"][k] if phone else frame["g"]
    parts = ["\n".join(data["lines"][j] for j in kind["groups"][i]) for i in ids]
    return "\n".join([kind["head"].replace(LABEL, _escape_text(frame["label"])), *parts, kind["tail"]])


def _escape_text(s: str) -> str:
    """As the script's ``escapeText``."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


#: the width of the phone's drawing (a 390 px screen less the page's margins): a table drawn wider than this is
#: also drawn as the Play page draws it for a phone (:func:`replay.draw.svg.fitted`: legible text, rows too long
#: wrapped), and the script shows that drawing where the other would not fit
NARROW = 358


def _narrow(v: GameView, shown: list[tuple[Step, str | None, str | None, str]],
            lines: dict[str, int]) -> dict[str, Any] | None:
    """The steps drawn for a phone, their lines and groups stored once (as :func:`_frames` stores the others)."""
    assert v.game is not None
    lay = v.game.layout
    metrics, across = fitted(NARROW, lay.cols)
    rows, cols = fold(lay.rows, lay.cols, across)
    groups: dict[str, int] = {}
    frames = []
    head = tail = ""
    for s, src, dst, _ in shown:
        head, parts, tail = table_parts(lay.names, lay.roles, rows, cols, s.snapshot["piles"],
                                        foundation_suits=s.snapshot.get("foundation_suits"), src=src, dst=dst,
                                        label=LABEL, metrics=metrics)
        frames.append([groups.setdefault(p, len(groups)) for p in parts])
    if not frames:
        return None
    return {"head": head, "tail": tail, "groups": _lined(groups, lines), "steps": frames, "width": float(_width(head))}


#: stands for a step's label in the shared SVG opening (the script puts the label in)
LABEL = "@label@"


def _data_block(data: Any) -> str:
    """The drawing data in the page: its JSON deflated (raw DEFLATE, level 9) and in base64, which the script
    inflates with the browser's ``DecompressionStream``: the SVG lines of a game repeat much of their text
    (issue 33: 13.3 MB of the site's 19.4 MB of viewers was this data as JSON, 1.4 MB deflated)."""
    import base64
    import zlib

    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = base64.b64encode(z.compress(raw) + z.flush()).decode("ascii")
    return f'<script type="application/octet-stream" class="rv-data" data-encoding="deflate-raw;base64">{packed}</script>'


def viewer_data(fragment: str) -> dict[str, Any]:
    """The drawing data of a viewer fragment (of :func:`viewer_html`), read back as the script reads it."""
    import base64
    import re
    import zlib

    m = re.search(r'<script type="application/octet-stream" class="rv-data" data-encoding="deflate-raw;base64">'
                  r"([A-Za-z0-9+/=]*)</script>", fragment)
    if m is None:
        raise ValueError("no drawing data in the fragment")
    return json.loads(zlib.decompress(base64.b64decode(m.group(1)), -15).decode("utf-8"))


# --------------------------------------------------------------------------- the steps


def _status_of(analysis: dict[str, Any] | None, k: int) -> dict[str, Any] | None:
    if not analysis:
        return None
    positions = analysis.get("positions") or []
    return positions[k] if k < len(positions) and positions[k].get("position") == k else None


def analysis_text(pos: dict[str, Any], lost_after: int | None = None) -> str:
    """One position's verdict in words (HTML): what it rests on (proved, found by play, inferred), the winning
    line, or the best line the search found and its cards home."""
    from replay.solver.analyse import evidence

    status = pos.get("status", "unknown")
    how = pos.get("how")
    bits = [f'<b class="an-{html.escape(status)}">{html.escape(STATUS_TEXT.get(status, status))}</b>']
    basis = evidence(pos)
    if how == "inferred":
        basis += f": {pos.get('reason', '')}"
    bits.append(f'(<span class="rv-evidence an-how-{html.escape(str(how))}">{html.escape(basis)}</span>)')
    if pos.get("position") == lost_after:
        bits.append("— <b>the move that lost the game</b>" + (" (found by play)" if how == "played" else ""))
    line = pos.get("line")
    if line:
        shown = " ".join(html.escape(x) for x in line[:40]) + (" …" if len(line) > 40 else "")
        bits.append(f'<br><span class="rv-line">a winning line of {len(line)} moves: {shown}</span>')
    elif pos.get("best_home") is not None:
        best = pos.get("best_line") or []
        shown = " ".join(html.escape(x) for x in best[:40]) + (" …" if len(best) > 40 else "")
        bits.append(f'<br><span class="rv-line rv-best-line">the best line found brings {pos["best_home"]} cards home'
                    + (f" in {len(best)} moves: {shown}" if best else "") + "</span>")
    return " ".join(bits)


def best_html(analysis: dict[str, Any] | None) -> str:
    """Under the timeline: the best line the analysis found (its position linked), its cards home against the
    game as played."""
    from replay.solver.analyse import best_sentence

    b = (analysis or {}).get("best")
    text = best_sentence(analysis or {}, line_moves=40)
    if not b or not text:
        return ""
    k = b["position"]
    return (f'<p class="rv-best">{html.escape(text)} <a href="#move-{k}" data-step="{k}">Show position {k}</a></p>')


def _rules(base: str | None, clauses: list[str], seen: set[str]) -> str:
    """The clauses of a step: each one's tooltip written at its first step only (``seen``: those written), the
    script copies it to the others (issue 33: the tooltips repeated at every step were a fifth of the viewers)."""
    if not clauses:
        return ""
    links = []
    for c in clauses:
        links.append(_clause_link(base, c, tip=c not in seen))
        seen.add(c)
    return '<p class="step-rules">Rules: ' + " · ".join(links) + "</p>"


def _comment(move: dict[str, Any] | None) -> str:
    c = comment_of(move)
    return f'<p class="rv-comment">{html.escape(c)}</p>' if c else ""


def violation_html(v: GameView, base: str | None) -> str:
    """The refused move: the clause broken, quoted in the diplomatic text and in translation, with its link."""
    r = v.refused
    if r is None:
        return ""
    p = r.problem
    out = [f'<div class="rv-violation" role="alert"><p><b>Move {r.n} is refused</b> '
           f"($.moves[{r.n - 1}], {html.escape(p.code)}): {html.escape(p.message)}</p>"]
    if p.clause:
        out.append(f"<p>It breaks {_clause_link(base, p.clause)}.</p>")
        if p.diplomatic or p.translation:
            out.append('<blockquote class="rv-diplomatic" lang="und">' + html.escape(p.diplomatic or "") + "</blockquote>")
            out.append('<blockquote class="rv-translation" lang="en">' + html.escape(p.translation or "")
                       + "</blockquote>")
    if p.held:
        out.append(f'<p class="rv-held">The table held: {html.escape(p.held)}</p>')
    out.append("</div>")
    return "".join(out)


def _section(k: int, total: int, summary: str, body: str, cls: str = "step") -> str:
    label = "Start" if k == 0 else f"{k}/{total}"
    open_ = " open" if k == 0 else ""
    return (f'<section class="{cls}" data-step="{k}" id="move-{k}"><details{open_}><summary>'
            f'<span class="step-n">{label}</span> {summary}</summary>{body}</details></section>')


def viewer_html(v: GameView, rules_base: str | None, analysis: dict[str, Any] | None = None, *,
                log_href: str | None = None, embed_log: bool = False) -> str:
    """The viewer fragment of a replayed log (see the module's docstring).

    ``rules_base`` is the root of the rules site the clause links point into (relative or absolute;
    None: the clauses are named and quoted, not linked).  The viewer offers the log for download from
    ``log_href`` (the site: the file beside the page) or, with ``embed_log``, from a copy it carries.
    """
    if v.game is None or not v.steps:
        return ""
    data, first = _frames(v)
    total = len(v.moves)
    lost = (analysis.get("lost_after") or analysis.get("lost_by_play")) if analysis else None
    best = analysis.get("best") if analysis else None
    sections, items, cells = [], [], []
    seen: set[str] = set()
    for s in v.steps:
        text = html.escape(s.text)
        body = _comment(s.move) + _rules(rules_base, s.clauses, seen) + _legal(s, s.n == len(v.steps) - 1 and v.refused is None)
        pos = _status_of(analysis, s.n)
        status = ""
        if pos is not None:
            body += f'<p class="rv-analysis">Position after {"the deal" if s.n == 0 else f"move {s.n}"}: ' \
                    f"{analysis_text(pos, lost)}</p>"
            status = f" an-{pos.get('status', 'unknown')}" + (" an-inferred" if pos.get("how") == "inferred" else "") \
                + (" an-lost" if s.n == lost else "")
        sections.append(_section(s.n, total, text, body))
        short = "start" if s.move is None else short_move(s.move)
        cls = f' class="{status.strip()}"' if status else ""
        number = "" if s.n == 0 else f"{s.n}. "
        items.append(f'<li data-step="{s.n}"{cls}><a href="#move-{s.n}">{number}{html.escape(short)}</a>'
                     f"{_comment_note(s.move)}</li>")
        tip = ("start" if s.n == 0 else f"move {s.n}: {short}") + (
            f" — {STATUS_TEXT.get(pos.get('status', ''), '')}" if pos else "")
        if pos is not None and pos.get("best_home") is not None:
            tip += f"; best found: {pos['best_home']} cards home"
        if pos is not None and best is not None and s.n == best.get("position"):
            status += " an-best"
        cells.append(f'<span data-step="{s.n}" class="rv-cell{status}" title="{html.escape(tip)}"></span>')
    if v.refused is not None:
        r = v.refused
        k = len(v.steps)
        sections.append(_section(k, total, f"{html.escape(r.text)} — <b>refused</b>",
                                 _comment(r.move) + violation_html(v, rules_base), "step refused"))
        items.append(f'<li data-step="{k}" class="refused"><a href="#move-{k}">{k}. {html.escape(short_move(r.move))}'
                     f"</a> <b>refused</b>{_comment_note(r.move)}</li>")
        cells.append(f'<span data-step="{k}" class="rv-cell refused" title="move {k}: refused"></span>')
    legend = ""
    if analysis:  # each verdict has its own pattern and sign besides its colour
        legend = ('<p class="rv-legend"><span class="rv-cell an-won"></span> ✓ winnable '
                  '<span class="rv-cell an-unwinnable"></span> ✗ lost '
                  '<span class="rv-cell an-unknown"></span> ? unknown within the budget '
                  '<span class="rv-cell an-won an-inferred"></span> striped: inferred, not solved'
                  + (' <span class="rv-cell an-unknown an-best"></span> underlined: the best line found starts here'
                     if best else "") + "</p>" + best_html(analysis))
    name = (v.name or "game.json").replace("\\", "/").rsplit("/", 1)[-1] or "game.json"
    name = name.encode("utf-8", "backslashreplace").decode("utf-8")
    attrs = f' data-file="{html.escape(name)}"'
    if log_href:
        attrs += f' data-log="{html.escape(log_href)}"'
    log_block = ""
    if embed_log and v.text is not None:
        log_block = ('<script type="application/json" class="rv-log">'
                     + json.dumps(v.text, ensure_ascii=True).replace("<", "\\u003c") + "</script>")
    return "\n".join([
        f'<div class="replay-viewer" data-moves="{total}"{attrs} data-search-exclude>',
        f'<figure class="rv-table" style="--rv-w: {_width(first)}">{first}</figure>',
        f'<div class="rv-timeline">{"".join(cells)}</div>{legend}',
        f'<ol class="rv-moves" start="0">{"".join(items)}</ol>',
        '<div class="game-steps">', *sections, "</div>",
        _data_block(data),
        log_block,
        "</div>",
    ])


def _width(svg: str) -> str:
    """The drawing's own width in pixels (its ``width`` attribute), for the narrow screens' minimum size."""
    import re

    m = re.search(r'\swidth="([\d.]+)"', svg)
    return m.group(1) if m else "600"


def _legal(s: Step, at_end: bool) -> str:
    """The moves the rules allow from the step's table (none at the end: the game is over)."""
    if not s.legal:
        return '<p class="rv-legal">No move is legal here: the game is over.</p>' if at_end else ""
    shown = " · ".join(_legal_move(m) for m in s.legal[:40]) + (" …" if len(s.legal) > 40 else "")
    n = len(s.legal)
    return f'<p class="rv-legal">Legal here ({n} move{"" if n == 1 else "s"}): {shown}</p>'


def _legal_move(m: str) -> str:
    """One legal move: its short form as code, the other foundations it may go to (``or f2, f3: the same``) as text."""
    move, sep, alike = m.partition(" (or ")
    return f"<code>{html.escape(move)}</code>" + (f" (or {html.escape(alike)}" if sep else "")


def _comment_note(move: dict[str, Any] | None) -> str:
    c = comment_of(move)
    return f' <span class="rv-note">{html.escape(c)}</span>' if c else ""


# --------------------------------------------------------------------------- the standalone page


def readings_html(a: Any) -> str:
    """Under which readings of the rules the log is legal (a :class:`replay.log.readings.Analysis`)."""
    from replay.log.readings import _brief, _set_text

    if a is None or a.report is not None or not a.trials:
        return ""
    rows = []
    for t in sorted(a.trials, key=lambda t: t.report.verdict != "valid"):  # the legal sets first
        ok = t.report.verdict == "valid"
        rows.append(f'<tr class="{"legal" if ok else "not-legal"}"><td>{html.escape(_set_text(t.changed))}</td>'
                    f"<td>{'legal' if ok else 'not legal'}</td><td>{html.escape(_brief(t.report))}</td></tr>")
    logged = ", ".join(f"{k}={v}" for k, v in a.logged.items()) or "no rulings"
    return (f'<section class="rv-readings"><h2>Readings</h2><details><summary>Legal under <b>{len(a.legal)}</b> of '
            f"{len(a.trials)} reading sets ({html.escape(a.mode)} of {len(a.logged)} rulings)</summary>"
            f"<p>As logged: {html.escape(logged)}.</p>"
            '<table><thead><tr><th>Readings that differ from the log’s</th><th>Verdict</th><th>Detail</th></tr>'
            f"</thead><tbody>{''.join(rows)}</tbody></table></details></section>")


def verdict_html(v: GameView) -> str:
    """The validator's verdict in one sentence (HTML)."""
    p = v.problem
    if v.verdict == "valid":
        claim = f" (the log claims “{html.escape(v.claimed)}”)" if v.claimed else ""
        return f"<b>valid</b>: every move is legal; the game is <b>{html.escape(v.outcome or '?')}</b>{claim}."
    if p is None:
        return f"<b>{html.escape(v.verdict)}</b>."
    where = f" at {html.escape(move_ref(p.move))}" if p.move is not None else \
        (f" at {html.escape(p.path)}" if p.path != "$" else "")
    clause = f", breaking {html.escape(p.clause)}" if p.clause else ""
    return (f"<b>{html.escape(v.verdict)}</b>{where}{clause}: {html.escape(p.message)} "
            f"(<code>{html.escape(p.code)}</code>).")


def standalone_page(v: GameView, rules_base: str | None, analysis: dict[str, Any] | None = None,
                    readings: Any = None, title: str | None = None) -> str:
    """One self-contained HTML file: the viewer, its script and styles inline, nothing fetched."""
    code = "\n" + script()
    data = v.data if isinstance(v.data, dict) else {}
    file_name = (title or v.name).encode("utf-8", "backslashreplace").decode("utf-8")  # a name not UTF-8
    game = v.game
    title = f"{game_title(game.id if game else data.get('game'))}: {file_name}"
    facts = [("Log", html.escape(file_name)),
             ("Game", html.escape(game.id if game else str(data.get("game", "?")))),
             ("Variants", html.escape(", ".join(sorted(game.variants)) if game and game.variants else "none")),
             ("Rulings", html.escape(", ".join(f"{k}={val}" for k, val in sorted(game.rulings.items())) if game
                                     else "—") or "none"),
             ("Moves", str(len(v.moves))),
             ("Verdict", verdict_html(v))]
    meta = data.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    for k in ("player", "date", "source", "notes"):
        if meta.get(k):
            facts.append((k.capitalize(), html.escape(str(meta[k]))))
    if analysis:
        facts.append(("Analysis", analysis_summary_html(analysis)))
    if rules_base:
        facts.append(("Rules", f'<a href="{html.escape(rules_base)}">{html.escape(rules_base)}</a>'))
    dl = "".join(f"<dt>{k}</dt><dd>{val}</dd>" for k, val in facts)
    body = viewer_html(v, rules_base, analysis, embed_log=True) if v.game is not None else \
        f'<p class="rv-error">Not replayed: {html.escape(v.error or "the log cannot be set up")}</p>'
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # nothing may be fetched: inline styles, images only as data, and no script but the viewer's own
        # (its SHA-256): markup that escaping let through could not run script either
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src '{script_hash(code)}'; img-src data:; base-uri 'none'; form-action 'none'\">",
        '<meta name="generator" content="replay view">',
        f"<title>{html.escape(title)}</title>",
        f"<style>\n{PAGE_STYLE}\n{style()}</style>",
        "</head>",
        '<body class="rv-standalone">',
        '<main class="rv-page">',
        f"<h1>{html.escape(game_title(game.id if game else data.get('game')))}"
        f' <span class="rv-file">{html.escape(file_name)}</span></h1>',
        f'<dl class="rv-facts">{dl}</dl>',
        body,
        readings_html(readings),
        '<p class="rv-keys">Keys: ← → move by move, Home and End to the start and the end; the slider, the '
        "timeline and the move list take you to any step.</p>",
        '<p class="rv-touch">Swipe left or right across the viewer to step; ▶ plays the moves one after another; '
        "the slider, the timeline and the move list take you to any step.</p>",
        "</main>",
        f"<script>{code}</script>",
        "</body>",
        "</html>",
        "",
    ])


def game_title(game_id: Any) -> str:
    """A game's title as the corpus gives it (``Zwarta kolumna``), else its ID."""
    from replay.corpus.edition import default_edition

    facts = default_edition().games.get(game_id) if isinstance(game_id, str) else None
    return facts.title if facts is not None else str(game_id or "a game")


def analysis_summary_html(analysis: dict[str, Any]) -> str:
    """The analysis in a sentence (HTML): where the game was lost, what the budget was."""
    from replay.solver.analyse import summary_sentence

    return html.escape(summary_sentence(analysis))


PAGE_STYLE = """
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       color: #212121; background: #ffffff; }
.rv-page { max-width: 78rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
.rv-page h1 { font-size: 1.4rem; margin: 0.2rem 0 0.6rem; overflow-wrap: anywhere; }
.rv-page h1 .rv-file { font-size: 0.9rem; font-weight: 400; color: #546e7a; }
.rv-page h2 { font-size: 1.1rem; }
.rv-facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0 0 0.6rem;
            font-size: 0.9rem; }
.rv-facts dt { font-weight: 600; color: #455a64; }
.rv-facts dd { margin: 0; }
.rv-readings table { border-collapse: collapse; font-size: 0.8rem; }
.rv-readings td, .rv-readings th { border: 1px solid #cfd8dc; padding: 0.15rem 0.5rem; text-align: left; }
.rv-readings tr.legal td:nth-child(2) { color: #2e7d32; font-weight: 600; }
.rv-readings tr.not-legal td:nth-child(2) { color: #c62828; }
.rv-keys, .rv-touch { font-size: 0.8rem; color: #616161; }
.rv-touch { display: none; }
@media (hover: none) and (pointer: coarse) { .rv-keys { display: none; } .rv-touch { display: block; } }
@media (max-width: 30rem) { .rv-page { padding: 0.6rem 0.8rem 2rem; } }
.replay-viewer .stepper { top: 0; }
"""
