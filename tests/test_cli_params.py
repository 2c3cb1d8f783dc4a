"""The commands' parameters take a value as typer takes it (:mod:`replay.cli.params`): on every parameter of every
command, each plain value it takes itself is the value typer's own coercion gives, of the same type; every
other value is left to typer's coercion (its value, or its refusal in its words).  And ``replay validate``
builds no pydantic adapter for its parameters.
"""

from __future__ import annotations

import os
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest
import typer.main

from replay.cli import app
from replay.cli.params import UNSURE, plain_value

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"
SAMPLES = ["0", "1", "7", "05", "+5", "-1", " 5", "5 ", "1_000", "\u0663", "12345678901234567890", "", "x", "1.5",
           "text", "json", "TEXT", "Text", "portfolio", "nmcs", "p6", "a b", "true", "1e3", True, False, 3, None]


def every_parameter() -> list[tuple[str, Any]]:
    root = typer.main.get_command(app)
    ctx = root.make_context("replay", ["--help"], resilient_parsing=True)
    found: list[tuple[str, Any]] = []

    def walk(cmd: Any, path: str, parent: Any) -> None:
        sub = cmd.make_context(path, [], parent=parent, resilient_parsing=True) if parent else ctx
        for p in cmd.params:
            if getattr(p, "type_descriptor", None) is not None:
                found.append((f"{path} {p.name}", (p, sub)))
        if hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(sub):
                walk(cmd.get_command(sub, name), f"{path} {name}", sub)

    walk(root, "replay", None)
    return found


PARAMETERS = every_parameter()


def typers_own(param: Any) -> Any:
    from typer import core

    build = core.build_runtime_param
    return getattr(build, "typers_own", build)(param.type_descriptor)


def samples_for(annotation: Any) -> list[Any]:
    out: list[Any] = list(SAMPLES)
    inner = get_args(annotation)[0] if get_origin(annotation) is list else annotation
    if isinstance(inner, type) and issubclass(inner, Enum):
        out += list(inner)
    if get_origin(annotation) is list:
        out += [("a", "b"), ["1", "2"], ("x",), (), [1], ("05",)]
    return out


@pytest.mark.parametrize("name,param_ctx", PARAMETERS, ids=[n for n, _ in PARAMETERS])
def test_a_plain_value_is_the_value_typer_gives(name: str, param_ctx: Any) -> None:
    param, ctx = param_ctx
    desc = param.type_descriptor
    own = typers_own(param)
    taken = 0
    for value in samples_for(desc.annotation):
        mine = plain_value(desc.annotation, desc.parameter_info, value, ctx)
        if mine is UNSURE:
            continue
        taken += 1
        theirs = own._coerce_value(value, param=param, ctx=ctx)
        assert type(mine) is type(theirs) and mine == theirs, (name, value, mine, theirs)
        if isinstance(mine, list):
            assert [type(x) for x in mine] == [type(x) for x in theirs], (name, value)
    if desc.annotation in (str, int, bool) or get_origin(desc.annotation) is list and get_args(desc.annotation)[0] is str:
        assert taken, f"{name}: no sample was plain"


def test_unusual_values_are_typers_and_the_check_can_fail() -> None:
    """A value typer takes otherwise (a leading zero) or refuses (below the minimum) goes to typer; a plain value
    that differed from typer's would be caught."""
    until = next(pc for n, pc in PARAMETERS if n == "replay validate until")
    param, ctx = until
    desc = param.type_descriptor
    assert plain_value(desc.annotation, desc.parameter_info, "05", ctx) is UNSURE
    assert plain_value(desc.annotation, desc.parameter_info, "-1", ctx) is UNSURE
    assert plain_value(desc.annotation, desc.parameter_info, "12", ctx) == 12
    assert typers_own(param)._coerce_value("12", param=param, ctx=ctx) != 13  # what the comparison above asserts
    done = subprocess.run([sys.executable, "-m", "replay", "validate", str(LOG), "--until", "05"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and "valid" in done.stdout, done.stderr
    done = subprocess.run([sys.executable, "-m", "replay", "validate", str(LOG), "--until", "-1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "Input should be greater than or equal to 0" in done.stderr, done.stderr


def test_validate_builds_no_pydantic_adapter(tmp_path: Path) -> None:
    """With a warm cache ``replay validate LOG`` imports neither typer's adapters nor pydantic's schema generation,
    nor the modules of the other commands."""
    code = ("import json, sys\nsys.argv = ['replay', 'validate', sys.argv[1], '--format', 'json', '-j', '1']\n"
            "import replay.cli\ntry:\n    replay.cli.main()\nexcept SystemExit:\n    pass\n"
            "print('REPORT', json.dumps([m for m in ('typer._adapters', 'pydantic._internal._generate_schema', "
            "'replay.log.models', 'replay.cli.solver', 'replay.cli.view', 'replay.cli.play', 'replay.cli.trace') "
            "if m in sys.modules]), file=sys.stderr)\n")
    env = {**os.environ, "REPLAY_CACHE_DIR": str(tmp_path)}
    for _ in range(2):  # the first fills the cache
        done = subprocess.run([sys.executable, "-c", code, str(LOG)], capture_output=True, text=True, env=env, cwd=ROOT,
                              timeout=120)
    assert '"verdict": "valid"' in done.stdout, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("REPORT "))
    assert line == "REPORT []", line
