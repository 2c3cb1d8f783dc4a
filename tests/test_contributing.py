"""docs/contributing.md is followed to the letter: on a copy of the repository, a tiny text and game are added
by the guide's own code blocks and commands, and the corpus check, the coverage and the site build pass on it.

Every fenced block of the guide with a ``title`` is a step: ``title="PATH"`` writes a new file whole,
``title="PATH: add to the end"`` appends to one, ``title="PATH: change"`` replaces each line of the file that
starts like a line of the block (up to its first ``:`` or ``=``) and puts a line that matches none after the
line before it; the ``sh`` block titled ``regenerate`` is run line by line, in the copy, with the copy's
``replay`` first on the path and ``REPLAY_CORPUS`` pointing at its corpus.  The steps titled ``…, if it were a
ruling`` come last: they make the example's register entry a ruling, and ``corpus check`` must then say what the
guide quotes, until the guide's entry of ``corpus/changes.yaml`` records the ruling.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "contributing.md"
BLOCK = re.compile(r'^```(\w+) title="([^"]+)"\n(.*?)^```$', re.S | re.M)
COPIED = ["replay", "corpus", "docs", "examples", "tests", "data", "mkdocs.yml", "pyproject.toml", "LICENSE",
          "CITATION.cff"]


def steps() -> list[tuple[str, str, str]]:
    """(language, title, body) of every titled block of the guide, in order."""
    return [(m.group(1), m.group(2), m.group(3)) for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]


def _key(line: str) -> str:
    cut = min((i for i in (line.find(":"), line.find("=")) if i >= 0), default=len(line))
    return line[: cut + 1].strip()


def change(path: Path, body: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    at = None
    for new in body.splitlines():
        hits = [i for i, old in enumerate(lines) if _key(old) == _key(new)]
        assert len(hits) <= 1, f"{path}: {_key(new)!r} matches {len(hits)} lines"
        if hits:
            at = hits[0]
            lines[at] = new
        else:
            assert at is not None, f"{path}: {new!r} matches no line and follows none"
            at += 1
            lines.insert(at, new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


#: how the title of a step that applies only had the example's register entry been a ruling ends
RULING_STEP = ", if it were a ruling"


def take(copy: Path, title: str, body: str) -> None:
    """Take the step titled ``title`` in ``copy``: write a new file, add to the end of one, or change it."""
    path, _, how = title.partition(": ")
    target = copy / path
    if how == "change":
        change(target, body)
    elif how == "add to the end":
        with target.open("a", encoding="utf-8") as fh:
            fh.write(body)
    else:
        assert not how, f"unknown step {title!r}"
        assert not target.exists(), f"{path} exists: a new file must not replace one"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body.encode("utf-8"))


#: the folders of the cache a contributor's earlier builds have filled: the Play page's runtime (checked against
#: its pinned hash) and the site's renderings, each kept under a hash of what it renders (a changed file misses)
WARM = ("pyodide", "site-signatures", "site-source", "site-viewer")


def _warm_cache(cache: Path) -> None:
    """The copy's cache as a contributor's is when they follow the guide: filled by the builds before it.  The
    run's own build of the site (tests/test_site.py, shared by the processes of the run) fills this user's
    cache; its folders of :data:`WARM` are copied.  The corpus's parsed files are not: the copy's corpus is
    another, and it is parsed afresh."""
    from replay.corpus.files import cache_dir
    from tests.test_site import build_site

    build_site()
    here = cache_dir()
    for name in WARM:
        if here is not None and (here / name).is_dir():
            shutil.copytree(here / name, cache / name)


def test_the_guide_names_a_new_source_after_its_checksum() -> None:
    texts = [(title, body) for lang, title, body in steps() if title.startswith("corpus/sources/")]
    assert len(texts) == 1
    title, body = texts[0]
    digits = Path(title).stem.split("_", 1)[1]
    assert digits == hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def test_a_text_and_a_game_added_by_the_guide_pass_every_check_and_build(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    copy.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "artifacts")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, copy / name, ignore=ignore)
        else:
            shutil.copy2(src, copy / name)
    (copy / ".venv").symlink_to(Path(sys.prefix))  # the guide's commands are .venv/bin/...
    commands: list[str] = []
    if_a_ruling: list[tuple[str, str]] = []  #: the steps the guide shows for a ruling, taken after the others
    for lang, title, body in steps():
        if lang == "sh" and title == "regenerate":
            commands = [ln for ln in body.splitlines() if ln.strip() and not ln.startswith("#")]
            continue
        if title.endswith(RULING_STEP):
            if_a_ruling.append((title[: -len(RULING_STEP)], body))
            continue
        take(copy, title, body)
    assert commands, "the guide has no block titled regenerate"
    assert len(if_a_ruling) == 3, if_a_ruling
    _warm_cache(tmp_path / "cache")
    env = {**os.environ, "PYTHONPATH": str(copy), "REPLAY_CORPUS": str(copy / "corpus"),
           "REPLAY_CACHE_DIR": str(tmp_path / "cache"), "NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "ignore"}
    env.pop("REPLAY_NO_FASTCORE", None)

    def run(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", command], cwd=copy, env=env, capture_output=True, text=True, timeout=900)

    for command in commands:
        r = run(command)
        problems = [ln for ln in (r.stdout + r.stderr).splitlines() if re.search(r"WARNING|ERROR|Traceback", ln)]
        assert r.returncode == 0 and not (command.endswith("--strict") and problems), \
            f"{command}: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        if command.endswith("corpus check"):
            assert r.stdout.strip() == "corpus is sound", r.stdout
    site = copy / "site"
    page = (site / "games" / "mala-kolumna" / "index.html").read_text(encoding="utf-8")
    for cid in ("mk-1", "mk-2", "mk-3", "mk-4"):
        assert f'id="{cid}"' in page
    assert "aces_build_up_in_suit" in page and "test_only_an_ace_starts_a_foundation" in page
    assert 'title="pile: ' in page  # the glossary's tooltip on "kupki"
    assert "amb-mk-aces" in (site / "ambiguities" / "index.html").read_text(encoding="utf-8")
    assert (site / "texts" / "004.tei.xml").read_bytes().startswith(b"<?xml")
    assert "Wierzchnią kartę kupki" in (site / "texts" / "004" / "index.html").read_text(encoding="utf-8")
    assert (site / "assets" / "layouts" / "mk-row.svg").is_file()
    assert 'data-game="mala-kolumna"' in (site / "play" / "mala-kolumna" / "index.html").read_text(encoding="utf-8")
    coverage = (copy / "data" / "coverage.json").read_text(encoding="utf-8")
    assert '"mk-4"' in coverage
    # had the entry been a ruling: corpus check says what the guide quotes until corpus/changes.yaml records it,
    # and again until the module plays its readings
    check = next(c for c in commands if c.endswith("corpus check"))
    (register, register_body), (record, record_body), (module, module_body) = if_a_ruling
    for title, body in ((register, register_body), (record, record_body)):
        take(copy, title, body)
        r = run(check)
        assert r.returncode == 1 and r.stdout.strip(), (r.stdout, r.stderr)
        for line in r.stdout.splitlines():
            assert f"\n{line}\n" in GUIDE.read_text(encoding="utf-8"), f"the guide does not quote {line!r}"
    take(copy, module, module_body)
    r = run(check)
    assert r.returncode == 0 and r.stdout.strip() == "corpus is sound", (r.stdout, r.stderr)
    r = run(".venv/bin/replay deal mala-kolumna --seed 3 --ruling aces=taken-out-first")
    assert r.returncode == 0 and '"aces": "taken-out-first"' in r.stdout, (r.stdout, r.stderr)
    r = run(".venv/bin/python -m replay.site.changes")
    assert r.returncode == 0, r.stderr
    assert "new ruling `aces` (`amb-mk-aces`)" in (copy / "CHANGES.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["clauses", "text", "ambiguities", "glossary", "game", "layout", "changes"])
def test_the_guide_points_at_schemas_that_exist(name: str) -> None:
    assert (ROOT / "corpus" / "schema" / f"{name}.schema.json").is_file()
    assert f"schema/corpus/{name}.schema.json" in GUIDE.read_text(encoding="utf-8")
