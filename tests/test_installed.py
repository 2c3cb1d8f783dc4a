"""An installed copy (a non-editable wheel, no tests/ beside it) still knows which tests show which clause.

The wheel is built from this checkout with hatchling and unpacked into a temporary directory; the
program then runs from there (``python -S``: no site packages of the checkout's venv are processed,
so nothing of the checkout is importable but the dependencies on ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from replay.testindex import FROM_INDEX, FROM_NOWHERE, FROM_TESTS, INDEX, clause_tests, index_json, read_index

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_test_index_is_current():
    assert INDEX.read_text(encoding="utf-8") == index_json(ROOT), (
        "the clause tags of the tests changed: run `replay coverage --update` and commit data/testindex.json")


def test_without_a_test_tree_the_shipped_index_is_read(tmp_path):
    # a root with no tests/ at all, as in an installed copy: the committed index answers
    tags, source = clause_tests(tmp_path)
    assert source == FROM_INDEX
    assert tags.keys() == read_index(INDEX).keys()  # type: ignore[union-attr]
    assert any(r.nodeid.startswith("tests/test_game_zwarta_kolumna.py::") for r in tags["zk-8"])


def test_in_a_checkout_the_tests_themselves_are_read():
    tags, source = clause_tests(ROOT)
    assert source == FROM_TESTS and tags["zk-8"][0].line > 0


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """Build the wheel, install it (without dependencies) into a directory; the environment to run it."""
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp / "dist"), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next((tmp / "dist").glob("patience_replay-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp / "site"),
                    str(wheel)], check=True, capture_output=True, timeout=300)
    deps = sysconfig.get_paths()["purelib"]
    env = {**os.environ, "PYTHONPATH": f"{tmp / 'site'}{os.pathsep}{deps}", "REPLAY_CACHE_DIR": ""}
    env.pop("REPLAY_CORPUS", None)
    return {"env": json.dumps(env), "cwd": str(tmp)}


def _run(installed: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-S", "-m", "replay", *args], capture_output=True, text=True,
                          env=json.loads(installed["env"]), cwd=installed["cwd"], timeout=300)


def test_the_wheel_runs_from_its_own_files(installed):
    where = subprocess.run([sys.executable, "-S", "-c", "import replay; print(replay.__file__)"],
                           capture_output=True, text=True, env=json.loads(installed["env"]), cwd=installed["cwd"])
    assert str(ROOT) not in where.stdout and "site" in where.stdout, where.stdout + where.stderr


def test_installed_coverage_counts_the_tests_of_the_shipped_index(installed):
    p = _run(installed, "coverage", "--format", "json")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["summary"]["implemented-untested"] == 0
    assert report["summary"]["implemented-and-tested"] > 0
    assert "the tests are not installed" in p.stderr


def test_installed_trace_names_the_tests_and_says_where_they_come_from(installed):
    p = _run(installed, "trace", "zk-8")
    assert p.returncode == 0, p.stderr
    assert "tests/test_game_zwarta_kolumna.py::" in p.stdout
    assert "no test is tagged" not in p.stdout
    assert "the tests are not installed" in p.stderr


def test_installed_version_names_the_distribution_and_the_commit(installed):
    p = _run(installed, "--version")
    assert p.returncode == 0, p.stderr
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    assert p.stdout.startswith("replay 0.") and "patience-replay" in p.stdout
    assert commit and commit in p.stdout


def test_an_index_that_is_not_one_is_ignored(tmp_path):
    bad = tmp_path / "testindex.json"
    bad.write_text('{"format": "something-else", "tests": {}}', encoding="utf-8")
    assert read_index(bad) is None
    assert read_index(tmp_path / "missing.json") is None


def test_with_neither_tests_nor_index_the_program_says_so(tmp_path, monkeypatch):
    import replay.testindex as ti

    monkeypatch.setattr(ti, "INDEX", tmp_path / "none.json")
    monkeypatch.setattr(ti, "INSTALLED_INDEX", tmp_path / "none.json")
    tags, source = ti.clause_tests(tmp_path)
    assert (tags, source) == ({}, FROM_NOWHERE)
    assert "not installed" in (ti.source_note(source) or "")
    assert ti.source_note(FROM_TESTS) is None


def test_the_wheel_carries_the_fast_core_it_was_built_with(installed):
    """The build hook compiles the solver's C core into the wheel, and the installed copy loads it (the
    file named after its sources' hash, so it is the one these sources make) rather than building one."""
    code = ("import replay.fastcore as f, replay.fastcore.build as b; lib = f.library(); "
            "print(lib is not None and lib.fc_has_kernel(b'exiles') == 1, b.library_path().name)")
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                       env={**json.loads(installed["env"]), "CC": "/nonexistent-compiler"}, cwd=installed["cwd"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[0] == "True", p.stdout + p.stderr
    p = _run(installed, "solve", "exiles", "--seed", "1", "--nodes", "5000")
    assert p.returncode == 0 and "fast core" in p.stderr, p.stderr
