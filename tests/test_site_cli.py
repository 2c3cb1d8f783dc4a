"""The command-line reference docs/cli.md is generated from the Typer app and must not go stale."""

from __future__ import annotations

import difflib

from replay.cli import docs as cli_docs


def test_cli_reference_is_up_to_date() -> None:
    want = cli_docs.render()
    have = cli_docs.TARGET.read_text(encoding="utf-8") if cli_docs.TARGET.exists() else ""
    if have != want:
        diff = "".join(difflib.unified_diff(have.splitlines(True), want.splitlines(True), "docs/cli.md (committed)",
                                            "docs/cli.md (from the app)", n=1))
        raise AssertionError(f"docs/cli.md is stale: regenerate it with `{cli_docs.REGENERATE}`\n{diff[:4000]}")


def test_cli_reference_documents_every_command() -> None:
    import typer

    from replay.cli import app

    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="replay")
    text = cli_docs.render()
    for name in root.list_commands(ctx):
        cmd = root.get_command(ctx, name)
        if cmd is None or cmd.hidden:
            continue
        assert f"## `replay {name}` {{#replay-{name}}}" in text
        for p in cmd.params:
            for opt in getattr(p, "opts", []):
                if opt.startswith("-") and not getattr(p, "hidden", False):
                    assert opt in text, f"replay {name}: {opt} is not documented"


def test_check_mode_reports_staleness(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(cli_docs, "TARGET", tmp_path / "cli.md")
    monkeypatch.setattr(cli_docs, "ROOT", tmp_path)
    (tmp_path / "cli.md").write_text("old\n", encoding="utf-8")
    assert cli_docs.main(["--check"]) == 1
    assert cli_docs.REGENERATE in capsys.readouterr().err
    assert cli_docs.main([]) == 0
    assert cli_docs.main(["--check"]) == 0


def test_cli_page_renders_options_without_escaped_html() -> None:
    # the page as the site renders it (Python-Markdown with tables): `[text|json]` shows as itself
    import html as html_lib
    import re

    import markdown

    page = markdown.markdown(cli_docs.render(), extensions=["tables", "attr_list", "md_in_html"])
    assert "&amp;#124;" not in page and "&amp;lt;" not in page and "&amp;gt;" not in page
    cells = [html_lib.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td><code>(.*?)</code></td>", page)]
    assert "--format [text|json]" in cells
    assert all("<" not in c and "&#" not in c for c in cells), cells
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    assert all(r.count("<td") in (0, 2) for r in rows)  # the | of [text|json] does not split a row
