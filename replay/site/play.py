"""The Play pages: a game dealt and played in the browser, by the project's own engine on Pyodide.

For every game a page (``play/<game>.md``) with the choice of variants, readings and seed (the
defaults preselected; a query string ``?variant=V&ruling=NAME=READING&seed=N`` preselects others, as the
"play under this reading" links of the game pages and the register do), and an index (``play/index.md``).

The build adds what the pages load, and nothing else loads them (:func:`add_assets`):

* the runtime, Pyodide, pinned and checked (:mod:`replay.site.runtime`), under ``assets/pyodide/<version>/``;
* the Python the page runs: exactly the modules of :data:`replay.web.SHIPPED`, as one zip;
* the edition of the corpus (:meth:`replay.engine.edition.Edition.to_json`), which the engine takes;
* the page's script and styles (``replay/web/static/``), which draw what the Python answers and call it,
  and its worker's script (``play-worker.js``), which runs the strong player's hint (:mod:`replay.web.hint`)
  on a Pyodide of its own, from the same files, so that the page stays responsive while it searches.

The bundle and the edition are named after their content, so a browser never keeps an old one.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from replay.site.data import SiteData
from replay.site.text import attr, esc, raw_block, rel

if TYPE_CHECKING:
    from replay.corpus.models import Ambiguity
    from replay.site.links import Linker

#: a file of the site: its address, its content, whether the navigation lists it
Page = tuple[str, "str | bytes", bool]

PLAY_DIR = "play"
INDEX = f"{PLAY_DIR}/index.md"
ASSETS = "assets/play"


def play_page(gid: str) -> str:
    return f"{PLAY_DIR}/{gid}.md"


def play_link(link: Linker, gid: str, variants: list[str] | tuple[str, ...] = (),
              rulings: dict[str, str] | None = None) -> str:
    """The address of ``gid``'s Play page from the page ``link`` is on, preselecting variants and readings."""
    query = [("variant", v) for v in variants] + [("ruling", f"{k}={v}") for k, v in (rulings or {}).items()]
    return link.to(play_page(gid)) + (f"?{urlencode(query)}" if query else "")


def reading_link(d: SiteData, link: Linker, amb: Ambiguity, reading: str) -> str:
    """A link "play under this reading" (with a dot before it) for a selectable reading of a ruling, else
    nothing: to the Play page of its game, the reading (and the variant the ruling needs, when it needs
    one) preselected."""
    if not amb.ruling or not any(r.id == reading and r.selectable for r in amb.readings):
        return ""
    games = [d.corpus.clauses[c].game for c in amb.clauses if c in d.corpus.clauses]
    gid = next((g for g in games if g in d.corpus.games), None)
    if gid is None:
        return ""
    href = play_link(link, gid, amb.variants[:1], {amb.ruling: reading})
    return f" · [play under this reading]({href})"


# --------------------------------------------------------------------------- what the pages load


@dataclass(frozen=True)
class Assets:
    """Where the pages find what they load (site paths) and how many bytes it is."""

    runtime: str  #: the folder of the runtime's files
    runtime_bytes: int
    version: str
    license: str
    bundle: str
    edition: str
    script: str
    style: str
    worker: str
    own_bytes: int  #: the bundle, the edition, the script and the styles (the first game's; not the worker's script)
    worker_bytes: int  #: the worker's script, loaded at the first hint

    @property
    def total(self) -> int:
        return self.runtime_bytes + self.own_bytes


def bundle() -> bytes:
    """The modules of :data:`replay.web.SHIPPED` as a zip of their sources (the same bytes for the same code)."""
    import replay
    from replay.web import SHIPPED

    root = Path(replay.__file__).resolve().parent.parent
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for module in sorted(SHIPPED):
            path = Path(*module.split("."))
            rel_path = path / "__init__.py" if (root / path).is_dir() else path.with_suffix(".py")
            info = zipfile.ZipInfo(rel_path.as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, (root / rel_path).read_bytes())
    return out.getvalue()


def static(name: str) -> bytes:
    """The page's script or styles (``replay/web/static/``)."""
    return resources.files("replay.web").joinpath("static", name).read_bytes()


def _named(stem: str, data: bytes, ext: str) -> str:
    return f"{ASSETS}/{stem}-{hashlib.sha256(data).hexdigest()[:12]}.{ext}"


def assets(d: SiteData, out: list[Page]) -> Assets:
    """Add everything the Play pages load to ``out``; where it is and its size."""
    from replay.corpus.edition import edition_of
    from replay.site.runtime import pin, runtime_files

    p = pin()
    files = runtime_files()
    runtime = f"assets/pyodide/{p.version}"
    for name, data in files.items():
        out.append((f"{runtime}/{name}", data, False))
    own: dict[str, bytes] = {
        "bundle": bundle(),
        "edition": json.dumps(edition_of(d.corpus).to_json(), ensure_ascii=False, separators=(",", ":")).encode(),
        "script": static("play.js"),
        "style": static("play.css"),
        "worker": static("play-worker.js"),
    }
    names = {"bundle": _named("replay", own["bundle"], "zip"), "edition": _named("edition", own["edition"], "json"),
             "script": _named("play", own["script"], "js"), "style": _named("play", own["style"], "css"),
             "worker": _named("play-worker", own["worker"], "js")}
    for key, uri in names.items():
        out.append((uri, own[key], False))
    loaded = [n for n in files if n != "pyodide-lock.json"] + ["pyodide-lock.json"]
    return Assets(runtime=runtime, runtime_bytes=sum(len(files[n]) for n in loaded), version=p.version,
                  license=p.license, own_bytes=sum(len(v) for k, v in own.items() if k != "worker"),
                  worker_bytes=len(own["worker"]), **names)


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def _kb(n: int) -> str:
    return f"{n / 1000:.0f} kB"


# --------------------------------------------------------------------------- the pages


def pages(d: SiteData) -> list[Page]:
    """The Play pages and what they load."""
    out: list[Page] = []
    a = assets(d, out)
    out.append((INDEX, index_page(d, a), True))
    for gid in d.game_order:
        out.append((play_page(gid), game_play_page(d, gid, a), True))
    return out


def index_page(d: SiteData, a: Assets) -> str:
    lines = ["---", "title: Play", "description: Play any game of the archive, under any reading, in the browser.",
             "---", "", "# Play", "",
             "Deal a game of the archive and play it here, beside its text: under the variants and the readings "
             "you choose, with every move judged by the archive's own rule engine, the same Python code that "
             "`replay validate` runs, here running in your browser. A move the rules refuse is answered with "
             "the clause that forbids it, in the source's words and in translation.", ""]
    for gid in d.game_order:
        g = d.corpus.games[gid]
        orig = f" — *{esc(g.original_title)}*" if g.original_title else ""
        lines += [f"- **[{esc(g.title)}]({rel(INDEX, play_page(gid))})**{orig}: {esc(g.summary)}"]
    lines += ["", *_needs(d, a, d.game_order[0], INDEX)]
    return "\n".join(lines) + "\n"


def _needs(d: SiteData, a: Assets, gid: str, here: str) -> list[str]:
    return [
        "## What the page needs and loads", "",
        "A browser with WebAssembly (every current browser has it) and JavaScript. The first game loads "
        f"**{_mb(a.total)}** from this site besides the page and the site's theme, and nothing from any other "
        "site: the Python runtime, "
        f"[Pyodide](https://pyodide.org/) {a.version} ({_mb(a.runtime_bytes)}, {a.license}, from the npm "
        f"registry at a pinned version whose hash the site build checks), and the archive's own engine, "
        f"rules and texts ({_kb(a.own_bytes)}). Only the Play pages load it. Once it is loaded the page needs "
        "no network; served from a local web server (`mkdocs serve`, or `python -m http.server` in the "
        "built `site/`) it works offline. The first **Hint** starts the strong player in the background: "
        f"its script ({_kb(a.worker_bytes)}) and a second copy of the same runtime, engine and rules, from "
        "this site (the browser usually has them already).", "",
        "Without WebAssembly the page says so. The same game, the same rules and the same messages are "
        "in the terminal:", "",
        "```sh",
        f"replay play {gid} -s 7 -o mine.json        # replay play GAME -s SEED -o FILE",
        "replay validate mine.json",
        "```", "",
    ]


def game_play_page(d: SiteData, gid: str, a: Assets) -> str:
    g = d.corpus.games[gid]
    here = play_page(gid)
    game = rel(here, d.game_page(gid))
    lines = ["---", f"title: {json.dumps('Play ' + g.title)}",
             f"description: {json.dumps('Play ' + g.title + ' in the browser, under the readings you choose.')}",
             "hide:", "  - navigation", "  - toc", "---", "",
             f"# Play {esc(g.title)}", "",
             f"Deal a game of [{esc(g.title)}]({game}), choose its variants and the readings of its rulings "
             "(the defaults are chosen), and play: click a card, then where it goes, or pick a move from the "
             "numbered list. The archive's own rule engine judges every move, as `replay validate` does; a "
             "move it refuses is answered with the clause that forbids it, in the source's words and in "
             "translation. The log, with every ruling written out, can be downloaded at any time and checked "
             "with `replay validate`.", "",
             raw_block(_widget(d, gid, here, a)), "",
             "## How to play", "",
             "- **A move**: click (or tap) the card to move, then the pile or foundation it goes to; click it "
             "again to let go. Or pick a move from the numbered list of legal moves, or type it as in the "
             "terminal: `3` (a number from the list), `p6 K2` (from, to), `deal`, `redeal`, `undo`, "
             "`note TEXT`.",
             "- **A comment** written before a move is kept with it in the log (as `# text` in `replay play`).",
             "- **Undo** takes back the last move and **Redo** plays it again (until another move is made); "
             "**Download the log** saves the game so far as `replay-log/1`, which `replay play FILE` continues "
             "and `replay validate FILE` checks; a log can be pasted or opened here to continue it. A button "
             "(Deal, Redeal) is greyed out when the rules do not allow its move now, and says why.",
             "- **Hint** asks the strong player (the nested Monte-Carlo search of `replay solve --method nmcs`, "
             f"at level 1, in Python, on a budget of {_hint_budget():,} positions) for the next move from the "
             "table: it searches in "
             "the background, so the page stays usable, says how far it has got, and can be stopped. It "
             "answers with the move (outlined on the table; **Play the hint** plays it) and what it found "
             "from there: *a win in 87 moves*, or *at best 71 cards home*, a search result, not a bound. "
             "When it found a win, **Show a win** plays the winning line move by move (Stop halts it). "
             "Every move it plays is judged by the engine like a click.",
             "- **The keyboard**: every pile is a button (Tab to it, Enter or Space to pick it, then the "
             "pile it goes to); outside the text fields Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, M "
             "goes to the list of legal moves (↑ and ↓ within it), T to the table, H asks for a hint and Esc "
             "stops a search or a win being shown. A screen reader hears each pile's name and top card.",
             "- **The address** holds the seed, the variants and the readings of the game dealt "
             "(`?seed=N&variant=V&ruling=NAME=READING`): copy it to share the deal.",
             "- The game ends as `replay` says: *won* when every card is on the foundations, *lost* when no legal "
             "move is left.", "",
             *_needs(d, a, gid, here)]
    return "\n".join(lines) + "\n"


def _hint_budget() -> int:
    from replay.web.hint import BUDGET

    return BUDGET


def _widget(d: SiteData, gid: str, here: str, a: Assets) -> str:
    """The page's HTML: the choices (usable before the runtime comes), the loading bar, the game."""
    from replay.corpus.edition import rulings_of

    g = d.corpus.games[gid]
    root = url_to(here, "") + "/"
    to = lambda uri: url_to(here, uri)  # noqa: E731
    data = {"game": gid, "root": root, "runtime": to(a.runtime) + "/",
            "bundle": to(a.bundle), "edition": to(a.edition), "worker": to(a.worker), "bytes": a.total,
            "version": a.version, "title": g.title}
    head = [f'<div class="replay-play" {" ".join(f"data-{k}={_q(v)}" for k, v in data.items())}>',
           f'<link rel="stylesheet" href="{attr(to(a.style))}">']
    setup = ['<details class="rp-choices" open><summary>Deal a game: variants, readings, seed</summary>',
             '<form class="rp-setup" autocomplete="off">']
    out = setup
    if g.variants:
        out.append('<fieldset class="rp-variants"><legend>Variants</legend>')
        for v in g.variants:
            out.append(f'<label><input type="checkbox" name="variant" value="{attr(v.id)}"> {attr(v.title)} '
                       f'<code>{attr(v.id)}</code></label>')
        out.append("</fieldset>")
    rulings = rulings_of(d.corpus, gid)
    if rulings:
        out.append('<fieldset class="rp-rulings"><legend>Readings of the rulings</legend>')
        for name, r in rulings.items():
            scope = f" ({attr('with the variant ' + ' or '.join(r.variants))})" if r.variants else ""
            out.append(f'<label><span><a href="{attr(root)}ambiguities/#{attr(r.ambiguity)}">'
                       f'{attr(r.ambiguity)}</a> {attr(r.title)}{scope}: <code>{attr(name)}</code></span>')
            out.append(f'<select name="ruling" data-ruling="{attr(name)}" data-default="{attr(r.default)}">')
            for reading in r.readings:
                mark = " (default)" if reading == r.default else ""
                summary = " ".join(r.summaries.get(reading, "").split())
                summary = summary if len(summary) <= 90 else summary[:89] + "…"
                chosen = " selected" if reading == r.default else ""
                out.append(f'<option value="{attr(reading)}"{chosen}>{attr(reading)}{mark}: {attr(summary)}</option>')
            out.append("</select></label>")
        out.append("</fieldset>")
    out += ['<div class="rp-deal-row">',
            '<label class="rp-seed">Seed <input name="seed" type="number" min="0" step="1" inputmode="numeric" '
            'placeholder="random"></label>',
            '<button type="submit" class="rp-submit" disabled>Deal</button>',
            '<button type="button" class="rp-random" disabled>New deal</button>',
            "</div>",
            '<details class="rp-continue"><summary>Continue a log</summary>',
            '<label>Paste a log <textarea name="log" rows="4" spellcheck="false"></textarea></label>',
            '<label>or open one <input type="file" name="file" accept=".json,application/json"></label>',
            '<button type="button" class="rp-open" disabled>Continue this log</button>',
            "</details>",
            "</form>", "</details>"]
    form, out = out, head
    # a classic script inline, so that it runs before the theme's bundle (see the script's own comment)
    out += [f'<script>{static("search-later.js").decode().strip()}</script>']
    out += [f'<div class="rp-loading" role="status"><progress max="{a.total}" value="0"></progress> '
            f'<span>The Python runtime is loading ({_mb(a.total)} from this site, once)…</span></div>',
            '<p class="rp-nowasm" hidden><strong>This browser cannot run the rule engine here</strong>: it has no '
            'WebAssembly (or it is switched off). Play the same game in a terminal: '
            f'<code>replay play {attr(gid)} -s SEED -o FILE</code> (for instance <code>replay play {attr(gid)} -s 7 '
            '-o mine.json</code>).</p>',
            '<noscript><p><strong>The Play page needs JavaScript</strong> (and WebAssembly) to run the rule engine. '
            f'Play the same game in a terminal: <code>replay play {attr(gid)} -s SEED -o FILE</code>.</p></noscript>',
            '<p class="rp-error" role="alert" hidden></p>',
            '<section class="rp-game" hidden aria-label="the game">',
            '<p class="rp-header"></p>',
            '<div class="rp-main">',
            '<div class="rp-table" aria-label="the table: click a card, then where it goes"></div>',
            '<div class="rp-panel">',
            '<p class="rp-verdict" role="status" aria-live="polite"></p>',
            '<div class="rp-refusal" role="alert" hidden></div>',
            '<div class="rp-actions"></div>',
            '<div class="rp-hint" role="group" aria-label="the strong player">',
            '<button type="button" class="rp-hint-go" aria-keyshortcuts="h">Hint</button>',
            '<button type="button" class="rp-hint-play" disabled>Play the hint</button>',
            '<button type="button" class="rp-show" disabled>Show a win</button>',
            '<button type="button" class="rp-stop" hidden aria-keyshortcuts="Escape">Stop</button>',
            '<p class="rp-hint-text" role="status" aria-live="polite"></p>',
            "</div>",
            '<label class="rp-comment">Comment on the next move <input name="comment" type="text" maxlength="2000">'
            '</label>',
            '<form class="rp-line" autocomplete="off"><label>Type a move <input name="line" type="text" '
            'placeholder="3, p6 K2, deal, undo, note text" autocapitalize="off" spellcheck="false"></label>'
            '<button type="submit">Play</button></form>',
            '<p class="rp-keys">Keys (outside the text fields): <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo, '
            '<kbd>Ctrl</kbd>+<kbd>Y</kbd> redo, <kbd>M</kbd> the legal moves (<kbd>↑</kbd> <kbd>↓</kbd> among them), '
            '<kbd>T</kbd> the table, <kbd>H</kbd> a hint, <kbd>Esc</kbd> stop.</p>',
            '<h2 class="rp-h" id="rp-legal-h">Legal moves</h2>',
            '<ol class="rp-legal" aria-labelledby="rp-legal-h" aria-keyshortcuts="m"></ol>',
            '<ul class="rp-notnow"></ul>',
            '<h2 class="rp-h" id="rp-made-h">Moves made</h2>',
            '<ol class="rp-made" tabindex="0" aria-labelledby="rp-made-h"></ol>',
            "</div>", "</div>", "</section>",
            *form,
            "</div>",
            f'<script type="module" src="{attr(to(a.script))}"></script>']
    return "\n".join(out)


def url_to(here: str, path: str) -> str:
    """A site path (an asset, or "" for the root) relative to the address of the page ``here`` (a ``src_uri``),
    for raw HTML, which MkDocs does not rewrite: the page ``play/x.md`` is at ``play/x/`` (directory URLs)."""
    import posixpath

    folder = here[: -len("index.md")] if here.endswith("index.md") else here[:-3] + "/"
    return posixpath.relpath(path or ".", folder.rstrip("/") or ".")


def _q(v: Any) -> str:
    return '"' + attr(str(v)) + '"'


__all__ = ["INDEX", "PLAY_DIR", "pages", "play_link", "play_page", "reading_link"]
