"""Which tests show which clauses: a static index of ``@pytest.mark.clause(...)`` tags.

A test shows a clause by carrying the ``clause`` marker with the clause's ID::

    clause = pytest.mark.clause

    @clause("zk-8", "zk-7")
    def test_side_piles_play_only_to_their_row(zk): ...

The index is built from the test files' syntax trees, without importing or running them,
so the site and ``replay trace`` can read it cheaply.  Recognised forms:

* ``@pytest.mark.clause("id", …)`` on a test function, a test method or a test class
  (a class's marks apply to every test in it, nested classes included);
* the same through an alias: ``clause = pytest.mark.clause``, ``from pytest import mark``
  (``@mark.clause``), ``import pytest as pt`` (``@pt.mark.clause``), ``m = pytest.mark``
  (``@m.clause``), and chains of such assignments;
* ``pytestmark = <mark>`` or ``pytestmark = [<mark>, …]`` at module level (every test of
  the file) or in a class body (every test of the class);
* ``pytest.param(…, marks=<mark or list>)`` inside ``parametrize`` (the test it parametrizes);
* IDs given as string literals, as ``*("a", "b")`` / ``*["a", "b"]``, or as names of
  module-level string (or tuple/list of strings) constants.

Anything else (IDs computed at run time) is not seen; write the IDs out.  Files that do not
parse are reported by :func:`unreadable` and otherwise skipped.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

MARKER = "clause"
#: the shape of a clause ID (``zk-8``); the corpus's own pattern is stricter
CLAUSE_ID = re.compile(r"^[a-z]+-[0-9]+$")


@dataclass(frozen=True, order=True)
class TestRef:
    """One test: ``name`` as pytest shows it after ``::`` (``test_x`` or ``TestY::test_x``)."""

    __test__ = False  # not a pytest test class

    name: str
    file: str  #: path relative to the scanned root's project (posix separators)
    line: int  #: line of the ``def``

    @property
    def nodeid(self) -> str:
        return f"{self.file}::{self.name}"


# ----------------------------------------------------------------------------- files


def _test_dir(root: Path) -> tuple[Path, Path]:
    """(directory to scan, base for relative paths).  ``root`` is a project root or a tests directory."""
    root = Path(root)
    if root.is_file():
        return root, root.parent
    if (root / "tests").is_dir():
        return root / "tests", root
    return root, root.parent


def find_test_files(root: Path | str) -> list[Path]:
    """The files pytest would collect by default: ``test_*.py`` and ``*_test.py``."""
    scan, _ = _test_dir(Path(root))
    if scan.is_file():
        return [scan]
    found = {p for pat in ("test_*.py", "*_test.py") for p in scan.rglob(pat)}
    return sorted(p for p in found if not any(part.startswith(".") for part in p.relative_to(scan).parts))


def unreadable(root: Path | str) -> list[Path]:
    """Test files that could not be read or parsed (and are therefore missing from the index)."""
    out = []
    for path in find_test_files(root):
        try:
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            out.append(path)
    return out


# ----------------------------------------------------------------------------- one module


class _Module:
    """Resolves marker expressions and constants in one parsed test module."""

    def __init__(self, tree: ast.Module, resolve: Callable[[str], _Module | None] | None = None) -> None:
        self.pytest_names: set[str] = set()  #: names bound to the pytest module
        self.mark_names: set[str] = set()  #: names bound to pytest.mark
        self.clause_names: set[str] = set()  #: names bound to pytest.mark.clause
        self.constants: dict[str, tuple[str, ...]] = {}
        for node in tree.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "pytest":
                        self.pytest_names.add(a.asname or "pytest")
            elif isinstance(node, ast.ImportFrom) and node.module in ("pytest", "_pytest.mark"):
                for a in node.names:
                    if a.name == "mark":
                        self.mark_names.add(a.asname or "mark")
            elif isinstance(node, ast.ImportFrom) and node.module and resolve is not None:
                # an alias imported from a helper module of the same tree (e.g. ``from tests.conftest import clause``)
                other = resolve(node.module)
                if other is None:
                    continue
                for a in node.names:
                    local = a.asname or a.name
                    if a.name in other.clause_names:
                        self.clause_names.add(local)
                    elif a.name in other.mark_names:
                        self.mark_names.add(local)
                    elif a.name in other.pytest_names:
                        self.pytest_names.add(local)
                    elif a.name in other.constants:
                        self.constants[local] = other.constants[a.name]
        # aliases may be chained (m = pytest.mark; clause = m.clause): iterate to a fixed point
        changed = True
        while changed:
            changed = False
            for node in tree.body:
                targets, value = _assignment(node)
                if value is None:
                    continue
                for name in targets:
                    if self._is_pytest(value) and name not in self.pytest_names:
                        self.pytest_names.add(name)
                        changed = True
                    elif self._is_mark(value) and name not in self.mark_names:
                        self.mark_names.add(name)
                        changed = True
                    elif self._is_clause(value) and name not in self.clause_names:
                        self.clause_names.add(name)
                        changed = True
        for node in tree.body:
            targets, value = _assignment(node)
            if value is not None:
                ids = self._literal_ids(value)
                if ids is not None:
                    for name in targets:
                        self.constants[name] = ids

    # -- what an expression denotes

    def _is_pytest(self, e: ast.expr) -> bool:
        return isinstance(e, ast.Name) and e.id in self.pytest_names

    def _is_mark(self, e: ast.expr) -> bool:
        if isinstance(e, ast.Name):
            return e.id in self.mark_names
        return isinstance(e, ast.Attribute) and e.attr == "mark" and self._is_pytest(e.value)

    def _is_clause(self, e: ast.expr) -> bool:
        if isinstance(e, ast.Name):
            return e.id in self.clause_names
        return isinstance(e, ast.Attribute) and e.attr == MARKER and self._is_mark(e.value)

    @staticmethod
    def _literal_ids(e: ast.expr) -> tuple[str, ...] | None:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            return (e.value,)
        if isinstance(e, (ast.Tuple, ast.List)) and e.elts and all(
                isinstance(x, ast.Constant) and isinstance(x.value, str) for x in e.elts):
            return tuple(x.value for x in e.elts)  # type: ignore[attr-defined]
        return None

    def _ids(self, args: Iterable[ast.expr]) -> list[str]:
        out: list[str] = []
        for a in args:
            inner = a.value if isinstance(a, ast.Starred) else a
            lit = self._literal_ids(inner)
            if lit is None and isinstance(inner, ast.Name):
                lit = self.constants.get(inner.id)
            if lit is not None:
                out.extend(lit)
        return out

    def marks(self, e: ast.expr) -> list[str]:
        """Clause IDs carried by a decorator / ``pytestmark`` / ``marks=`` expression."""
        if isinstance(e, (ast.List, ast.Tuple)):
            return [c for x in e.elts for c in self.marks(x)]
        if isinstance(e, ast.Call):
            if self._is_clause(e.func):
                return self._ids(e.args)
            # .with_args("id") on the marker
            if (isinstance(e.func, ast.Attribute) and e.func.attr == "with_args"
                    and self._is_clause(e.func.value)):
                return self._ids(e.args)
        return []

    def param_marks(self, decorator: ast.expr) -> list[str]:
        """Clause IDs in ``pytest.param(..., marks=...)`` inside a ``parametrize`` decorator."""
        out: list[str] = []
        if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "parametrize" and self._is_mark(decorator.func.value)):
            return out
        for node in ast.walk(decorator):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "param"
                    and self._is_pytest(node.func.value)):
                for kw in node.keywords:
                    if kw.arg == "marks":
                        out.extend(self.marks(kw.value))
        return out


def _assignment(node: ast.stmt) -> tuple[list[str], ast.expr | None]:
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)], node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return [node.target.id], node.value
    return [], None


def _pytestmark(mod: _Module, body: list[ast.stmt]) -> list[str]:
    out: list[str] = []
    for node in body:
        targets, value = _assignment(node)
        if value is not None and "pytestmark" in targets:
            out.extend(mod.marks(value))
    return out


def _walk_tests(mod: _Module, body: list[ast.stmt], prefix: str, inherited: list[str]
                ) -> Iterator[tuple[str, int, list[str]]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            ids = list(inherited)
            for d in node.decorator_list:
                ids.extend(mod.marks(d))
                ids.extend(mod.param_marks(d))
            yield prefix + node.name, node.lineno, ids
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            ids = list(inherited)
            for d in node.decorator_list:
                ids.extend(mod.marks(d))
            ids.extend(_pytestmark(mod, node.body))
            yield from _walk_tests(mod, node.body, f"{prefix}{node.name}::", ids)


def scan_source(source: str, file: str = "<test>", resolve: Callable[[str], _Module | None] | None = None
                ) -> list[tuple[TestRef, tuple[str, ...]]]:
    """Every test of one module's source with the clause IDs it is tagged with (possibly none).

    ``resolve`` maps a dotted module name to its parsed helpers (for aliases imported from them).
    """
    tree = ast.parse(source, filename=file)
    mod = _Module(tree, resolve)
    module_marks = _pytestmark(mod, tree.body)
    out = []
    for name, line, ids in _walk_tests(mod, tree.body, "", module_marks):
        out.append((TestRef(name, file, line), tuple(dict.fromkeys(ids))))
    return out


# ----------------------------------------------------------------------------- the index


def _resolver(scan: Path, base: Path, read: dict[str, tuple[str, str]] | None = None
              ) -> Callable[[str], _Module | None]:
    """Find and parse helper modules named in ``from X import …`` (relative to the project or the tests);
    ``read`` records what was found at every file looked for (:func:`_seen`)."""
    cache: dict[str, _Module | None] = {}

    def resolve(name: str) -> _Module | None:
        if name in cache:
            return cache[name]
        cache[name] = None  # guards against import cycles
        rel = Path(*name.split("."))
        for where in (base, scan if scan.is_dir() else scan.parent):
            for cand in (where / rel.with_suffix(".py"), where / rel / "__init__.py"):
                seen = _seen(cand)
                if read is not None:
                    read[str(cand)] = seen
                if seen[0] != "missing":
                    try:
                        cache[name] = _Module(ast.parse(seen[1]), resolve) if seen[0] == "text" else None
                    except SyntaxError:
                        pass
                    return cache[name]
        return None

    return resolve


def _seen(path: Path) -> tuple[str, str]:
    """What a scan finds at ``path``: ("text", its text), ("unreadable", "") or ("missing", "")."""
    if not path.is_file():
        return ("missing", "")
    try:
        return ("text", path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, OSError):
        return ("unreadable", "")


#: root -> (the test files, what the scan found at every file it read or looked for, the tests found): a scan
#: is made again only when one of those files reads otherwise, or has come or gone
_SCANS: dict[str, tuple[list[Path], dict[str, tuple[str, str]], list[tuple[TestRef, tuple[str, ...]]]]] = {}


def all_tests(root: Path | str) -> list[tuple[TestRef, tuple[str, ...]]]:
    """Every test found under ``root`` with its clause IDs (tagged or not), in file and line order.

    The result depends only on the files the scan read (the test files, and the helper modules their
    imports name, found or not): it is kept with what was read and given again while every one of them
    reads the same (reading is a small part of parsing; the syntax trees are not kept, which would burden
    the garbage collector of a long process).  tests/test_testindex.py
    (``test_a_scan_kept_from_before_follows_every_change_of_what_it_read``) holds the kept index to a scan
    made afresh through every kind of change.
    """
    scan, base = _test_dir(Path(root))
    files = find_test_files(root)
    key = str(Path(root).resolve())
    kept = _SCANS.get(key)
    if kept is not None and kept[0] == files and all(_seen(Path(f)) == was for f, was in kept[1].items()):
        return list(kept[2])
    read: dict[str, tuple[str, str]] = {}
    resolve = _resolver(scan, base, read)
    out = []
    for path in files:
        seen = read[str(path)] = _seen(path)
        if seen[0] != "text":
            continue
        try:
            rel = path.resolve().relative_to(base.resolve()).as_posix()
            out.extend(scan_source(seen[1], rel, resolve))
        except (SyntaxError, OSError):
            continue
    _SCANS[key] = (files, read, out)
    return list(out)


def tagged_tests(root: Path | str) -> dict[str, list[TestRef]]:
    """Clause ID -> the tests tagged with it, in file and line order.

    ``root`` is the project root (its ``tests`` directory is scanned) or a directory or file
    of tests.  File names in the result are relative to the project root.
    """
    out: dict[str, list[TestRef]] = {}
    for ref, ids in all_tests(root):
        for cid in ids:
            out.setdefault(cid, []).append(ref)
    for refs in out.values():
        refs.sort(key=lambda r: (r.file, r.line))
    return dict(sorted(out.items()))


def excuse_checks(root: Path | str) -> dict[str, list[TestRef]]:
    """Clause ID -> tests that look the clause up in the registry's excuses.

    A test counts when its body calls ``excuses()`` (under any module prefix) and names the
    clause ID as a string literal (``excuses()["ns-3"]``); an excused clause is shown by
    asserting its excuse.
    """
    _, base = _test_dir(Path(root))
    out: dict[str, list[TestRef]] = {}
    for path in find_test_files(root):
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source, filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        rel = path.resolve().relative_to(base.resolve()).as_posix()
        for fn, prefix in _functions(tree.body, ""):
            calls = any(isinstance(n, ast.Call) and _callee(n.func) == "excuses" for n in ast.walk(fn))
            if not calls:
                continue
            strings = {n.value for n in ast.walk(fn)
                       if isinstance(n, ast.Constant) and isinstance(n.value, str) and CLAUSE_ID.match(n.value)}
            for s in strings:
                out.setdefault(s, []).append(TestRef(prefix + fn.name, rel, fn.lineno))
    return dict(sorted(out.items()))


def _functions(body: list[ast.stmt], prefix: str) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, prefix
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from _functions(node.body, f"{prefix}{node.name}::")


def _callee(e: ast.expr) -> str | None:
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return e.attr
    return None




# ----------------------------------------------------------------------------- the shipped index

#: the project root of a checkout (``tests/`` and ``data/`` beside ``replay/``)
PROJECT = Path(__file__).resolve().parents[2]
#: the generated index, committed like ``data/coverage.json``; the wheel carries it as ``replay/_data/``
INDEX = PROJECT / "data" / "testindex.json"
INSTALLED_INDEX = Path(__file__).resolve().parents[1] / "_data" / "testindex.json"
INDEX_FORMAT = "replay-testindex/1"


def index_json(root: Path | str = PROJECT) -> str:
    """The index of ``root``'s tests as the committed file holds it: clause ID -> pytest node IDs.

    Line numbers are left out so that editing a test does not change the file; only a change in
    which tests carry which tags does.
    """
    import json

    tests = {cid: [r.nodeid for r in refs] for cid, refs in tagged_tests(root).items()}
    return json.dumps({"format": INDEX_FORMAT, "tests": tests}, indent=1, ensure_ascii=False) + "\n"


def read_index(path: Path) -> dict[str, list[TestRef]] | None:
    """The index in ``path`` (as :func:`index_json` writes it), or None when it is missing or not one."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT or not isinstance(data.get("tests"), dict):
        return None
    out: dict[str, list[TestRef]] = {}
    for cid, nodeids in data["tests"].items():
        refs = []
        for nodeid in nodeids:
            file, _, name = str(nodeid).partition("::")
            refs.append(TestRef(name=name, file=file, line=0))  # line 0: not recorded
        out[str(cid)] = refs
    return out


#: where the clause tags came from: the test files, the shipped index, or nowhere
FROM_TESTS, FROM_INDEX, FROM_NOWHERE = "tests", "index", "none"


def is_checkout(root: Path | str) -> bool:
    """Whether ``root`` is a checkout of this project (its ``pyproject.toml`` names the distribution and a
    ``tests`` directory lies beside it).  An installed copy's root is ``site-packages``, whose other
    packages' test files are not ours (a sloppy distribution may even install a ``tests`` package there)."""
    root = Path(root)
    try:
        project = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return (root / "tests").is_dir() and re.search(r'(?m)^name\s*=\s*"patience-replay"', project) is not None


def clause_tests(root: Path | str = PROJECT) -> tuple[dict[str, list[TestRef]], str]:
    """(clause ID -> tagged tests, where they came from).

    From the test files when ``root`` has them (a checkout); else from the index shipped with the
    package (an installed wheel carries no tests); else nothing, and the caller must say so.
    """
    if is_checkout(root) and find_test_files(root):
        return tagged_tests(root), FROM_TESTS
    for path in (INSTALLED_INDEX, INDEX):
        index = read_index(path)
        if index is not None:
            return index, FROM_INDEX
    return {}, FROM_NOWHERE


def source_note(source: str) -> str | None:
    """A line telling a user of an installed copy where the test tags come from (None in a checkout)."""
    if source == FROM_INDEX:
        return ("the tests are not installed: the tests tagged with each clause are read from the index "
                "shipped with the package (node IDs, without line numbers)")
    if source == FROM_NOWHERE:
        return ("the tests are not installed and this copy carries no test index: "
                "no clause can be shown as tested")
    return None


__all__ = ["TestRef", "tagged_tests", "excuse_checks", "all_tests", "scan_source", "find_test_files", "unreadable",
           "clause_tests", "index_json", "read_index", "source_note", "is_checkout"]
