"""API pages (mkdocstrings) and source pages (the code with an anchor on every line).

The API page of a module is ``::: module`` for mkdocstrings, headed by a table of the
clauses its functions implement (links to the clause anchors on the game pages); the
griffe extension :mod:`replay.site.griffe_ext` puts the same back-links under each
function.

A source page shows a file with line numbers.  Line ``n`` has the anchor ``L<n>``;
the lines of each registered function are wrapped in an element whose anchor is
``L<first>-L<last>``, highlighted when it is the target of the URL.
"""

from __future__ import annotations

import ast
import html
import re
from functools import lru_cache
from pathlib import Path

from replay.site.data import SiteData
from replay.site.links import Linker
from replay.site.text import doc_md, esc, raw_block


@lru_cache(maxsize=None)
def module_summary(path: str) -> str:
    try:
        doc = ast.get_docstring(ast.parse(Path(path).read_text(encoding="utf-8"))) or ""
    except (SyntaxError, OSError, UnicodeDecodeError):
        return ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


def module_file(d: SiteData, module: str) -> str:
    p = Path(*module.split("."))
    return (p / "__init__.py").as_posix() if (d.code / p / "__init__.py").exists() else p.with_suffix(".py").as_posix()


def game_of_module(module: str) -> str | None:
    from replay.games.catalog import MODULES

    return next((g for g, m in MODULES.items() if m == module), None)


def api_page(d: SiteData, module: str) -> str:
    here = d.module_page(module)
    link = Linker(d, here)
    path = module_file(d, module)
    impls = [i for i in d.impls.values() if i.module == module]
    # out of the search index: the reference was a quarter of it, fetched by every page (the search box finds
    # the rules; the code is found from the clauses, the reference index and the source pages)
    out = ["---", f"title: {module}", "search:", "  exclude: true", "---", "", f"# `{module}`", ""]
    facts = [f"[Source]({link.source(path)}) `{path}`"]
    gid = game_of_module(module)
    if gid and gid in d.corpus.games:
        facts.append(f"rules of [{esc(d.corpus.games[gid].title)}]({link.game(gid)})")
    out += [" · ".join(facts), ""]
    if impls:
        out += ["## Clauses implemented here", "",
                "| Function | Kind | Clauses | Lines |", "| --- | --- | --- | --- |"]
        for i in impls:
            out.append(f"| {link.code_ref(i.name)} | {i.kind} | {link.clause_list(i.clauses)} | "
                       f"[{i.line}–{i.end_line}]({link.source(i.file, i.line, i.end_line)}) |")
        out.append("")
        excused = [e for e in d.excuses.values() if e.module == module]
        if excused:
            out += ["Deliberately not implemented:", ""]
            out += [f"- [{e.clause}]({link.clause(e.clause)}): {link.prose(e.reason)}" for e in excused]
            out.append("")
        out += ["## Documentation", ""]
    out += [f"::: {module}", "    options:", "      show_root_heading: false", "      show_root_toc_entry: false",
            f"      heading_level: {3 if impls else 2}", ""]
    return "\n".join(out)


def reference_index(d: SiteData) -> str:
    here = "reference/index.md"
    link = Linker(d, here)
    out = ["---", "title: Code reference", "---", "", "# Code reference", "",
           "The documentation of every module of the `replay` package, generated from the code by mkdocstrings. "
           "Each function that implements clauses says so under its signature (**Implements**), with links to "
           "the clauses on the game pages and to its source lines; the game pages link back to it.", ""]
    out += layers_section(d, link)
    out += ["| Module | What it is | Rule functions |", "| --- | --- | --- |"]
    for m in d.modules:
        if m == "replay":
            continue
        n = sum(1 for i in d.impls.values() if i.module == m)
        out.append(f"| [{m}]({link.module(m)}) | {doc_md(module_summary(str(d.file(module_file(d, m)))))} | "
                   f"{n or ''} |")
    out += ["", "## The package", "", "::: replay", "    options:", "      show_root_heading: false",
            "      show_root_toc_entry: false", "      members: false", ""]
    return "\n".join(out)


def layers(root: Path) -> list[list[str]]:
    """The layers of the package, top to bottom, each the packages it holds: the ``layers`` contract of
    ``[tool.importlinter]`` in ``pyproject.toml`` (empty when there is none)."""
    import tomllib

    try:
        config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    contracts = config.get("tool", {}).get("importlinter", {}).get("contracts", [])
    spec = next((c for c in contracts if c.get("type") == "layers"), None)
    return [[p.strip() for p in layer.replace(":", "|").split("|")] for layer in spec["layers"]] if spec else []


def layers_section(d: SiteData, link: Linker) -> list[str]:
    """The rooms of the package: its layers top to bottom, as the contract the tests check names them."""
    rows = layers(d.root)
    if not rows:
        return []
    out = ["## The layers", "",
           "The packages stand in layers: a layer imports only the layers below it, packages of one layer do "
           "not import each other, and nothing below the commands imports the command line. The contract is "
           "in `pyproject.toml` (`[tool.importlinter]`) and `tests/test_layers.py` checks it. Top to bottom:", "",
           "| Layer | Packages |", "| --- | --- |"]
    for n, layer in enumerate(rows, start=1):
        cells = []
        for m in layer:
            summary = module_summary(str(d.file(module_file(d, m))))
            cells.append(f"[{m}]({link.module(m)})" + (f": {doc_md(summary)}" if summary else ""))
        out.append(f"| {n} | {'<br>'.join(cells)} |")
    return out + [""]


# --------------------------------------------------------------------------- source pages


def highlighted_lines(code: str) -> list[str]:
    """Python source -> one HTML fragment per line (Pygments, every span closed on its line, the plain tokens
    without one: :data:`_PLAIN`).

    Highlighting is most of the generator's time, and most files do not change between two builds: the
    lines are kept in the cache directory (``REPLAY_CACHE_DIR``, as the corpus's parsed files), keyed by the
    SHA-256 of the code and the Pygments version.
    """
    import hashlib
    import json

    import pygments

    from replay.corpus.files import cache_dir

    folder = cache_dir()
    path = None
    if folder is not None:
        key = hashlib.sha256(f"{pygments.__version__}\0{_FORM}\0".encode() + code.encode("utf-8")).hexdigest()
        path = folder / "site-source" / f"{key}.json"
        try:
            lines = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(lines, list) and all(isinstance(x, str) for x in lines):
                return lines
        except (OSError, ValueError):
            pass
    lines = _highlight(code)
    if path is not None:
        from replay.fsio import atomic_write

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps(lines).encode("utf-8"))
        except OSError:
            pass  # no cache: the next build highlights again
    return lines


#: the tokens the theme draws as plain code (Material: names in the code's own colour, white space unstyled), whose
#: spans are left out (issue 33: with the per-line wrapper that had no style, 1.5 of the source pages' 13.2 MB)
_PLAIN = re.compile(r'<span class="(?:n|w)">([^<]*)</span>')
#: a token's class, a word of letters and digits, needs no quotes (HTML: an unquoted attribute value): two bytes
#: a span, some 160,000 spans in the listings (issue 33)
_QUOTED_CLASS = re.compile(r'<span class="([a-z0-9]+)">')
#: the form of the highlighted lines: part of their cache key, so that a cache of another form is not read
_FORM = "plain-n-w-unquoted"


def _highlight(code: str) -> list[str]:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer, TextLexer

    lexer = PythonLexer() if code else TextLexer()
    body = _QUOTED_CLASS.sub(r"<span class=\1>", _PLAIN.sub(r"\1", highlight(code, lexer, HtmlFormatter(nowrap=True))))
    lines = body.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    n = len(code.splitlines())
    lines += [""] * (n - len(lines))
    return lines[:n] if n else lines


def source_page(d: SiteData, path: str) -> str:
    here = d.source_page(path)
    link = Linker(d, here)
    code = d.file(path).read_text(encoding="utf-8")
    lines = highlighted_lines(code)
    ranges = {i.line: i for i in d.impls.values() if i.file == path}
    ends = {i.end_line for i in ranges.values()}
    out = ["---", f"title: {path}", "search:", "  exclude: true", "---", "", f"# `{path}`", ""]
    module = path[:-3].replace("/", ".").removesuffix(".__init__") if path.startswith("replay/") else None
    facts = [f"{len(lines)} lines"]
    if module and module in d.modules:
        facts.append(f"[API documentation]({link.module(module)})")
    out += [" · ".join(facts), ""]
    if ranges:
        out += ["| Lines | Function | Clauses |", "| --- | --- | --- |"]
        for i in sorted(ranges.values(), key=lambda x: x.line):
            out.append(f"| [{i.line}–{i.end_line}](#L{i.line}-L{i.end_line}) | {link.code_ref(i.name)} | "
                       f"{link.clause_list(i.clauses)} |")
        out.append("")
    tests_here = sorted({(t.line, t.name) for refs in d.tests.values() for t in refs if t.file == path})
    if tests_here:
        by_test: dict[tuple[int, str], list[str]] = {}
        for cid, refs in d.tests.items():
            for t in refs:
                if t.file == path:
                    by_test.setdefault((t.line, t.name), []).append(cid)
        out += ["| Line | Test | Clauses |", "| --- | --- | --- |"]
        for line, name in tests_here:
            out.append(f"| [{line}](#L{line}) | `{name}` | {link.clause_list(by_test[(line, name)])} |")
        out.append("")
    rows = []
    for n, frag in enumerate(lines, start=1):
        if n in ranges:
            i = ranges[n]
            rows.append(f'<span class="src-range" id="L{n}-L{i.end_line}" '
                        f'title="{html.escape(i.name)}: {" ".join(i.clauses)}">')
        rows.append(f'<span id=L{n}><a href=#L{n}>{n}</a>{frag or " "}</span>')  # styled by id: 28,000 lines
        if n in ends:
            rows.append("</span>")
    out += [raw_block('<div class="src-listing highlight"><pre><code>' + "\n".join(_join_ranges(rows))
                      + "</code></pre></div>"), ""]
    return "\n".join(out)


def _join_ranges(rows: list[str]) -> list[str]:
    """Keep range openers and closers on the line they belong to (no empty lines inside <pre>)."""
    out: list[str] = []
    pending = ""
    for r in rows:
        if r.startswith('<span class="src-range"'):
            pending += r
        elif r == "</span>":
            out[-1] += r
        else:
            out.append(pending + r)
            pending = ""
    return out


def source_index(d: SiteData) -> str:
    here = "source/index.md"
    link = Linker(d, here)
    out = ["---", "title: Source code", "search:", "  exclude: true", "---", "", "# Source code", "",
           "Every module of the package and every test file that shows a clause, with line numbers. "
           "Each line has its own anchor (`#L42`); the lines of a rule function have one for the "
           "range (`#L40-L52`), which the game pages and the API documentation link to.", ""]
    groups: dict[str, list[str]] = {}
    for f in d.source_files:
        groups.setdefault(f.rsplit("/", 1)[0], []).append(f)
    for folder, files in groups.items():
        out += [f"## `{folder}/`", ""]
        for f in files:
            n = sum(1 for i in d.impls.values() if i.file == f)
            t = sum(1 for refs in d.tests.values() for r in refs if r.file == f)
            extra = []
            if n:
                extra.append(f"{n} rule functions")
            if t:
                extra.append(f"{t} clause tags")
            out.append(f"- [`{f}`]({link.source(f)})" + (f" — {', '.join(extra)}" if extra else ""))
        out.append("")
    return "\n".join(out)
