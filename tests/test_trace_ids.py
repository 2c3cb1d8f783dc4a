"""`replay trace` takes back every ID it prints (issue #16 §2), and gives a paraphrase its clear best match;
the layers of a clause have one name each (verbatim, diplomatic, modern, translation)."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.corpus.loader import default_corpus
from replay.trace.core import trace

runner = CliRunner()


def traced(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, ["trace", *args, "--no-examples"])
    return r.exit_code, r.stdout


def test_every_id_that_trace_prints_is_a_query_it_accepts():
    code, out = traced("zk-8")
    assert code == 0
    printed = set(re.findall(r"\b(amb-[a-z0-9-]+)", out))
    printed |= {m.group(1) for m in re.finditer(r"^\s+(replay\.[\w.]+)\s", out, re.M)}
    printed |= {m.group(1) + "::" + m.group(2) for m in re.finditer(r"^\s+(tests/\S+\.py):\d+\s+(\S+)", out, re.M)}
    printed |= {m.group(1) for m in re.finditer(r"^\s+(tests/\S+\.py:\d+)\s", out, re.M)}
    printed |= {m.group(1) for m in re.finditer(r"^\s+replay\.[\w.]+\s+(replay/\S+\.py):\d+", out, re.M)}
    printed |= {m.group(1) for m in re.finditer(r"^\s+replay\.[\w.]+\s+(replay/\S+\.py:\d+)", out, re.M)}
    assert any(p.startswith("amb-") for p in printed) and any("::" in p for p in printed)
    for query in sorted(printed):
        result = trace(query)
        assert result.kind != "none", query
        if query.startswith(("amb-", "tests/")):  # an ambiguity of zk-8, a test tagged with it
            assert "zk-8" in {h.clause for h in result.hits}, query


def test_an_ambiguity_id_lists_the_clauses_it_concerns():
    amb = default_corpus().ambiguities["amb-pf-playable-all"]
    result = trace("amb-pf-playable-all")
    assert result.kind == "ambiguity" and [h.clause for h in result.hits] == list(amb.clauses)
    code, out = traced("AMB-PF-PLAYABLE-ALL")
    assert code == 0 and out.startswith(f"ambiguity amb-pf-playable-all — {amb.title}: clauses ")


def test_a_module_lists_its_rule_functions():
    for query in ("replay.games.zwarta_kolumna", "zwarta_kolumna", "replay/games/zwarta_kolumna.py"):
        result = trace(query)
        assert result.kind == "function", query
        assert result.functions and all(f.name.startswith("replay.games.zwarta_kolumna.") for f in result.functions)
        assert "replay.games.zwarta_kolumna.freed_places_are_not_refilled" in {f.name for f in result.functions}


def test_a_test_node_id_lists_the_clauses_it_is_tagged_with():
    node = "tests/test_game_zwarta_kolumna.py::test_other_cards_only_to_a_foundation_in_their_horizontal_row"
    for query in (node, node + "[a-case]", node.split("::")[1]):
        result = trace(query)
        assert result.kind == "test" and "zk-8" in [h.clause for h in result.hits], query
    code, out = traced(node, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["kind"] == "test" and doc["about"] == f"test {node}"


def test_a_clear_paraphrase_is_shown_as_the_best_match():
    result = trace("freed places are not refilled")
    assert result.kind == "best" and result.hits[0].clause == "zk-9"
    code, out = traced("freed places are not refilled")
    assert code == 0
    assert out.startswith("no clause holds 'freed places are not refilled' as written; the best match:")
    assert "zk-9" in out and "% like the translation" in out


def test_an_unclear_paraphrase_still_offers_the_nearest_and_exits_1():
    # pf-17 and zk-12 score alike: no clause is clearly the one meant
    assert trace("the top card of a pile is playable").kind == "none"
    code, out = traced("xylophone quartz zebra")
    assert code == 1 and "nothing matches" in out


@pytest.mark.parametrize("query", ["zk-9", "Zwolnionych miejsc nie uzupełniamy"])
def test_the_layers_have_one_name_each(query):
    code, out = traced(query)
    labels = re.findall(r"^  ([a-z]+):", out, re.M)
    assert {"verbatim", "translation"} <= set(labels) and "original" not in labels and "normalized" not in labels
    doc = json.loads(traced(query, "--format", "json")[1])
    rec = doc["clauses"][0]
    assert {"verbatim", "diplomatic", "modern", "translation"} <= rec.keys()
    assert "original" not in rec and "normalized" not in rec


def test_a_function_s_path_and_line_finds_that_function():
    from replay.engine.registry import implementations

    trace("zk-8")  # the registry is filled
    impl = implementations()["replay.games.zwarta_kolumna.freed_places_are_not_refilled"]
    for line in (impl.line, impl.end_line):
        result = trace(f"{impl.file}:{line}")
        assert result.kind == "function" and [f.name for f in result.functions] == [impl.name]
