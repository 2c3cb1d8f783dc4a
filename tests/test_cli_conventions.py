"""The command line behaves like its neighbours (issue #16 §2): --version, -h, metavars, help text,
output options, short options, exit codes, a closed pipe; and the start-up (libyaml, the corpus cache).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import typer
import yaml
from typer.testing import CliRunner

from replay.cli import DISTRIBUTION, app

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"
runner = CliRunner()


def run(*args: str, **kw: Any) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "replay", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, **kw)


def commands() -> Iterator[list[str]]:
    """Every command path (``[]`` is the program itself), as ``replay --help`` lists them."""
    root = typer.main.get_command(app)

    def walk(cmd: Any, path: list[str], ctx: Any) -> Iterator[list[str]]:
        yield path
        sub = cmd.context_class(cmd, info_name=(path or ["replay"])[-1], parent=ctx)
        if hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(sub):
                yield from walk(cmd.get_command(sub, name), [*path, name], sub)

    yield from walk(root, [], None)


COMMANDS = list(commands())


# ------------------------------------------------------------------ --version, -h


def test_version_names_the_version_the_distribution_and_the_commit():
    p = run("--version")
    assert p.returncode == 0 and p.stderr == ""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    assert re.fullmatch(rf"replay \d+\.\d+\.\d+\S* \({DISTRIBUTION}, commit {head}(-dirty)?\)\n"
                        r"solver: fast core \(C[^)]*\)\n", p.stdout), p.stdout
    assert run("-V").stdout == p.stdout


def test_version_says_when_the_solver_has_no_fast_core(tmp_path):
    """Without the C library and without a compiler to build it the solver searches in Python (35-90x
    slower): --version says so, as it says when REPLAY_NO_FASTCORE turns the core off."""
    p = subprocess.run([sys.executable, "-m", "replay", "--version"], capture_output=True, text=True,
                       env={**os.environ, "REPLAY_NO_FASTCORE": "1"})
    assert p.stdout.splitlines()[1] == "solver: Python search (REPLAY_NO_FASTCORE is set)", p.stdout
    code = ("import replay.fastcore.build as b, pathlib; b.library_path = lambda root=b.HERE: pathlib.Path('/nonexistent.so');"
            "b.compiler = lambda: None; print(b.status())")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.stdout.strip() == ("solver: Python search (no fast core: it was not built, and there is no C compiler "
                                "to build it)"), p.stdout + p.stderr


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "replay")
def test_dash_h_is_help(path):
    short, long = runner.invoke(app, [*path, "-h"]), runner.invoke(app, [*path, "--help"])
    assert short.exit_code == 0 and long.exit_code == 0
    assert short.output == long.output and "Usage: replay" in short.output


# ------------------------------------------------------------------ help reads as a CLI user expects


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "replay")
def test_help_shows_conventional_metavars_and_no_code(path):
    text = runner.invoke(app, [*path, "--help"], terminal_width=200).output
    for bad in ("<bool>", "<list[", "range>", "<int>", "<str>", "<float>", "<path>", "{", "}", "`",
                "<text", "deck_from_seed", "replay.engine", "replay.log."):
        assert bad not in text, f"{' '.join(['replay', *path])} --help shows {bad!r}:\n{text}"
    assert not re.search(r"\b[a-z_]+\.[a-z_]+\(", text), text  # a call in code, like game.deck_from_seed(SEED)


def test_usage_lines_name_the_arguments_as_users_write_them():
    def usage(*path: str) -> str:
        out = runner.invoke(app, [*path, "--help"], terminal_width=200).output
        return next(line.strip() for line in out.splitlines() if "Usage:" in line)

    assert usage("validate") == "Usage: replay validate [OPTIONS] PATH..."
    assert usage("trace") == "Usage: replay trace [OPTIONS] QUERY..."
    assert usage("show") == "Usage: replay show [OPTIONS] LOG"
    assert usage("deal") == "Usage: replay deal [OPTIONS] GAME"
    assert usage("solve") == "Usage: replay solve [OPTIONS] [LOG|GAME]"
    text = runner.invoke(app, ["validate", "--help"], terminal_width=200).output
    assert re.search(r"--format\s+\[text\|json\]", text) and re.search(r"--until\s+N\b", text)
    assert re.search(r"--lenient\s{3,}Go on", text)  # a flag shows no value


# ------------------------------------------------------------------ options: the same everywhere


def _options(path: list[str]) -> dict[str, list[str]]:
    """Option name -> every spelling of it (long and short) of one command."""
    root = typer.main.get_command(app)
    cmd: Any = root
    ctx = root.make_context("replay", [], resilient_parsing=True)  # with the app's context settings (-h)
    for name in path:
        cmd = cmd.get_command(ctx, name)
        ctx = cmd.make_context(name, [], parent=ctx, resilient_parsing=True)
    return {p.name: [*p.opts, *p.secondary_opts] for p in cmd.get_params(ctx) if p.param_type_name == "option"}


def test_short_options_mean_the_same_in_every_command():
    meaning: dict[str, set[str]] = {}
    for path in COMMANDS:
        for spellings in _options(path).values():
            longs = tuple(s for s in spellings if s.startswith("--"))
            for short in (s for s in spellings if not s.startswith("--")):
                meaning.setdefault(short, set()).add(longs[0])
    assert meaning.pop("-v", None) is None, "-v is for verbose or version, not a variant"
    assert meaning["-s"] == {"--seed"} and meaning["-o"] == {"--out"} and meaning["-j"] == {"--jobs"}
    assert meaning["-h"] == {"--help"} and meaning["-V"] == {"--version"}
    assert all(len(longs) == 1 for longs in meaning.values()), meaning


def test_seed_is_dash_s_wherever_there_is_a_seed_and_format_is_text_or_json():
    for path in COMMANDS:
        opts = _options(path)
        if "seed" in opts:
            assert "-s" in opts["seed"], path
    for path in (["games"], ["validate"], ["trace"], ["coverage"], ["stats"]):
        text = runner.invoke(app, [*path, "--help"], terminal_width=200).output
        assert re.search(r"--format\s+\[text\|json\]", text), path


def test_games_format_json_and_the_old_flag_agree():
    new, old = runner.invoke(app, ["games", "--format", "json"]), runner.invoke(app, ["games", "--json"])
    assert new.exit_code == 0 and new.output == old.output
    assert [g["id"] for g in json.loads(new.output)["games"]][:1] == ["printex-frame"]
    assert "--json" not in runner.invoke(app, ["games", "--help"]).output  # hidden: one way is shown


def test_deal_takes_dash_s_and_writes_a_file_with_dash_o_never_over_another(tmp_path):
    out = tmp_path / "new.json"
    by_short = run("deal", "exiles", "-s", "5", "-o", str(out))
    assert by_short.returncode == 0 and by_short.stdout == "" and out.exists()
    assert json.loads(out.read_text()) == json.loads(run("deal", "exiles", "--seed", "5").stdout)
    again = run("deal", "exiles", "-s", "6", "-o", str(out))
    assert again.returncode == 2 and "exists" in again.stderr
    assert json.loads(out.read_text())["meta"]["seed"] == 5
    assert not [p for p in tmp_path.iterdir() if p.name != "new.json"]  # no temporary file left behind


def test_stats_prints_json_with_format_and_writes_the_row_with_out(tmp_path):
    row = tmp_path / "row.json"
    p = run("stats", "exiles", "-n", "1", "-s", "19", "--nodes", "50", "-j", "1", "--no-greedy",
            "--format", "json", "-o", str(row))
    assert p.returncode == 0, p.stderr
    printed, written = json.loads(p.stdout), json.loads(row.read_text())
    assert printed["format"] == written["format"] == "replay-stats-row/1" and printed["seeds"][0] == 19 and printed["deals"] == 1
    assert "--out" in written["command"] and "--json" not in written["command"]


# ------------------------------------------------------------------ exit codes


@pytest.mark.parametrize("args", [
    ("deal", "zwarta"), ("solve", "--game", "zwarta", "--seed", "1"), ("solve", "zwarta", "--seed", "1"),
    ("stats", "zwarta", "-n", "1"), ("stats", "--table", "--only", "zwarta", "--out", "x.json"),
])
def test_an_unknown_game_is_a_usage_error_everywhere(args):
    p = run(*args)
    assert p.returncode == 2, p.stdout + p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "zwarta" in p.stderr and "Traceback" not in p.stderr


def test_solve_has_a_distinct_exit_code_for_each_verdict(tmp_path):
    won = run("solve", "exiles", "-s", "1", "--nodes", "5000", "-o", str(tmp_path / "won.json"))
    unwinnable = run("solve", "exiles", "-s", "17", "--nodes", "5000")
    unknown = run("solve", "exiles", "-s", "1", "--nodes", "10")
    assert (won.returncode, unwinnable.returncode, unknown.returncode) == (0, 3, 4), (won.stderr, unwinnable.stderr)
    assert unwinnable.stderr.startswith("unwinnable") and unknown.stderr.startswith("unknown")
    help_text = runner.invoke(app, ["solve", "--help"], terminal_width=200).output
    assert "3 unwinnable" in help_text and "4 unknown" in help_text


@pytest.mark.parametrize("args", [("validate", "examples/games"), ("games",), ("schema",)])
def test_a_closed_pipe_ends_quietly(args):
    cmd = " ".join([sys.executable, "-m", "replay", *args])
    # `true` has gone long before the program, which takes a good part of a second to start, writes
    p = subprocess.run(["bash", "-c", f"{cmd} | true; echo \"${{PIPESTATUS[0]}}\" >&2"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    status = p.stderr.strip().splitlines()[-1]
    assert p.stderr.strip().splitlines()[:-1] == [], p.stderr  # no traceback, no "replay: ..." line
    assert status == "141"  # the shell's code for a broken pipe, not 1 ("some log rejected")


# ------------------------------------------------------------------ start-up


def test_the_corpus_is_parsed_with_libyaml_when_pyyaml_has_it():
    from replay.corpus import loader

    if getattr(yaml, "__with_libyaml__", False):
        assert loader.SafeLoader is yaml.CSafeLoader
    else:
        assert loader.SafeLoader is yaml.SafeLoader
    assert issubclass(loader.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def test_the_parsed_corpus_is_cached_by_the_files_hash(tmp_path, monkeypatch):
    from replay.corpus import loader

    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "a.yaml"
    src.write_text("id: x\nlist: [1, 2]\n", encoding="utf-8")
    assert loader.read_yaml(src) == {"id": "x", "list": [1, 2]}
    cached = list((tmp_path / "cache" / "corpus").glob("*.json"))
    assert len(cached) == 1
    cached[0].write_text('{"id": "from the cache"}', encoding="utf-8")  # the cache is what is read next time
    assert loader.read_yaml(src) == {"id": "from the cache"}
    src.write_text("id: y\n", encoding="utf-8")  # other bytes: another key, parsed afresh
    assert loader.read_yaml(src) == {"id": "y"}
    dated = tmp_path / "d.yaml"
    dated.write_text("when: 2020-01-01\n", encoding="utf-8")  # JSON cannot hold a date: not cached
    assert loader.read_yaml(dated)["when"].year == 2020
    assert len(list((tmp_path / "cache" / "corpus").glob("*.json"))) == 2
    monkeypatch.setenv("REPLAY_CACHE_DIR", "")
    assert loader.cache_dir() is None and loader.read_yaml(src) == {"id": "y"}


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    from replay.corpus import loader

    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(blocker / "sub"))  # cannot be made: a file is in the way
    src = tmp_path / "a.yaml"
    src.write_text("a: 1\n", encoding="utf-8")
    assert loader.read_yaml(src) == {"a": 1}


def test_the_startup_benchmark_runs_and_prints_its_figures():
    p = subprocess.run([sys.executable, "benchmarks/bench_startup.py", "--repeat", "1"], capture_output=True,
                       text=True, cwd=ROOT, timeout=300, env={**os.environ})
    assert p.returncode == 0, p.stderr
    assert re.search(r"validate LOG\s+\d+\.\d+ s wall", p.stdout) and "target: validate one log" in p.stdout
    assert ("CSafeLoader" in p.stdout) == bool(getattr(yaml, "__with_libyaml__", False))


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "replay")
def test_help_says_each_thing_once(path):
    text = runner.invoke(app, [*path, "--help"], terminal_width=200).output
    assert text.count("Exit codes") <= 1, text


def test_shell_completion_is_offered_as_typer_offers_it(tmp_path):
    """`replay --show-completion` (in bash) prints a script that, sourced, completes commands and options;
    `_REPLAY_COMPLETE=source_zsh` / `source_fish` print zsh's and fish's; `--install-completion` is in --help."""
    bindir = Path(sys.executable).parent
    if not (bindir / "replay").exists():
        pytest.skip("the replay console script is not installed beside this Python")
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    script = ("source <(replay --show-completion bash)\n"
              "COMP_WORDS=(replay val); COMP_CWORD=1; _replay_completion replay; echo \"${COMPREPLY[@]}\"\n"
              "COMP_WORDS=(replay validate --len); COMP_CWORD=2; _replay_completion replay; echo \"${COMPREPLY[@]}\"\n")
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert p.stdout.splitlines() == ["validate", "--lenient"], p.stdout + p.stderr
    for shell, mark in (("zsh", "#compdef replay"), ("fish", "complete --command replay")):
        p = subprocess.run(["replay"], capture_output=True, text=True, env={**env, "_REPLAY_COMPLETE": f"source_{shell}"})
        assert p.returncode == 0 and mark in p.stdout, p.stdout + p.stderr
    assert "--install-completion" in run("--help").stdout


@pytest.mark.parametrize("name, value, words", [
    ("REPLAY_SOLVER_MEMORY", "lots", "whole number of MiB"),
    ("REPLAY_SOLVER_MEMORY", "0", "at least 1 MiB"),
    ("REPLAY_SOLVER_MEMORY", str(2**43), "at most 1,073,741,824 MiB"),  # 2^63 bytes: wrapped in the C side's int64
    ("REPLAY_SOLVER_MEMORY", str(2**44), "at most 1,073,741,824 MiB"),  # 2^64 bytes: wrapped to 0, a stop at once
    ("REPLAY_NO_FASTCORE", "maybe", "give 1 (on) or 0 (off)"),
    ("REPLAY_CORPUS", "/no/such/corpus", "does not exist"),
    ("REPLAY_CACHE_DIR", "/etc/hostname", "is not a directory"),
])
def test_an_environment_variable_that_cannot_be_read_is_one_line_and_exit_2(name, value, words):
    p = subprocess.run([sys.executable, "-m", "replay", "validate", str(ROOT / "examples" / "games")],
                       capture_output=True, text=True, env={**os.environ, name: value})
    assert p.returncode == 2, p.stdout + p.stderr
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"replay: {name}={value!r}: ") and words in lines[0], p.stderr


def test_every_environment_variable_is_listed_in_help_and_on_the_cli_page():
    from replay.settings import SETTINGS

    help_text = " ".join(run("--help").stdout.split())
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "replay").rglob("*.py")
                     if p.name != "settings.py")
    for s in SETTINGS:
        assert f"{s.name}={s.value}" in help_text and f"| `{s.name}` = " in page, s.name
    # every REPLAY_ variable the code reads is one of them, read through replay.settings
    assert set(re.findall(r"environ(?:\.get)?\(\s*[\"'](REPLAY_\w+)", code)) <= {"REPLAY_CACHE_DIR"}


def test_replay_no_fastcore_0_means_the_fast_core_is_on():
    p = subprocess.run([sys.executable, "-m", "replay", "--version"], capture_output=True, text=True,
                       env={**os.environ, "REPLAY_NO_FASTCORE": "0"})
    assert p.stdout.splitlines()[1].startswith("solver: fast core"), p.stdout


def test_help_texts_are_filled_to_the_terminals_width_not_broken_where_the_source_breaks_its_lines():
    # issue 31: Typer kept the docstrings' line breaks after the first paragraph, ragged at 80 columns
    every = [c for c in commands() if c]
    assert ["play"] in every and ["corpus", "check"] in every
    for command in every:
        r = run(*command, "--help", env=dict(os.environ, COLUMNS="80", TERM="xterm"))
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        body = lines[lines.index(next(x for x in lines if x.strip().startswith("Usage:"))) + 2:]
        body = body[: next((i for i, x in enumerate(body) if x.startswith("╭")), len(body))]
        text = [x.strip() for x in body]
        for a, b in zip(text, text[1:]):
            if a and b:  # a line of a paragraph is as full as the next line's first word allows (78: the margins)
                assert len(a) + 1 + len(b.split()[0]) > 78, (command, a, b)
