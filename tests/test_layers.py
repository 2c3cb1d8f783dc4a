"""The layers are a checked contract (issue 21): the import-linter contracts of ``pyproject.toml`` are
kept, no module takes part in an import cycle, and the engine and the games run with pydantic and
PyYAML absent; each check is shown to fail on a copy of the package that breaks it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).parent / "lint-imports"
CONTRACTS = ("layers", "no-cli-below", "plain-engine", "plain-games", "plain-web")


def lint(cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` in ``cwd`` (which holds the ``pyproject.toml`` it reads), the package found first
    in ``pythonpath`` when one is given."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)} if pythonpath else dict(os.environ)
    return subprocess.run([str(LINT), "--no-cache", "--no-logo"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_contracts_are_kept() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in done.stdout, done.stdout


def copy_of_the_package(tmp: Path) -> Path:
    """The package's Python files and ``pyproject.toml`` in ``tmp`` (nothing else: no library, no cache)."""
    shutil.copytree(ROOT / "replay", tmp / "replay", ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.c",
                                                                                     "*.h", "static"))
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    return tmp


def back_import(root: Path, module: str, line: str) -> None:
    """Add ``line`` (an import) to the end of ``module``'s file in the copy at ``root``."""
    path = root / Path(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_a_back_import_breaks_the_contracts(tmp_path: Path) -> None:
    """The check can fail: the engine importing the corpus models and a game importing Typer are caught."""
    root = copy_of_the_package(tmp_path)
    back_import(root, "replay.engine.cards", "import replay.corpus.models  # noqa: E402,F401")
    back_import(root, "replay.games.catalog", "import typer  # noqa: E402,F401")
    done = lint(root, root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Contracts: 2 kept, 3 broken." in done.stdout, done.stdout  # all but plain-games and plain-web
    assert "pydantic, YAML, models or loader KEPT" in done.stdout, done.stdout
    assert "replay.engine.cards -> replay.corpus.models" in done.stdout, done.stdout
    assert "replay.games.catalog -> typer" in done.stdout, done.stdout


def cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The import cycles between the modules of ``package`` (every import, inside functions too), as the
    sets of modules that import one another (Tarjan's strongly connected components)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    edges = {m: sorted(i for i in graph.find_modules_directly_imported_by(m) if i in graph.modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for m in modules:
        if m not in index:
            visit(m)
    return found


def test_no_module_takes_part_in_an_import_cycle() -> None:
    """No two modules import each other, however far round (the solver's page and table did)."""
    assert cycles(grimp.build_graph("replay", cache_dir=None), "replay") == []


def test_a_cycle_is_found(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The check can fail: a synthetic package whose page imports its table, which imports the page."""
    pkg = tmp_path / "cyclic"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "page.py").write_text("from cyclic.table import home\n")
    (pkg / "table.py").write_text("home = 1\n\ndef render():\n    from cyclic.page import home\n    return home\n")
    (pkg / "alone.py").write_text("import cyclic.table\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cycles(grimp.build_graph("cyclic", cache_dir=None), "cyclic") == [["cyclic.page", "cyclic.table"]]


# --------------------------------------------------------------------------- the engine without pydantic

PLAY = textwrap.dedent('''
    import json, sys
    for name in ("pydantic", "pydantic_core", "yaml", "_yaml"):
        sys.modules[name] = None  # an import of any of them fails, as where they cannot be installed
    from replay.engine import edition as E
    from replay.engine.errors import IllegalMove
    from replay.engine.game import Move

    with open(sys.argv[1], encoding="utf-8") as fh:
        E.use(E.Edition.from_json(json.load(fh)))
    from replay.games.catalog import MODULES, create, module
    from replay.log.describe import clause_text, held
    from replay.log.report import Problem, Report, problem_lines

    out = {}
    for gid in MODULES:
        for variants in [()] + [(v,) for v in module(gid).VARIANTS]:
            game = create(gid, variants)
            t = game.new_table(game.deck_from_seed(1))
            played = 0
            for _ in range(40):
                legal = t.legal_moves()
                if not legal:
                    break
                t.apply(legal[-1])
                played += 1
            legal = set(t.legal_moves())
            refused = next(m for m in game.candidates(t) if m not in legal)
            try:
                t.apply(refused)
            except IllegalMove as e:
                p = Problem("illegal-move", e.reason, move=played, clause=e.clause)
                p.diplomatic, p.translation, _, _ = clause_text(e.clause)
                p.held = held(t, refused)
                out["/".join((gid, *variants))] = {"played": played, "clause": e.clause,
                                                   "lines": problem_lines(Report(file="game"), p)}
    heavy = [m for m in ("replay.corpus.models", "replay.corpus.loader", "typer") if m in sys.modules]
    print(json.dumps({"games": out, "heavy": heavy}))
''')


def test_the_engine_and_the_games_play_without_pydantic_or_yaml(tmp_path: Path) -> None:
    """Every game is made, played and refuses a move (with its clause, worded as validate words it) from
    an edition read from JSON, in a process where pydantic and PyYAML cannot be imported."""
    from replay.corpus.edition import edition_of
    from replay.corpus.loader import default_corpus
    from replay.games.catalog import MODULES, module

    edition = tmp_path / "edition.json"
    edition.write_text(json.dumps(edition_of(default_corpus()).to_json(), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PLAY, str(edition)], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env={**os.environ, "REPLAY_CACHE_DIR": ""})
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["heavy"] == []
    forms = {"/".join((g, *v)) for g in MODULES for v in [()] + [(x,) for x in module(g).VARIANTS]}
    assert set(result["games"]) == forms
    prefixes = {"printex-frame": "pf-", "zwarta-kolumna": "zk-", "exiles": "ex-", "napoleons-square": "ns-"}
    for form, r in result["games"].items():
        assert r["played"] > 0, form
        assert r["clause"].startswith(prefixes[form.split("/")[0]]), (form, r["clause"])
        text = "\n".join(r["lines"])
        assert f"breaks {r['clause']}:" in text and "diplomatic:  “" in text and "translation: “" in text, text
        assert "(not found in the corpus)" not in text and "table held:" in text, text


def test_a_blocked_import_is_noticed(tmp_path: Path) -> None:
    """The check can fail: the same process asked for the corpus loader, which needs pydantic, fails."""
    code = "import sys\nsys.modules['pydantic'] = None\nimport replay.corpus.loader\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, done.stderr


# --------------------------------------------------------------------------- what the Play page ships

def test_the_play_page_ships_exactly_what_its_bridge_imports() -> None:
    """replay.web.SHIPPED is the imports within replay of the page's entries (the bridge and the worker's hint),
    however far round and inside functions too (and the game modules the catalog imports by name), with the
    packages that hold them; the modules reached only where the page never goes are named."""
    from replay.games.catalog import MODULES
    from replay.web import ENTRIES, NOT_REACHED, SHIPPED

    assert ENTRIES == ("replay.web.bridge", "replay.web.hint")
    graph = grimp.build_graph("replay", cache_dir=None)
    seen: set[str] = set()
    todo = [*ENTRIES, *MODULES.values()]
    while todo:
        m = todo.pop()
        if m in seen or m in NOT_REACHED:
            continue
        seen.add(m)
        todo += [i for i in graph.find_modules_directly_imported_by(m) if i.startswith("replay")]
    packages = {".".join(m.split(".")[:k]) for m in seen for k in range(1, m.count(".") + 1)}
    assert seen | packages == set(SHIPPED)
    assert all(m in graph.modules for m in NOT_REACHED)


SHIPPED_PLAY = textwrap.dedent('''
    import json, sys
    for name in ("pydantic", "pydantic_core", "yaml", "_yaml", "platformdirs", "typer", "rich"):
        sys.modules[name] = None  # an import of any of them fails, as in the browser
    from replay.web import bridge, hint

    with open(sys.argv[1], encoding="utf-8") as fh:
        bridge.start(fh.read())
    out = {}
    for case in json.loads(sys.argv[2]):
        s = json.loads(bridge.new_game(json.dumps({**case, "width": 390})))
        assert s["ok"], s
        for _ in range(25):  # the last legal move, by its number or by its two containers
            if not s["legal"]:
                break
            m = s["legal"][-1]
            same = [x for x in s["legal"] if (x["from"], x["to"]) == (m["from"], m["to"])]
            s = json.loads(bridge.between(m["from"], m["to"]) if m["from"] and len(same) == 1 else
                           bridge.pick(m["number"], "picked"))
            assert not s["reply"]["refused"], s["reply"]
        legal = {(x["from"], x["to"]) for x in s["legal"]}
        names = [n for n in s["svg"].split('data-name="')[1:]]
        piles = [n.split('"')[0] for n in names]
        refused = None
        for a in piles:
            for b in piles:
                if a != b and (a, b) not in legal:
                    r = json.loads(bridge.between(a, b))
                    if r["reply"]["problem"] and r["reply"]["problem"].get("clause"):
                        refused = r["reply"]
                        break
            if refused:
                break
        before = len(s["made"])
        s = json.loads(bridge.send("undo"))
        assert len(s["made"]) == before - 1
        # the worker's hint from this position, its whole line played through the bridge as the page plays it
        h = json.loads(hint.search(json.dumps({"log": s["log"], "nodes": 3000})))
        for step in h["steps"]:
            s = json.loads(bridge.follow(json.dumps(step)))
            assert not s["reply"]["refused"], s["reply"]
        out[json.dumps(case)] = {"log": s["log"], "refused": refused, "made": before, "hint": h,
                                 "outcome": s["outcome"]}
    print(json.dumps({"games": out, "replay": sorted(m for m in sys.modules if m.startswith("replay"))}))
''')

#: every game, each variant once and a reading other than the default for each game
PLAY_CASES = [
    {"game": "printex-frame", "seed": 4}, {"game": "printex-frame", "variants": ["cztery-katy"], "seed": 5,
                                            "rulings": {"frame": "square-20"}},
    {"game": "zwarta-kolumna", "seed": 7, "rulings": {"side-reach": "adjacent"}},
    {"game": "zwarta-kolumna", "variants": ["gotycki-zamek"], "seed": 8},
    {"game": "exiles", "seed": 3, "rulings": {"foundations": "eight-aces"}},
    {"game": "napoleons-square", "seed": 2, "rulings": {"sequence-moves": "whole-sequence"}},
]


def test_the_play_page_plays_every_game_from_what_it_ships(tmp_path: Path) -> None:
    """The site's own bundle (replay.site.play.bundle: the files of replay.web.SHIPPED) alone, in a Python
    without site-packages and with pydantic, PyYAML, platformdirs and Typer blocked, plays every game through
    the bridge: moves by number and by two containers, a refusal naming its clause in both texts, an undo, and
    the hint (the Python nested search, as the page's worker runs it; the C core is not imported), whose whole
    line the bridge plays; every log it writes is one `replay validate` accepts."""
    import zipfile

    from replay.corpus.edition import edition_of
    from replay.corpus.loader import default_corpus
    from replay.site.play import bundle
    from replay.web import NOT_REACHED, SHIPPED

    code = tmp_path / "web"
    with zipfile.ZipFile(__import__("io").BytesIO(bundle())) as z:
        z.extractall(code)
    edition = tmp_path / "edition.json"
    edition.write_text(json.dumps(edition_of(default_corpus()).to_json(), ensure_ascii=False), encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(code), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-S", "-c", SHIPPED_PLAY, str(edition), json.dumps(PLAY_CASES)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert set(result["replay"]) <= set(SHIPPED) and not set(result["replay"]) & set(NOT_REACHED)
    games = result["games"]
    assert {json.loads(k)["game"] for k in games} == {"printex-frame", "zwarta-kolumna", "exiles", "napoleons-square"}
    prefixes = {"printex-frame": "pf-", "zwarta-kolumna": "zk-", "exiles": "ex-", "napoleons-square": "ns-"}
    logs = []
    for key, r in games.items():
        case = json.loads(key)
        assert r["made"] > 1, case
        p = r["refused"]["problem"]
        assert p["clause"].startswith(prefixes[case["game"]]) and p["diplomatic"] and p["translation"], case
        text = "\n".join(r["refused"]["refused"])
        assert f"breaks {p['clause']}:" in text and "diplomatic:  “" in text and "translation: “" in text, text
        h = r["hint"]
        assert h["ok"] and h["made"] == r["made"] - 1 and h["status"] in ("won", "unknown") and h["steps"], h
        assert h["home"] > h["home_now"] or h["status"] == "won", h
        assert r["outcome"] == "won" if h["status"] == "won" else True, (case, r["outcome"])
        log = json.loads(r["log"])
        assert log["variants"] == case.get("variants", []) and len(log["moves"]) == r["made"] - 1 + len(h["steps"])
        assert all(log["rulings"][k] == v for k, v in case.get("rulings", {}).items())
        path = tmp_path / f"{len(logs)}.json"
        path.write_text(r["log"], encoding="utf-8")
        logs.append(str(path))
    done = subprocess.run([sys.executable, "-m", "replay", "validate", *logs], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
