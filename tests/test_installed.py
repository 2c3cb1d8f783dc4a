"""An installed copy works like the checkout: the wheel, installed the way the README says (a fresh venv,
``pip install`` with its dependencies), on every Python of this machine.

The wheel is built from this checkout once; each test installs it into a new venv outside the checkout,
so nothing of the checkout is importable there, and runs the ``replay`` of that venv.  An installed copy
carries no tests: it still knows which tests show which clause, from the index it ships.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.trace.testindex import FROM_INDEX, FROM_NOWHERE, FROM_TESTS, INDEX, clause_tests, index_json, read_index

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


def _python(minor: str) -> str | None:
    """An interpreter of Python 3.``minor`` on this machine (on PATH, else under pyenv), or None."""
    found = [shutil.which(f"python3.{minor}")]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += sorted(str(p) for p in pyenv.glob(f"3.{minor}*/bin/python3.{minor}"))
    for exe in found:
        if exe and subprocess.run([exe, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
            return exe
    return None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built as the README's "Releasing" says."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True, timeout=600)
    return next(out.glob("patience_replay-*.whl"))


def _venv(where: Path, python: str, wheel: Path) -> dict[str, str]:
    """A fresh venv of ``python`` with the wheel installed the way a user installs it: with its
    dependencies, no extras; the environment to run it in (outside the checkout, no corpus override)."""
    subprocess.run([python, "-m", "venv", str(where)], check=True, capture_output=True, timeout=300)
    pip = subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPLAY_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(REPLAY_CACHE_DIR="", PATH=f"{where / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return {"env": json.dumps(env), "cwd": str(where.parent), "bin": str(where / "bin")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory, wheel) -> dict[str, str]:
    """This Python's venv with the wheel and its dependencies (``pip install .`` as the README says)."""
    return _venv(tmp_path_factory.mktemp("venv") / "venv", sys.executable, wheel)


def _run(installed: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(installed["bin"]) / "replay"), *args], capture_output=True, text=True,
                          env=json.loads(installed["env"]), cwd=installed["cwd"], timeout=300)


def test_the_wheel_is_tagged_for_its_platform_not_for_one_python(wheel):
    """The fast core is a C library loaded with ctypes: it needs the platform's C library, not a Python ABI."""
    import sysconfig as sc

    name, version, python, abi, platform = wheel.stem.split("-")
    assert (python, abi) == ("py3", "none"), wheel.name
    assert platform == sc.get_platform().replace("-", "_").replace(".", "_"), wheel.name


def test_the_wheel_carries_its_licences_and_says_them(wheel):
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert any(n.endswith(".dist-info/licenses/corpus/LICENSE") for n in names)
    assert "License-Expression: MIT AND CC-BY-4.0" in meta.splitlines()
    assert "Requires-Dist: distributed>=2024.1; extra == 'stats'" in meta.splitlines()


@pytest.mark.parametrize("minor", ["11", "12", "13"])
def test_the_wheel_installs_and_runs_on_every_python_here(request, tmp_path, wheel, minor):
    if minor == str(sys.version_info.minor):  # the Python running the tests: its venv is made once, for them all
        venv = request.getfixturevalue("installed")
    else:
        python = _python(minor)
        if python is None:
            pytest.skip(f"no Python 3.{minor} on this machine")
        venv = _venv(tmp_path / "venv", python, wheel)
    p = _run(venv, "--version")
    assert p.returncode == 0 and p.stdout.startswith("replay "), p.stdout + p.stderr
    p = _run(venv, "validate", str(ROOT / "examples" / "games"))
    assert p.returncode == 0 and "valid" in p.stdout.splitlines()[-1], p.stdout + p.stderr
    p = _run(venv, "solve", "exiles", "--seed", "1", "--nodes", "5000")
    assert p.returncode == 0 and "fast core" in p.stderr, p.stderr


def test_stats_without_its_extra_says_what_to_install(installed):
    p = _run(installed, "stats", "exiles", "--deals", "2", "--nodes", "100", "-j", "2")
    assert p.returncode == 2, p.stdout + p.stderr
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'patience-replay[stats]'" in lines[0], p.stderr
    p = _run(installed, "stats", "exiles", "--deals", "2", "--nodes", "100", "-j", "1")  # in this process: no dask
    assert p.returncode == 0, p.stderr


def test_the_wheel_runs_from_its_own_files(installed):
    where = subprocess.run([str(Path(installed["bin"]) / "python"), "-c", "import replay; print(replay.__file__)"],
                           capture_output=True, text=True, env=json.loads(installed["env"]), cwd=installed["cwd"])
    assert str(ROOT) not in where.stdout and "site-packages" in where.stdout, where.stdout + where.stderr


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
    import replay.trace.testindex as ti

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
    p = subprocess.run([str(Path(installed["bin"]) / "python"), "-c", code], capture_output=True, text=True,
                       env={**json.loads(installed["env"]), "CC": "/nonexistent-compiler"}, cwd=installed["cwd"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[0] == "True", p.stdout + p.stderr
    p = _run(installed, "solve", "exiles", "--seed", "1", "--nodes", "5000")
    assert p.returncode == 0 and "fast core" in p.stderr, p.stderr


@pytest.fixture(scope="module")
def plain_wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout built on a machine without a C compiler: pure Python, without its core."""
    tmp = tmp_path_factory.mktemp("plain")
    src = tmp / "src"  # the checkout as it is, without its built core
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "site", "build", "dist", "_fastcore-*.so",
                                                             "__pycache__", "artifacts", ".hypothesis"))
    out = tmp / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "-w", str(out), str(src)], capture_output=True, text=True, timeout=600,
                           env={**os.environ, "CC": "/nonexistent/cc"})
    assert built.returncode == 0, built.stderr[-2000:]
    plain = next(out.glob("patience_replay-*.whl"))
    assert plain.name.endswith("-py3-none-any.whl"), plain.name  # pure Python without its core
    return plain


def test_without_a_compiler_the_install_goes_on_and_the_solver_says_it_searches_in_python(tmp_path, plain_wheel):
    """A machine without a C compiler: the sdist-style build from the checkout (no fast core compiled) still
    installs, --version says the solver searches in Python, and solve says so in one line as it starts."""
    venv = _venv(tmp_path / "venv", sys.executable, plain_wheel)
    env = {**json.loads(venv["env"]), "CC": "/nonexistent/cc"}
    p = subprocess.run([str(Path(venv["bin"]) / "replay"), "--version"], capture_output=True, text=True, env=env)
    assert p.stdout.splitlines()[1].startswith("solver: Python search (no fast core"), p.stdout
    p = subprocess.run([str(Path(venv["bin"]) / "replay"), "solve", "exiles", "--seed", "8", "--nodes", "2000"],
                       capture_output=True, text=True, env=env)
    notes = [x for x in p.stderr.splitlines() if x.startswith("replay: note: ")]
    assert len(notes) == 1 and "35 to 90 times slower" in notes[0], p.stderr


def test_installed_view_says_no_rules_site_is_known_and_names_no_mkdocs_yml(installed, tmp_path):
    # an installed copy has no mkdocs.yml: the note about unlinked clauses must not send the user looking for one
    out = tmp_path / "game.html"
    p = _run(installed, "view", str(ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json"), "-o",
             str(out))
    assert p.returncode == 0 and out.is_file(), p.stderr
    assert "the clauses are quoted, not linked: no rules site is known to this copy; give --rules-url URL" in p.stderr
    assert "mkdocs.yml" not in p.stderr


def test_a_core_built_on_first_use_goes_to_the_cache_and_a_broken_compiler_is_tried_once(tmp_path, plain_wheel):
    """Issue 32: the core built on first use went into site-packages, outside pip's list of files (pip uninstall
    left it behind); and with a compiler that fails (CC=/bin/false) --version and solve promised "built on first
    use", then searched 35-90 times slower.  Now: a failing compiler is said as it is, tried once by a build
    (recorded in the cache), and a working one builds the core into the cache folder, never the package."""
    venv = _venv(tmp_path / "venv", sys.executable, plain_wheel)
    cache = tmp_path / "cache"
    calls = tmp_path / "calls.txt"
    failing = tmp_path / "failing-cc"
    failing.write_text(f"#!/bin/sh\necho \"$*\" >> {calls}\necho 'cc: cannot run' >&2\nexit 1\n", encoding="utf-8")
    failing.chmod(0o755)
    env = {**json.loads(venv["env"]), "REPLAY_CACHE_DIR": str(cache), "CC": str(failing)}
    replay = str(Path(venv["bin"]) / "replay")

    def run(*args: str, **more: str) -> subprocess.CompletedProcess:
        return subprocess.run([replay, *args], capture_output=True, text=True, env={**env, **more}, timeout=600)

    p = run("--version")
    assert p.stdout.splitlines()[1] == (f"solver: Python search (no fast core: it was not built, and the C compiler "
                                        f"{failing} does not work (cc: cannot run))"), p.stdout
    for _ in range(2):
        p = run("solve", "exiles", "--seed", "1", "--nodes", "2000")
        notes = [x for x in p.stderr.splitlines() if x.startswith("replay: note: ")]
        assert p.returncode == 0 and len(notes) == 1, p.stderr
        assert "building the fast core failed: cc: cannot run" in notes[0] and "first use" not in notes[0], notes
    assert run("--version").stdout.splitlines()[1] == "solver: Python search (building the fast core failed: cc: "\
        "cannot run)"
    tried = calls.read_text(encoding="utf-8").splitlines()
    assert len(tried) == 2 and "probe.c" in tried[0] and "search.c" in tried[1], tried  # --version's probe, one build

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler on this machine")
    site = next(Path(venv["bin"]).parent.glob("lib/python3*/site-packages"))
    p = run("--version", CC=cc)
    assert p.stdout.splitlines()[1] == f"solver: fast core (C; built on first use, into {cache / 'fastcore'})", p.stdout
    p = run("solve", "exiles", "--seed", "1", "--nodes", "2000", CC=cc)
    assert p.returncode == 0 and "fast core" in p.stderr and "note:" not in p.stderr, p.stderr
    assert [x.suffix for x in (cache / "fastcore").iterdir()] == [".so"]  # the record of the failure is gone
    assert not list((site / "replay").rglob("*.so")), list((site / "replay").rglob("*.so"))  # none outside pip's list
    assert run("--version", CC="/bin/false").stdout.splitlines()[1] == "solver: fast core (C)"
    gone = subprocess.run([str(Path(venv["bin"]) / "python"), "-m", "pip", "uninstall", "-y", "patience-replay"],
                          capture_output=True, text=True, timeout=300)
    assert gone.returncode == 0 and not (site / "replay").exists(), gone.stdout + gone.stderr
