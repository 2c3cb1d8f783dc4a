"""The fast core's C files call one another one way: no cycle between ``replay/fastcore/**/*.c``.

Each file is compiled alone (``cc -c``) and ``nm`` says which symbols it defines and which it needs
from the others; a file that needs a symbol another defines depends on it.  The graph must have no
cycle (kernels.c the catalogue, bridge.c the Python bridge above it and above both searches, keys.c, frees.c and
state.c below every caller), and a synthetic back-edge shows the check can fail.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from replay.fastcore import build

CC, NM = build.compiler(), shutil.which("nm")
pytestmark = pytest.mark.skipif(CC is None or NM is None, reason="needs a C compiler and nm")


def _symbols(obj: Path) -> tuple[set[str], set[str]]:
    """(symbols ``obj`` defines, symbols it needs) as ``nm`` lists them."""
    out = subprocess.run([str(NM), "-P", str(obj)], capture_output=True, text=True, check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        name, kind = line.split()[:2]
        (needed if kind == "U" else defined if kind.isupper() else set()).add(name)
    return defined, needed


def call_graph(root: Path, tmp: Path) -> dict[str, set[str]]:
    """File (relative to ``root``) -> the files whose symbols it needs."""
    games = [p.stem for p in sorted((root / "games").glob("*.c"))]
    defines = [f"-DFC_KERNELS={''.join(f'X({g})' for g in games)}"]
    defined: dict[str, str] = {}
    needs: dict[str, set[str]] = {}
    for src in build.sources(root):
        rel = src.relative_to(root).as_posix()
        obj = tmp / (rel.replace("/", "_") + ".o")
        subprocess.run([str(CC), "-c", "-std=c11", "-fPIC", *defines, "-I", str(root), str(src), "-o", str(obj)],
                       check=True, capture_output=True)
        mine, wanted = _symbols(obj)
        for name in mine:
            defined[name] = rel
        needs[rel] = wanted
    return {f: {defined[s] for s in wanted if s in defined and defined[s] != f} for f, wanted in needs.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as the list of its files (the first repeated at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(f: str) -> list[str] | None:
        state[f] = 1
        path.append(f)
        for g in sorted(graph.get(f, ())):
            if state.get(g) == 1:
                return path[path.index(g):] + [g]
            if g not in state and (found := visit(g)):
                return found
        state[f] = 2
        path.pop()
        return None

    for f in sorted(graph):
        if f not in state and (found := visit(f)):
            return found
    return None


def test_the_c_files_call_one_another_one_way(tmp_path: Path) -> None:
    graph = call_graph(build.HERE, tmp_path)
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])
    assert graph["kernels.c"] <= {f"games/{p.name}" for p in (build.HERE / "games").glob("*.c")}  # the catalogue only
    assert {"kernels.c", "search.c", "nested.c", "frees.c"} <= graph["bridge.c"]
    assert not any("bridge.c" in deps for deps in graph.values())  # nothing calls the bridge back
    assert graph["search.c"] == {"frees.c", "keys.c", "state.c"}
    assert graph["nested.c"] <= {"frees.c", "keys.c", "state.c"}  # the searches share keys.c, not each other


def test_a_back_edge_is_found(tmp_path: Path) -> None:
    """The check can fail: a copy of the sources in which frees.c, which the search calls, calls the search."""
    root = tmp_path / "fastcore"
    shutil.copytree(build.HERE, root, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    frees = root / "frees.c"
    frees.write_text(frees.read_text(encoding="utf-8") + "\nint fc_back_edge(const fc_kernel *k, const fc_game *g, const fc_profile *p, const fc_state *s,"
                     " fc_result *r) { return fc_search(k, g, p, s, 1, -1, 0, r); }\n",
                     encoding="utf-8")
    (tmp_path / "obj").mkdir()
    found = cycle(call_graph(root, tmp_path / "obj"))
    assert found is not None and set(found) == {"frees.c", "search.c"}
