"""The command-line reference (``docs/cli.md``), generated from the Typer app.

The page is built from click's own view of the app (``typer.main.get_command``; duck-typed,
since recent Typer releases carry their own copy of click):
every command and sub-command in the order ``replay --help`` lists them, with its
help text, usage line, arguments and options.  Nothing depends on the terminal
width or on rich's formatting, so the output is the same on every machine.

Regenerate the committed file after changing a command::

    .venv/bin/python -m replay.cli.docs

``tests/test_site_cli.py`` fails when ``docs/cli.md`` is stale.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from replay.paths import ROOT
from replay.site.text import esc

TARGET = ROOT / "docs" / "cli.md"
REGENERATE = ".venv/bin/python -m replay.cli.docs"


def _app_command() -> Any:
    import typer

    from replay.cli.root import app

    return typer.main.get_command(app)


def _paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    text = text.replace("\b\n", "\n").replace("\b", "")
    out = []
    for para in re.split(r"\n\s*\n", text.strip()):
        para = para.strip()
        if para:
            out.append(esc(para))
    return out


def _is_option(p: Any) -> bool:
    return getattr(p, "param_type_name", "") == "option"


def _is_argument(p: Any) -> bool:
    return getattr(p, "param_type_name", "") == "argument"


def _record(p: Any, ctx: Any) -> tuple[str, str] | None:
    """(how it is written, what it does) as ``--help`` shows it, or None for a hidden parameter."""
    if getattr(p, "hidden", False):
        return None
    try:
        rv = p.get_help_record(ctx)
    except Exception:  # noqa: BLE001 - fall back to the bare attributes
        rv = None
    if rv is None:
        if _is_option(p):
            return None
        name = (getattr(p, "metavar", None) or (p.name or "").upper())
        return name, getattr(p, "help", None) or ""
    return rv[0], rv[1] or ""


def _code_cell(written: str) -> str:
    """How an option is written, as code in a table cell.

    A Markdown code span cannot hold the table's ``|`` (escaped as ``&#124;`` it shows the entity
    itself), so the cell is an HTML ``<code>`` element, where the entity is a plain ``|``.
    """
    import html

    return "<code>" + html.escape(written, quote=False).replace("|", "&#124;") + "</code>"


def _command(cmd: Any, path: list[str], ctx: Any, level: int) -> list[str]:
    name = " ".join(path)
    anchor = "-".join(path)
    out = [f"{'#' * level} `{name}` {{#{anchor}}}", ""]
    out += [p + "\n" for p in _paragraphs(cmd.help)]
    sub_ctx = cmd.context_class(cmd, info_name=path[-1], parent=ctx)
    pieces = cmd.collect_usage_pieces(sub_ctx)
    out += ["```text", f"{name} {' '.join(pieces)}".rstrip(), "```", ""]
    args = [(p, r) for p in cmd.params if _is_argument(p) and (r := _record(p, sub_ctx))]
    opts = [(p, r) for p in cmd.params if _is_option(p) and (r := _record(p, sub_ctx))]
    for title, params in (("Argument", args), ("Option", opts)):
        if not params:
            continue
        out += [f"| {title} | Description |", "| --- | --- |"]
        for p, (written, help_) in params:
            text = " ".join(_paragraphs(help_))
            if getattr(p, "required", False) and "required" not in text.lower():
                text = "**Required.** " + text
            out.append(f"| {_code_cell(written)} | {text} |")
        out.append("")
    if hasattr(cmd, "list_commands"):
        for sub_name in cmd.list_commands(sub_ctx):
            sub = cmd.get_command(sub_ctx, sub_name)
            if sub is None or sub.hidden:
                continue
            out += _command(sub, [*path, sub_name], sub_ctx, level + 1)
    return out


def _environment() -> list[str]:
    """The environment variables (:data:`replay.settings.SETTINGS`, as ``replay --help`` lists them)."""
    from replay.settings import SETTINGS

    out = ["## Environment variables {#environment}", "",
           "Read at the start of every command; a value that cannot be read is a one-line error (exit 2), "
           "never ignored.", "", "| Variable | What it does |", "| --- | --- |"]
    out += [f"| `{s.name}` = {esc(s.value)} | {esc(s.help[0].upper() + s.help[1:])}. |" for s in SETTINGS]
    out += ["", "Shell completion: `replay --install-completion` installs it for the shell you run "
            "(bash, zsh, fish, PowerShell); `replay --show-completion` prints it to copy or adapt. It completes "
            "the commands and their options, and what they take from the corpus: game IDs, the variants and the "
            "rulings (`NAME=READING`) of the game given, and clause IDs (`replay trace`).", ""]
    return out


def render() -> str:
    """The whole of ``docs/cli.md``."""
    root = _app_command()
    ctx = root.context_class(root, info_name="replay")
    out = [
        "---", "title: Command line", "---", "",
        "<!-- Generated from the Typer app by `" + REGENERATE + "`; do not edit by hand. -->", "",
        "# Command line", "",
        *[p + "\n" for p in _paragraphs(root.help)],
        "Every command takes `--help`. This page is generated from the program itself, and a test fails "
        "when it no longer matches.", "",
    ]
    if hasattr(root, "list_commands"):
        listed = [(n, root.get_command(ctx, n)) for n in root.list_commands(ctx)]
        listed = [(n, c) for n, c in listed if c is not None and not c.hidden]
        out += ["| Command | What it does |", "| --- | --- |"]
        for n, c in listed:
            short = c.get_short_help_str(limit=200)
            out.append(f"| [`replay {n}`](#replay-{n}) | {esc(short)} |")
        out.append("")
        for n, c in listed:
            out += _command(c, ["replay", n], ctx, 2)
    else:
        out += _command(root, ["replay"], ctx, 2)
    out += _environment()
    text = "\n".join(out).rstrip() + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if args == ["--check"]:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    if args == ["-"]:
        sys.stdout.write(text)
        return 0
    from replay.fsio import write_text

    write_text(TARGET, text, update=True, make_parents=True)  # regenerating the page is the purpose
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
