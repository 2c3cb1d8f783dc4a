"""The published JSON Schema helps an editor and a validator (issue #16 §2): it names the game IDs, each
game's variants and rulings with their readings, and wants each variant once."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from replay.games.catalog import MODULES, module, rulings_for
from replay.log.models import json_schema

ROOT = Path(__file__).resolve().parents[1]
GOOD = sorted((ROOT / "examples" / "games").rglob("*.json")) + sorted((ROOT / "examples" / "readings").rglob("*.json"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((ROOT / "docs" / "schema" / "replay-log-1.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def messages(validator: jsonschema.Draft202012Validator, log: dict) -> list[str]:
    return [e.message for e in validator.iter_errors(log)]


def test_every_example_log_meets_the_schema(validator):
    assert GOOD
    for path in GOOD:
        assert messages(validator, json.loads(path.read_text(encoding="utf-8"))) == [], path


def test_the_schema_names_the_games_variants_and_readings():
    schema = json_schema()
    assert schema["properties"]["game"]["enum"] == list(MODULES)
    assert schema["properties"]["variants"]["uniqueItems"] is True
    for gid, branch in zip(MODULES, schema["allOf"]):
        assert branch["if"]["properties"]["game"]["const"] == gid
        then = branch["then"]["properties"]
        variants = list(module(gid).VARIANTS)
        assert then["variants"] == ({"items": {"enum": variants}} if variants else {"maxItems": 0})
        assert then["rulings"]["properties"] == {n: {"enum": list(r.readings)} for n, r in sorted(rulings_for(gid).items())}


@pytest.mark.parametrize("change, wanted", [
    ({"game": "zwarta"}, "'zwarta' is not one of"),
    ({"variants": ["chaldejski", "chaldejski"]}, "non-unique"),
    ({"variants": ["chaldejsky"]}, "'chaldejsky' is not one of"),
    ({"variants": ["eight-aces"]}, "'eight-aces' is not one of"),  # a reading of exiles, not a variant here
    ({"rulings": {"side-reach": "nope"}}, "'nope' is not one of ['row', 'adjacent']"),
    ({"rulings": {"frame": "rect-16"}}, "'frame' was unexpected"),  # a ruling of printex-frame
])
def test_a_misspelt_name_is_caught(validator, change, wanted):
    log = json.loads((ROOT / "examples/games/zwarta-kolumna/base/lost-seed-1.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(log) | change
    assert any(wanted in m for m in messages(validator, bad)), messages(validator, bad)
