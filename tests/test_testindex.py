"""The test index (replay.trace.testindex) and the rule it serves: every normative clause has a test."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from replay.corpus.loader import default_corpus
from replay.corpus.models import NORMATIVE_KINDS
from replay.engine.registry import excuses
from replay.games import catalog
from replay.trace.testindex import TestRef, all_tests, excuse_checks, scan_source, tagged_tests, unreadable

ROOT = Path(__file__).resolve().parents[1]


def ids_of(source: str) -> dict[str, tuple[str, ...]]:
    return {ref.name: ids for ref, ids in scan_source(textwrap.dedent(source))}


# ----------------------------------------------------------------------------- the scanner


def test_direct_marks_and_an_alias():
    found = ids_of('''
        import pytest
        clause = pytest.mark.clause

        @pytest.mark.clause("zk-1", "zk-2")
        def test_a(): ...

        @clause("zk-3")
        def test_b(): ...

        @pytest.mark.slow
        def test_c(): ...

        def helper(): ...
    ''')
    assert found == {"test_a": ("zk-1", "zk-2"), "test_b": ("zk-3",), "test_c": ()}


def test_other_spellings_of_the_marker():
    found = ids_of('''
        import pytest as pt
        from pytest import mark
        from pytest import mark as mk
        m = pt.mark
        c = m.clause
        cc = c
        IDS = ("ns-1", "ns-2")
        ONE = "ns-9"

        @pt.mark.clause("ns-3")
        def test_a(): ...

        @mark.clause("ns-4")
        def test_b(): ...

        @mk.clause("ns-5")
        @m.clause("ns-6")
        def test_c(): ...

        @cc(*IDS)
        def test_d(): ...

        @c(ONE, *["ns-10"])
        async def test_e(): ...

        @c.with_args("ns-11")
        def test_f(): ...
    ''')
    assert found == {"test_a": ("ns-3",), "test_b": ("ns-4",), "test_c": ("ns-5", "ns-6"),
                     "test_d": ("ns-1", "ns-2"), "test_e": ("ns-9", "ns-10"), "test_f": ("ns-11",)}


def test_classes_module_marks_and_params():
    found = ids_of('''
        import pytest
        clause = pytest.mark.clause
        pytestmark = [pytest.mark.clause("ex-1"), pytest.mark.slow]

        @clause("ex-2")
        class TestChain:
            pytestmark = clause("ex-3")

            @clause("ex-4")
            def test_x(self): ...

            class TestInner:
                def test_y(self): ...

            def not_a_test(self): ...

        class Helper:
            def test_z(self): ...

        @pytest.mark.parametrize("n", [1, pytest.param(2, marks=clause("ex-5")), pytest.param(3, marks=[clause("ex-6")])])
        def test_p(n): ...
    ''')
    assert found == {
        "TestChain::test_x": ("ex-1", "ex-2", "ex-3", "ex-4"),
        "TestChain::TestInner::test_y": ("ex-1", "ex-2", "ex-3"),
        "test_p": ("ex-1", "ex-5", "ex-6"),
    }


def test_unrelated_calls_named_clause_are_not_marks():
    found = ids_of('''
        def clause(*a): return lambda f: f

        @clause("zk-1")
        def test_a(): ...
    ''')
    assert found == {"test_a": ()}


def test_index_of_a_directory_with_imported_aliases_and_a_broken_file(tmp_path):
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "conftest.py").write_text("import pytest\nclause = pytest.mark.clause\nGROUP = ('pf-8', 'pf-9')\n")
    (tests / "test_one.py").write_text(textwrap.dedent('''
        from tests.conftest import clause, GROUP

        @clause("pf-2")
        def test_a(): ...

        @clause(*GROUP)
        def test_b(): ...
    '''))
    (tests / "sub" / "test_two.py").write_text(textwrap.dedent('''
        from conftest import clause as c
        import pytest

        @c("pf-2")
        def test_c(): ...

        def test_excuse():
            from replay.engine.registry import excuses
            assert excuses()["pf-7"].reason
    '''))
    (tests / "test_broken.py").write_text("def test_(:\n")
    (tests / "helper.py").write_text("import pytest\n@pytest.mark.clause('pf-1')\ndef test_not_collected(): ...\n")
    index = tagged_tests(tmp_path)
    assert index == {
        "pf-2": [TestRef("test_c", "tests/sub/test_two.py", 6), TestRef("test_a", "tests/test_one.py", 5)],
        "pf-8": [TestRef("test_b", "tests/test_one.py", 8)],
        "pf-9": [TestRef("test_b", "tests/test_one.py", 8)],
    }
    assert tagged_tests(tests) == index  # the tests directory itself gives the same index
    assert index["pf-2"][1].nodeid == "tests/test_one.py::test_a"
    assert unreadable(tmp_path) == [tests / "test_broken.py"]
    assert excuse_checks(tmp_path) == {"pf-7": [TestRef("test_excuse", "tests/sub/test_two.py", 8)]}
    assert len(all_tests(tmp_path)) == 4


def test_a_scan_kept_from_before_follows_every_change_of_what_it_read(tmp_path):
    """The index is kept per process while the files it read read the same: a test file changed (to the same
    size), a helper that gives the marker changed, a helper that comes where none was, a test file that
    comes or goes: each gives the index of the files as they are now."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "marks.py").write_text("import pytest\nclause = pytest.mark.clause\n")
    one = tests / "test_one.py"
    one.write_text("from tests.marks import clause\n@clause('pf-2')\ndef test_a(): ...\n")
    assert tagged_tests(tmp_path) == {"pf-2": [TestRef("test_a", "tests/test_one.py", 3)]}
    assert tagged_tests(tmp_path) == {"pf-2": [TestRef("test_a", "tests/test_one.py", 3)]}  # as kept
    one.write_text("from tests.marks import clause\n@clause('pf-3')\ndef test_a(): ...\n")  # the same size
    assert tagged_tests(tmp_path) == {"pf-3": [TestRef("test_a", "tests/test_one.py", 3)]}
    (tests / "marks.py").write_text("import pytest\nclause = pytest.mark.other\n")  # no longer the marker
    assert tagged_tests(tmp_path) == {}
    (tests / "marks.py").unlink()
    (tests / "marks").mkdir()  # the helper comes back as a package
    (tests / "marks" / "__init__.py").write_text("import pytest\nclause = pytest.mark.clause\n")
    assert tagged_tests(tmp_path) == {"pf-3": [TestRef("test_a", "tests/test_one.py", 3)]}
    (tests / "test_two.py").write_text("import pytest\n@pytest.mark.clause('pf-4')\ndef test_b(): ...\n")
    assert set(tagged_tests(tmp_path)) == {"pf-3", "pf-4"}
    one.unlink()
    assert tagged_tests(tmp_path) == {"pf-4": [TestRef("test_b", "tests/test_two.py", 3)]}


# ----------------------------------------------------------------------------- the project's tests


def test_the_project_test_files_all_parse():
    assert unreadable(ROOT) == []


def test_every_normative_clause_has_a_tagged_test_or_an_asserted_excuse():
    catalog()  # registers the excuses
    corpus = default_corpus()
    index = tagged_tests(ROOT)
    asserted = excuse_checks(ROOT)
    excused = excuses()
    missing, unasserted = [], []
    for cid, cl in corpus.clauses.items():
        if cl.kind not in NORMATIVE_KINDS:
            continue
        if cid in excused:
            if cid not in asserted:
                unasserted.append(cid)
        elif cid not in index:
            missing.append(cid)
    assert not missing, f"normative clauses without a test tagged @pytest.mark.clause: {missing}"
    assert not unasserted, f"excused clauses whose excuse no test asserts: {unasserted}"


def test_every_tag_names_a_clause_of_the_corpus():
    corpus = default_corpus()
    unknown = {cid: [r.nodeid for r in refs] for cid, refs in tagged_tests(ROOT).items() if cid not in corpus.clauses}
    assert not unknown


@pytest.mark.parametrize("game", ["zwarta-kolumna", "napoleons-square", "exiles"])
def test_each_game_file_tags_only_its_own_game(game):
    corpus = default_corpus()
    name = f"tests/test_game_{game.replace('-', '_')}.py"
    for ref, ids in all_tests(ROOT):
        if ref.file == name:
            assert {corpus.clauses[c].game for c in ids} <= {game}, ref.nodeid
