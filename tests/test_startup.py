"""What keeps the start-up short (issue #16 §2), checked structurally; the times are in benchmarks/bench_startup.py.

- Registering the commands (``import replay.cli``, ``replay --help``, ``replay --version``) loads
  neither pydantic nor the corpus: the games catalog imports them when a game is made.
- A corpus file whose cached content has passed its model under the same code is built from the
  cache without validating it again (``model_construct``), and the result is the same corpus, to the
  types and the set fields; an edited cache entry or other code is validated again.
- ``replay validate LOG`` with a warm cache reads the cached edition: it imports no corpus model, no
  YAML, rich or multiprocessing, also when it names the readings applied to a ruling the log leaves
  out (the rulings' history is in the edition).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "examples" / "games" / "zwarta-kolumna" / "base" / "lost-seed-1.json"
OLD_LOG = ROOT / "examples" / "games" / "zwarta-kolumna" / "cztery-katy" / "lost-seed-1.json"
HEAVY = ("pydantic", "yaml", "rich", "multiprocessing", "concurrent.futures",
         "replay.corpus.loader", "replay.corpus.models", "replay.engine.game", "replay.games.zwarta_kolumna")


def _python(code: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REPLAY_CACHE_DIR": str(cache) if cache else ""}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)


def _run_cli(argv: list[str], report: str) -> str:
    """Code that runs the CLI with ``argv`` as the console script does, then prints ``report`` as JSON on stderr."""
    return (f"import json, sys\nsys.argv = {['replay', *argv]!r}\nimport replay.cli\n"
            f"try:\n    replay.cli.main()\nexcept SystemExit:\n    pass\n"
            f"print('REPORT', json.dumps({report}), file=sys.stderr)\n")


def _report(p: subprocess.CompletedProcess[str]) -> object:
    line = next(x for x in p.stderr.splitlines() if x.startswith("REPORT "))
    return json.loads(line[len("REPORT "):])


def test_importing_the_cli_loads_neither_pydantic_nor_the_corpus():
    p = _python(f"import json, sys\nimport replay.cli\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == []


def test_help_lists_every_command_without_loading_the_corpus():
    import typer.main

    from replay.cli import app

    commands = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert {"validate", "games", "trace"} <= set(commands)
    p = _python(_run_cli(["--help"], "[m for m in ('replay.corpus.models', 'replay.corpus.loader', 'yaml') "
                                     "if m in sys.modules]"))
    assert _report(p) == []
    for name in commands:
        assert f" {name} " in p.stdout, f"{name} is missing from replay --help"
    v = _python(_run_cli(["--version"], "'pydantic' in sys.modules"))
    assert v.stdout.startswith("replay ") and _report(v) is False


def test_validate_with_a_warm_cache_loads_no_corpus_model_and_imports_nothing_heavy(tmp_path):
    """The first run loads the corpus (and validates it); a warm one reads the cached edition
    (replay.corpus.edition): neither the corpus models nor the loader nor YAML are imported."""
    report = ("{'heavy': [m for m in ('yaml', 'rich', 'multiprocessing', 'concurrent.futures', 'replay.corpus.models', "
              "'replay.corpus.loader') if m in sys.modules], "
              "'built': sorted(n for n, m in vars(sys.modules.get('replay.corpus.models', sys)).items() "
              "if isinstance(m, type) and issubclass(m, sys.modules['pydantic'].BaseModel) and m.__pydantic_complete__)}")
    code = _run_cli(["validate", str(LOG)], report)
    cold = _python(code, tmp_path)
    assert "valid (zwarta-kolumna" in cold.stdout, cold.stderr
    assert _report(cold)["built"], "the first run validates the corpus"  # type: ignore[index]
    warm = _python(code, tmp_path)
    assert "valid (zwarta-kolumna" in warm.stdout, warm.stderr
    assert _report(warm) == {"heavy": [], "built": []}
    # a log that leaves a ruling out is told the reading applied and its history from the same cached edition
    old = json.loads(OLD_LOG.read_bytes())
    del old["rulings"]["base-timing"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    older = _python(_run_cli(["validate", str(path)], report), tmp_path)
    assert "base-timing=on-dealing (a ruling since 0.1.0" in older.stdout, older.stderr
    assert _report(older) == {"heavy": [], "built": []}


def _same(u: object, v: object, where: str) -> None:
    """``u`` and ``v`` are equal, of the same types all the way down, with the same fields set."""
    assert type(u) is type(v), (where, type(u), type(v))
    if isinstance(u, BaseModel):
        assert u.model_fields_set == v.model_fields_set, where  # type: ignore[attr-defined]
        for k in type(u).model_fields:
            _same(getattr(u, k), getattr(v, k), f"{where}.{k}")
    elif isinstance(u, (list, tuple)):
        assert len(u) == len(v), where  # type: ignore[arg-type]
        for i, (x, y) in enumerate(zip(u, v)):  # type: ignore[call-overload]
            _same(x, y, f"{where}[{i}]")
    elif isinstance(u, dict):
        assert list(u) == list(v), where  # type: ignore[call-overload]
        for k in u:
            _same(u[k], v[k], f"{where}[{k}]")  # type: ignore[index]
    else:
        assert u == v, where


@pytest.fixture
def counted(monkeypatch, tmp_path):
    """The loader with its cache in ``tmp_path``, counting the models built from a trusted cache."""
    from replay.corpus import loader

    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path / "cache"))
    built: list[str] = []
    original = loader.construct

    def construct(model, data):  # type: ignore[no-untyped-def]
        built.append(model.__name__)
        return original(model, data)

    monkeypatch.setattr(loader, "construct", construct)
    return loader, built


def test_a_trusted_cache_builds_the_same_corpus_as_validation(counted):
    loader, built = counted
    validated = loader.load()
    assert built == []
    trusted = loader.load()
    assert {"Text", "ClausesFile", "AmbiguitiesFile", "LayoutSpec", "Clause", "Ambiguity"} <= set(built)
    for f in dataclasses.fields(validated):
        _same(getattr(validated, f.name), getattr(trusted, f.name), f.name)


def test_an_edited_cache_entry_or_other_code_is_validated_again(counted, monkeypatch):
    loader, built = counted
    loader.load()
    layout = sorted((loader.corpus_dir() / "layouts").glob("*.yaml"))[0]
    key = hashlib.sha256(loader.CACHE_FORMAT + layout.read_bytes()).hexdigest()
    entry = Path(os.environ["REPLAY_CACHE_DIR"]) / "corpus" / f"{key}.json"
    data = json.loads(entry.read_text(encoding="utf-8"))

    monkeypatch.setattr(loader, "_code_version", lambda: b"other models")
    loader.load_model(layout, loader.LayoutSpec)
    assert "LayoutSpec" not in built  # a mark made by other code is not this code's
    monkeypatch.undo()
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(entry.parents[1]))

    entry.write_text(json.dumps({**data, "unknown_key": 1}), encoding="utf-8")
    with pytest.raises(loader.CorpusError, match="unknown_key"):
        loader.load_model(layout, loader.LayoutSpec)


def test_the_registry_finds_the_lines_inspect_finds_without_reading_the_source():
    import inspect

    from replay.engine.registry import implementations
    from replay.games import catalog

    catalog()
    found = implementations()
    assert len(found) > 40
    for name, imp in found.items():
        module, _, qualname = name.partition(".games.")
        obj: object = sys.modules[f"{module}.games.{qualname.split('.')[0]}"]
        for part in qualname.split(".")[1:]:
            obj = getattr(obj, part)
        lines, start = inspect.getsourcelines(obj)  # type: ignore[arg-type]
        assert (imp.line, imp.end_line) == (start, start + len(lines) - 1), name


def test_the_files_hash_walks_the_tree_as_pathlib_does(tmp_path):
    """The corpus's hash (the key of the cached edition, computed at every start) takes the files ``rglob``
    finds, in the order ``sorted`` gives their paths: names that sort otherwise as strings than as parts,
    hidden files, a symbolic link to a file (taken) and to a directory (not entered)."""
    import os

    from replay.corpus.files import corpus_dir, files_hash

    def by_pathlib(root: Path, salt: bytes = b"") -> str:
        h = hashlib.sha256(salt)
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            data = path.read_bytes()
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + len(data).to_bytes(8, "little") + data)
        return h.hexdigest()

    for rel in ("a/b", "a-c", "a.d", "a/b2/c", "A", "é", ".hidden/x", "z/.y", "a b/c"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(rel.encode())
    os.symlink(tmp_path / "a", tmp_path / "linked-dir")
    os.symlink(tmp_path / "a-c", tmp_path / "linked-file")
    os.symlink(tmp_path / "nowhere", tmp_path / "broken")
    assert files_hash(tmp_path, b"salt") == by_pathlib(tmp_path, b"salt")
    assert files_hash(corpus_dir()) == by_pathlib(corpus_dir())
    (tmp_path / "a" / "b").write_bytes(b"changed")
    assert files_hash(tmp_path) == by_pathlib(tmp_path) != by_pathlib(tmp_path, b"salt")


def test_the_table_of_commands_is_what_each_module_adds():
    """``replay.cli.root.COMMANDS`` names, per module, the commands its ``register(app)`` adds, in order (the app
    imports a command's module by it); every command is listed once, and the app lists them all."""
    import importlib

    import typer
    import typer.main

    from replay.cli.root import COMMANDS, app

    for module, names in COMMANDS.items():
        area = typer.Typer()
        importlib.import_module(module).register(area)
        added = [c.name for c in area.registered_commands] + [g.name for g in area.registered_groups]
        assert tuple(added) == names, module
    listed = [n for names in COMMANDS.values() for n in names]
    assert len(set(listed)) == len(listed)
    assert list(typer.main.get_command(app).commands) == listed  # type: ignore[attr-defined]
