"""Example-game pages: each log under ``examples/`` replayed through the engine, step by step.

For every log the page gives the game instance (variants, rulings), the verdict of the
validator (:func:`replay.log.validate.check_bytes`, the same as ``replay validate``),
the game move by move and the table at the end.  The move-by-move part is the game viewer
of :mod:`replay.view` (the same fragment ``replay view`` writes into its standalone file):
the table drawn as SVG at every step, a slider, the arrow keys, the move list, and the
clauses each move was checked against.  Its script and styles are generated as assets
(:data:`VIEWER_JS`, :data:`VIEWER_CSS`, named in ``mkdocs.yml``).

The logs of ``examples/broken`` are listed on the index page with their verdicts.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.site.data import EXAMPLES_DIR, Example, SiteData
from replay.site.links import Linker
from replay.draw.svg import table_svg
from replay.site.text import esc, raw_block
from replay.view.model import GameView, Step, replay_log

INDEX = f"{EXAMPLES_DIR}/index.md"
#: the viewer's script and styles, as site assets (``mkdocs.yml`` names them)
VIEWER_JS = "assets/viewer/viewer.js"
VIEWER_CSS = "assets/viewer/viewer.css"


@dataclass
class Replayed:
    """One example log replayed (:class:`replay.view.model.GameView`) and where it came from."""

    example: Example
    view: GameView

    @property
    def title(self) -> str:
        return f"{self.example.game} · {self.example.form} · {self.example.name}"

    @property
    def verdict(self) -> str:
        return self.view.verdict

    @property
    def outcome(self) -> str | None:
        return self.view.outcome

    @property
    def claimed(self) -> str | None:
        return self.view.claimed

    @property
    def problem(self) -> Any:
        return self.view.problem

    @property
    def game(self) -> Any:
        return self.view.game

    @property
    def start(self) -> dict[str, Any] | None:
        return self.view.start

    @property
    def steps(self) -> list[Step]:
        """The moves replayed (the start left out)."""
        return self.view.steps[1:]

    @property
    def error(self) -> str | None:
        return self.view.error or (self.example.error if not isinstance(self.example.data, dict) else None)


def replay_example(d: SiteData | None, e: Example) -> Replayed:
    """Validate and replay one log (never raises: problems end up in the result)."""
    return Replayed(e, replay_log(e.path.read_bytes(), e.rel))


def cached_viewer(d: SiteData, r: Replayed, base: str, log_href: str) -> str:
    """The viewer fragment of an example (:func:`replay.view.render.viewer_html`), kept in the cache directory
    (``REPLAY_CACHE_DIR``, as the source pages' highlighted lines) under the SHA-256 of the log, the page's
    addresses and :func:`replay.site.data.code_fingerprint`: drawing every step is most of the generator's time (issue 33), and
    a warm build draws only the logs, code or corpus that changed."""
    import hashlib

    from replay.corpus.files import cache_dir
    from replay.view.render import viewer_html

    folder = cache_dir()
    if folder is None:
        return viewer_html(r.view, base, log_href=log_href)
    h = hashlib.sha256(f"{d.fingerprint}\0{base}\0{log_href}\0".encode())
    h.update(r.example.path.read_bytes())
    path = folder / "site-viewer" / f"{h.hexdigest()}.html"
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    out = viewer_html(r.view, base, log_href=log_href)
    from replay.fsio import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, out.encode("utf-8"))
    except OSError:
        pass  # no cache: the next build draws again
    return out


def rules_base(page_uri: str) -> str:
    """The site's root, relative to the URL of the page ``page_uri`` (``examples/g/f/name.md``)."""
    return posixpath.relpath(".", page_uri[:-3])  # the page's URL is the folder examples/g/f/name/


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
    out += ["## Move by move", "",
            "The table after each move: orange marks the pile a card comes from, blue where it goes. "
            "Each pile shows its top card, the cards beneath it and how many cards it holds. Under the "
            "table, the clauses whose rules the move was checked against and carried out by. Use the "
            "buttons (▶ plays the moves one after another), the slider, the move list, a swipe on a touch screen, "
            "or the arrow keys (Home, End) once the viewer has the focus, to step through the game; the log is "
            "offered for download; "
            f"`replay view {e.rel}` writes the same viewer as one file.", ""]
    out += [raw_block(cached_viewer(d, r, rules_base(e.page), f"../{e.path.name}")), ""]
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
