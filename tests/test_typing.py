"""The annotations are checked: mypy over the package and the benchmarks ([tool.mypy] in pyproject.toml).

A rule's return type is part of its contract with the engine (``Reason``: None, a reason, a
``(clause, reason)`` pair or a function giving one); mypy holds every rule, effect and helper to it.
"""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_error(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--cache-dir", str(tmp_path / "cache")])
    assert status == 0, out + err
