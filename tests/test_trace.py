"""`replay trace` and `replay coverage`: from a sentence to its code and back, and the compliance report."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.corpus.loader import default_corpus
from replay.trace.core import trace
from replay.trace.coverage import SNAPSHOT, coverage_report, problems, report_json
from replay.trace.normalize import fold

runner = CliRunner()


def best(query: str) -> str:
    result = trace(query)
    assert result.kind in ("clause", "phrase"), (query, result)
    return result.hits[0].clause


def test_fold_makes_the_three_russian_spellings_meet():
    assert fold("двђнадцать") == fold("двѣнадцать") == fold("двенадцать")
    assert fold("основаніе") == fold("основание")
    assert fold("изъ колоды") == fold("из колоды")
    assert fold("  Kąty, „kątowe”!") == fold("katy katowe")


@pytest.mark.parametrize("query", ["zk-8", "ZK-8", " zk 8 ", "zk_8"])
def test_a_clause_id_in_any_form(query):
    assert trace(query).kind == "clause" and best(query) == "zk-8"


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        ("Dwójkę kier z dolnego rzędu", "pf-12"),
        ("dwojke KIER, z dolnego rzedu", "pf-12"),  # no diacritics, other case and punctuation
        ("Zwolnionych miejsc nie uzupełniamy", "zk-9"),
        ("Тузы служатъ основными картами", "ns-8"),  # pre-1918, as printed
        ("раскладываютъ двђнадцать пачекъ", "ns-7"),  # with the OCR damage
        ("раскладываютъ двѣнадцать пачекъ", "ns-7"),  # yat restored
        ("раскладывают двенадцать пачек", "ns-7"),  # modern spelling
        ("на основания следуют масти", "ns-6"),
        ("такая карта кладется в сторону фигурой вниз", "ex-2"),
    ],
)
def test_a_phrase_finds_its_clause_in_every_spelling(query, clause):
    assert best(query) == clause


def test_an_english_phrase_finds_its_clause():
    corpus = default_corpus()
    words = " ".join(corpus.clauses["zk-9"].translation.split()[:5])
    assert best(words.upper() + " !!") == "zk-9"


def test_several_good_matches_are_all_listed():
    result = trace("Pasjans wyszedł, jeśli trzech rozłożeń talii wystarczy")
    assert {h.clause for h in result.hits} >= {"pf-20", "zk-16"}


def test_a_slightly_misspelt_phrase_still_matches():
    assert best("Zwolnionych miejsc nie uzupelnimy") == "zk-9"


def test_no_match_says_so_and_suggests_the_nearest():
    result = runner.invoke(app, ["trace", "xylophone quartz zebra", "--no-examples"])
    assert result.exit_code == 1
    assert "nothing matches" in result.output and "nearest" in result.output


def test_a_function_name_prints_the_clauses_it_implements():
    result = runner.invoke(app, ["trace", "zwarta_kolumna.freed_places_are_not_refilled", "--no-examples"])
    assert result.exit_code == 0, result.output
    assert "zk-9" in result.output and "Zwolnionych miejsc nie uzupełniamy." in result.output
    assert "replay/games/zwarta_kolumna.py:" in result.output


def test_clause_report_shows_code_tests_and_ambiguities():
    result = runner.invoke(app, ["trace", "zk-8", "--no-examples"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "z innych pozycji tylko na karty z tego poziomego rzędu" in out
    assert "amb-zk-reach" in out and "side-reach" in out
    assert "replay.games.zwarta_kolumna." in out and "tests/test_game_zwarta_kolumna.py:" in out


def test_json_output_is_machine_readable():
    result = runner.invoke(app, ["trace", "ns-4", "--format", "json", "--no-examples"])
    data = json.loads(result.output)
    rec = data["clauses"][0]
    assert rec["id"] == "ns-4" and rec["implemented_by"] and rec["translation"]
    assert {"path", "line", "function"} <= set(rec["implemented_by"][0])


def test_an_empty_query_is_a_usage_error():
    assert runner.invoke(app, ["trace", "  "]).exit_code == 2


# ----------------------------------------------------------------------------- coverage


def test_coverage_has_no_missing_clause_and_no_dangling_reference():
    report = coverage_report()
    assert problems(report) == []
    status = {c["clause"]: c["status"] for c in report["clauses"]}
    assert status["ns-12"] == "not-applicable" and status["pf-23"] == "not-applicable"
    assert status["ns-3"] == "excused"
    assert status["zk-8"] == "implemented-and-tested"


def test_coverage_snapshot_is_committed_and_current():
    assert SNAPSHOT.exists(), "run `replay coverage --update` and commit data/coverage.json"
    assert SNAPSHOT.read_text(encoding="utf-8") == report_json(coverage_report()), (
        "the coverage report changed: review it, then run `replay coverage --update` and commit data/coverage.json")


def test_a_dangling_reference_fails_the_report(monkeypatch):
    from replay.engine import registry

    fake = registry.Implementation("replay.games.fake.rule", ("zk-99",), "rule", "replay/games/fake.py", 1, 2, "x")
    monkeypatch.setitem(registry._REGISTRY, fake.name, fake)
    report = coverage_report()
    assert any("zk-99" in p for p in problems(report))
    result = runner.invoke(app, ["coverage"])
    assert result.exit_code == 1


def test_coverage_command_prints_text_and_json():
    text = runner.invoke(app, ["coverage"])
    assert text.exit_code == 0 and "implemented-and-tested" in text.output
    js = runner.invoke(app, ["coverage", "--format", "json"])
    assert json.loads(js.output)["summary"]["missing"] == 0


def test_trace_lists_the_example_logs_that_touch_a_clause():
    from replay.trace.examples import examples_touching

    touching = examples_touching()
    assert any("zwarta-kolumna" in p for p in touching.get("zk-9", []))
    assert not any("zwarta-kolumna" in p for p in touching.get("pf-10", []))
    result = runner.invoke(app, ["trace", "zk-9", "--format", "json"])
    assert json.loads(result.output)["clauses"][0]["example_logs"]


# ----------------------------------------------------------------------------- from the English witness


QUOTE = "whether they fall on the corner or on the side packets"


def test_cadogans_words_find_the_clause_through_its_witness_passage():
    """A reader holding Cadogan's book finds the clause from her words: the phrase stands in the witness passage
    aligned to zk-22 (the whole passage) and to zk-19 (part of a longer one), in no layer of either clause."""
    result = trace(QUOTE)
    assert result.kind == "phrase"
    assert [h.clause for h in result.hits] == ["zk-22", "zk-19"]
    top = result.hits[0]
    assert top.layer == "witness" and top.exact and top.passage is not None
    corpus = default_corpus()
    witness, n = top.passage
    assert QUOTE in corpus.witnesses[witness].passages[n].quote and corpus.witnesses[witness].passages[n].clause == "zk-22"
    # a query nearly quoting her (a word dropped, a plural lost) still finds the passage; Cadogan's words shared
    # by chance with a long passage do not
    assert {h.clause for h in trace("whether they fall on the corner or the side packet").hits} == {"zk-19", "zk-22"}
    assert trace("the top card of a pile is playable").kind == "none"


def test_the_answer_shows_the_clause_with_its_witness_passage():
    from replay.trace.core import clause_record, match_record, witness_lines

    doc = json.loads(runner.invoke(app, ["trace", QUOTE, "--format", "json", "--no-examples"]).stdout)
    assert doc["kind"] == "phrase" and doc["clauses"][0]["id"] == "zk-22"
    rec = doc["clauses"][0]
    assert rec["match"]["layer"] == "witness" and rec["match"]["witness"] == "cadogan-four-corners"
    assert doc["clauses"][0]["witnesses"][0]["passage"] == rec["match"]["passage"]
    assert [w["quote"] for w in rec["witnesses"]] == [QUOTE]
    assert rec["witnesses"][0]["witness"] == "cadogan-four-corners" and rec["witnesses"][0]["part"] == "Play"
    assert "niezależnie od miejsca" in rec["witnesses"][0]["departs"]
    text = runner.invoke(app, ["trace", QUOTE, "--no-examples"])
    assert text.exit_code == 0 and "zk-22" in text.stdout and "phrase found in the witness" in text.stdout
    # the text answer shows each clause with the passage the query matched, marked, under its translation
    block = text.stdout.split("\n\nzk-19")[0].splitlines()
    at = next(i for i, line in enumerate(block) if line.startswith("  matched in:"))
    assert block[at - 1].startswith("  ") and "translation:" in "\n".join(block[:at])
    assert "The Four Corners" in block[at] and QUOTE in " ".join(" ".join(line.split()) for line in block[at:at + 3])
    # the passage as the answer shows it (the text output's lines): the one matched first, marked
    hit = trace(QUOTE).hits[1]
    lines = witness_lines(clause_record(hit.clause, with_examples=False), match_record(hit))
    assert lines[0].startswith("  matched in:") and "The Four Corners" in lines[0]
    assert QUOTE in " ".join(" ".join(line.split()) for line in lines)
    assert match_record(hit)["witness"] == "cadogan-four-corners"
