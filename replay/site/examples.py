"""Example-game pages: each log under ``examples/`` replayed through the engine, step by step.

For every log the page gives the game instance (variants, rulings), the verdict of the
validator (:func:`replay.log.validate.check_bytes`, the same as ``replay validate``),
the table at the start and at the end drawn as SVG, and every move with the table after
it, as a compact grid drawn from :meth:`replay.engine.game.Table.snapshot`.  The steps
are collapsible blocks (readable without JavaScript); ``javascripts/replay.js`` turns
them into a stepper (first / previous / next / last, a slider and the arrow keys).

The logs of ``examples/broken`` are listed on the index page with their verdicts.
"""

from __future__ import annotations

import html
import json
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay.site.data import EXAMPLES_DIR, Example, SiteData
from replay.site.links import Linker
from replay.site.svg import SUIT_SYMBOL, card_text, table_svg
from replay.site.text import esc, one_line, raw_block

INDEX = f"{EXAMPLES_DIR}/index.md"


@dataclass
class Step:
    n: int  #: 1-based move number
    move: dict[str, Any]  #: the log entry
    text: str  #: the move in words
    snapshot: dict[str, Any]
    changed: list[str]  #: containers whose cards changed
    src: str | None = None
    dst: str | None = None
    clauses: list[str] = field(default_factory=list)  #: clauses of the functions consulted for the move


@dataclass
class Replayed:
    """One log replayed: the steps that could be made and the verdict."""

    example: Example
    verdict: str = "unknown"
    outcome: str | None = None
    claimed: str | None = None
    problem: Any = None  #: the first problem of the validator's report
    game: Any = None  #: the engine's game instance
    start: dict[str, Any] | None = None
    steps: list[Step] = field(default_factory=list)
    error: str | None = None

    @property
    def title(self) -> str:
        return f"{self.example.game} · {self.example.form} · {self.example.name}"


def describe_move(move: dict[str, Any]) -> str:
    t = move.get("type", "?")
    if t in ("deal", "redeal"):
        return {"deal": "Deal", "redeal": "Redeal: gather the piles and deal again"}[t]
    card = move.get("card")
    face = f" {card_text(card)[0]}" if isinstance(card, str) and len(card) == 2 and card[1] in SUIT_SYMBOL else ""
    count = move.get("count", 1)
    many = f" ({count} cards)" if count != 1 else ""
    verb = {"move": "Move", "fill": "Fill", "tuck": "Tuck"}.get(t, t.capitalize())
    return f"{verb}{face}{many} {move.get('from', '?')} → {move.get('to', '?')}"


def replay_example(d: SiteData, e: Example) -> Replayed:
    """Validate and replay one log (never raises: problems end up in the result)."""
    from replay.engine import cards as C
    from replay.engine.errors import ReplayError
    from replay.engine.game import Move
    from replay.games import create
    from replay.log.validate import check_bytes

    r = Replayed(e)
    report = check_bytes(e.path.read_bytes(), e.rel)
    r.verdict, r.outcome, r.problem = report.verdict, report.outcome, report.first
    if not isinstance(e.data, dict):
        r.error = e.error or "the file is not a JSON object"
        return r
    r.claimed = e.data.get("result")
    try:
        game = create(e.data["game"], e.data.get("variants", []), e.data.get("rulings", {}))
        table = game.new_table([C.parse(c) for c in e.data["deck"]])
    except (ReplayError, KeyError, TypeError, ValueError) as err:
        r.error = f"cannot set up the game: {one_line(str(err))}"
        return r
    r.game = game
    r.start = table.snapshot()
    before = r.start
    index = game.layout.index
    for n, mv in enumerate(e.data.get("moves", []), start=1):
        try:
            m = Move(mv["type"], index(mv["from"]) if "from" in mv else -1, index(mv["to"]) if "to" in mv else -1,
                     C.parse(mv["card"]) if mv.get("card") else -1, mv.get("count", 1))
            table.apply(m)
        except (ReplayError, KeyError, TypeError, ValueError):
            break  # the validator's report says why
        after = table.snapshot()
        changed = [k for k in after["piles"] if after["piles"][k] != before["piles"][k]]
        r.steps.append(Step(n, mv, describe_move(mv), after, changed, mv.get("from"), mv.get("to"),
                            move_clauses(game, m)))
        before = after
    return r


def move_clauses(game: Any, m: Any) -> list[str]:
    """The clauses of every function the rules consult for a move: its checks, how it is made, what follows."""
    if hasattr(game, "consulted"):
        fns = game.consulted(m)
    else:  # the same from the rule book
        book = game.book
        fns = [r for r, exempt in book.first if m.type not in exempt]
        roles = game.roles
        entry = book.entries.get((m.type, roles[m.src] if m.src >= 0 else None, roles[m.dst] if m.dst >= 0 else None))
        if entry is not None:
            fns += list(entry.rules) + ([entry.perform] if entry.perform else []) + list(entry.after)
    out: list[str] = []
    for fn in fns:
        for c in getattr(fn, "clauses", ()):
            if c not in out:
                out.append(c)
    return out


def rules_html(d: SiteData, page_uri: str, clauses: list[str]) -> str:
    """Links to the clauses a move was checked against (raw HTML: URLs relative to the page's URL)."""
    if not clauses:
        return ""
    url_dir = page_uri[:-3]  # examples/g/f/name.md -> examples/g/f/name (its URL is that folder)
    links = []
    for cid in clauses:
        c = d.corpus.clauses.get(cid)
        if c is None:
            links.append(html.escape(cid))
            continue
        href = posixpath.relpath(f"games/{c.game}", url_dir) + f"/#{cid}"
        tip = one_line(c.translation)
        tip = tip if len(tip) <= 90 else tip[:89] + "…"
        links.append(f'<a href="{href}" title="{html.escape(tip)}">{cid}</a>')
    return '<p class="step-rules">Rules: ' + " · ".join(links) + "</p>"


# --------------------------------------------------------------------------- drawing


def _tracks(values: list[float]) -> dict[float, int]:
    return {v: i + 1 for i, v in enumerate(sorted(set(values)))}


def grid_html(game: Any, snap: dict[str, Any], src: str | None = None, dst: str | None = None,
              changed: list[str] | None = None) -> str:
    """A compact HTML grid of a snapshot: top card, the two beneath, the count; move source/target marked."""
    lay = game.layout
    rows, cols = _tracks(list(lay.rows)), _tracks(list(lay.cols))
    changed_set = set(changed or ())
    cells = []
    for name, role, row, col in zip(lay.names, lay.roles, lay.rows, lay.cols):
        cards = snap["piles"].get(name, [])
        classes = [f"c-{role}"]
        if name == src:
            classes.append("c-src")
        if name == dst:
            classes.append("c-dst")
        if name in changed_set and name not in (src, dst):
            classes.append("c-chg")
        if role == "stock":
            face = f"<b>{len(cards)}</b>" if cards else "<em>empty</em>"
        elif cards:
            top, colour = card_text(cards[-1])
            under = " ".join(card_text(c)[0] for c in cards[-3:-1])
            face = f'<b class="{"red" if colour != "#212121" else "blk"}">{top}</b>' + (f"<s>{under}</s>" if under else "")
        else:
            suit = (snap.get("foundation_suits") or {}).get(name)
            face = f"<em>{SUIT_SYMBOL[suit]}</em>" if role == "foundation" and suit else "<em>·</em>"
        cells.append(f'<span class="{" ".join(classes)}" style="grid-area:{rows[row]}/{cols[col]}">'
                     f"{face}<i>{html.escape(name)} {len(cards)}</i></span>")
    return f'<div class="tgrid" style="--cols:{len(cols)}">' + "".join(cells) + "</div>"


def _svg_of(game: Any, snap: dict[str, Any], label: str, src: str | None = None, dst: str | None = None) -> str:
    lay = game.layout
    return table_svg(lay.names, lay.roles, lay.rows, lay.cols, snap["piles"],
                     foundation_suits=snap.get("foundation_suits"), src=src, dst=dst, label=label)


# --------------------------------------------------------------------------- pages


def verdict_text(r: Replayed, link: Linker) -> str:
    p = r.problem
    if r.verdict == "valid":
        end = r.outcome or "?"
        claim = f" (the log claims “{r.claimed}”)" if r.claimed else ""
        return f"**valid** — every move is legal; the game is **{end}**{claim}."
    if p is None:
        return f"**{r.verdict}**."
    where = f" at move {p.move + 1}" if getattr(p, "move", None) is not None else ""
    clause = ""
    if getattr(p, "clause", None) and p.clause in link.d.corpus.clauses:
        clause = f", breaking [{p.clause}]({link.clause(p.clause)})"
    return f"**{r.verdict}**{where}{clause}: {esc(p.message)} (`{p.code}`)."


def example_page(d: SiteData, r: Replayed) -> str:
    e = r.example
    here = e.page
    link = Linker(d, here)
    data = e.data if isinstance(e.data, dict) else {}
    gid = data.get("game", e.game)
    title = d.corpus.games[gid].title if gid in d.corpus.games else gid
    out = ["---", f"title: \"{title}: {e.form} · {e.name}\"", "search:", "  exclude: true", "---", "",
           f"# {esc(title)}: {esc(e.form)} · {esc(e.name)}", ""]
    game_link = f"[{esc(title)}]({link.game(gid)})" if gid in d.corpus.games else f"`{gid}`"
    rulings = data.get("rulings") or {}
    defaults = {}
    if r.game is not None:
        from replay.games import rulings_for

        defaults = {k: v.default for k, v in rulings_for(r.game.id).items()}
    shown = ", ".join((f"`{k}` = **`{v}`**" if defaults.get(k) not in (None, v) else f"`{k}` = `{v}`")
                      for k, v in sorted(rulings.items())) or "defaults"
    meta = data.get("meta") or {}
    layout = f"[`{r.game.layout.spec.id}`]({link.game(gid, 'layout')})" if r.game is not None else "—"
    out += [f"- **Game** {game_link}",
            f"- **Variants** {', '.join(f'`{v}`' for v in data.get('variants', [])) or 'none (the main game)'}",
            f"- **Rulings** {shown}",
            f"- **Layout** {layout}",
            f"- **Deck** {len(data.get('deck', []))} cards · **Moves** {len(data.get('moves', []))}",
            f"- **Verdict** {verdict_text(r, link)}"]
    for k in ("player", "date", "source", "notes"):
        if meta.get(k):
            out.append(f"- **{k.capitalize()}** {esc(str(meta[k]))}")
    out += ["", f"The log: [`{e.rel}`]({e.path.name}) (JSON, format `{data.get('format', '?')}`). "
            f"Check it yourself: `replay validate {e.rel}`.", ""]
    if r.error:
        out += [f"!!! failure \"Not replayed\"\n    {esc(r.error)}", ""]
        return "\n".join(out)
    if bold := [k for k, v in rulings.items() if defaults.get(k) not in (None, v)]:
        out += [f"Rulings in **bold** differ from the default reading ({', '.join(f'`{k}`' for k in bold)}).", ""]
    out += ["## The table at the start", "",
            raw_block(_svg_of(r.game, r.start or {}, f"{e.name}: the table before the first move")), ""]
    out += ["## Move by move", "",
            "Orange marks the pile a card comes from, blue where it goes, grey other piles that changed "
            "(a deal, a refill). Each pile shows its top card, the two beneath it and how many cards it "
            "holds. Under each table, the clauses whose rules the move was checked against and carried out "
            "by. Use the buttons or the arrow keys to step through the game.", ""]
    n = len(r.steps)
    steps = ['<div class="game-steps" data-search-exclude>']
    steps.append(f'<section class="step" data-step="0"><details open><summary><span class="step-n">Start</span> '
                 f"the table before the first move</summary>{grid_html(r.game, r.start or {})}</details></section>")
    for s in r.steps:
        steps.append(
            f'<section class="step" data-step="{s.n}" id="move-{s.n}"><details><summary>'
            f'<span class="step-n">{s.n}/{n}</span> {html.escape(s.text)}</summary>'
            f"{grid_html(r.game, s.snapshot, s.src, s.dst, s.changed)}{rules_html(d, e.page, s.clauses)}"
            "</details></section>"
        )
    steps.append("</div>")
    out += [raw_block("\n".join(steps)), ""]
    if r.verdict != "valid" and r.problem is not None and getattr(r.problem, "move", None) is not None:
        out += [f"!!! failure \"Move {r.problem.move + 1} is refused\"", f"    {verdict_text(r, link)}", ""]
    final = r.steps[-1].snapshot if r.steps else (r.start or {})
    last = r.steps[-1] if r.steps else None
    out += ["## The table at the end", "",
            raw_block(_svg_of(r.game, final, f"{e.name}: the table after the last move",
                              last.src if last else None, last.dst if last else None)), "",
            f"After {len(r.steps)} moves: {verdict_text(r, link)}", ""]
    return "\n".join(out)


def examples_index(d: SiteData, replayed: list[Replayed], broken: list[tuple[Path, Any, Any]]) -> str:
    link = Linker(d, INDEX)
    out = ["---", "title: Example games", "---", "", "# Example games", "",
           "Complete games recorded in the log format, replayed here move by move through the engine. "
           "Each page shows the table after every move and the validator's verdict. The logs are under "
           "`examples/` in the repository; `replay validate examples/games` checks them all.", ""]
    if not replayed:
        out += ["*There are no example logs yet.*", ""]
    else:
        out += ['<div class="sortable" markdown>', "",
                "| Game | Form | Log | Moves | Verdict | Outcome |", "| --- | --- | --- | --- | --- | --- |"]
        for r in replayed:
            e = r.example
            g = f"[{e.game}]({link.game(e.game)})" if e.game in d.corpus.games else e.game
            moves = len(e.data.get("moves", [])) if isinstance(e.data, dict) else "—"
            out.append(f"| {g} | {e.form} | [{esc(e.name)}]({link.to(e.page)}) | {moves} | {r.verdict} | "
                       f"{r.outcome or '—'} |")
        out += ["", "</div>", ""]
    if broken:
        out += ["## Broken logs", "",
                "Logs under `examples/broken/` that the validator must reject, and what it says about each.", "",
                '<div class="sortable" markdown>', "",
                "| File | Verdict | Problem | Clause | Message | Expected |", "| --- | --- | --- | --- | --- | --- |"]
        for path, report, expect in broken:
            p = report.first
            clause = f"[{p.clause}]({link.clause(p.clause)})" if p and p.clause and p.clause in d.corpus.clauses else ""
            exp = ", ".join(f"{k} {v}" for k, v in (expect or {}).items() if k in ("verdict", "code", "clause", "move"))
            out.append(f"| `{path.name}` | {report.verdict} | {f'`{p.code}`' if p else ''} | {clause} | "
                       f"{esc(p.message) if p else ''} | {esc(exp)} |")
        out += ["", "</div>", ""]
    return "\n".join(out)


def broken_reports(d: SiteData) -> list[tuple[Path, Any, Any]]:
    from replay.log.validate import check_bytes

    out = []
    base = d.root / "examples" / "broken"
    expectations: dict[str, Any] = {}
    exp_file = base / "expectations.yaml"
    if exp_file.is_file():
        import yaml

        expectations = yaml.safe_load(exp_file.read_text(encoding="utf-8")) or {}
    for path in d.broken:
        if path.suffix != ".json":
            continue
        raw = path.read_bytes()
        report = check_bytes(raw, path.relative_to(d.root).as_posix())
        expect = expectations.get(path.name)
        if expect is None:
            try:
                expect = ((json.loads(raw) or {}).get("meta") or {}).get("expect")
            except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):
                expect = None
        out.append((path, report, expect if isinstance(expect, dict) else None))
    return out
