"""The log models: strictness, the discriminated union of moves, and the published schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from replay.cli import app
from replay.log.models import FORMAT, MAX_MOVES, MOVE_TYPES, Deal, Fill, GameLog, MoveCards, Tuck, schema_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "docs" / "schema" / "replay-log-1.schema.json"


def log(**over):
    d = {"format": FORMAT, "game": "exiles", "variants": [], "rulings": {}, "deck": ["TH", "QS"], "moves": []}
    d.update(over)
    return json.dumps(d).encode()


def test_committed_schema_matches_the_models():
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/schema/replay-log-1.schema.json drifted from replay/log/models.py; "
        "regenerate it with: replay schema > docs/schema/replay-log-1.schema.json")


def test_replay_schema_prints_the_committed_schema():
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    assert result.output == SCHEMA.read_text(encoding="utf-8")


def test_schema_describes_every_move_type_and_forbids_extra_keys():
    schema = json.loads(schema_text())
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"format", "game", "variants", "rulings", "deck", "moves"}
    defs = schema["$defs"]
    tags = {d["properties"]["type"]["const"] for d in defs.values() if "type" in d.get("properties", {})}
    assert tags == set(MOVE_TYPES)
    for name in ("Deal", "Redeal", "MoveCards", "Fill", "Tuck"):
        assert defs[name]["additionalProperties"] is False
    assert "from" in defs["MoveCards"]["properties"] and "from_" not in defs["MoveCards"]["properties"]
    assert schema["properties"]["moves"]["maxItems"] == MAX_MOVES
    assert schema["properties"]["moves"]["items"]["discriminator"]["propertyName"] == "type"


def test_moves_parse_into_their_models():
    parsed = GameLog.model_validate_json(log(moves=[
        {"type": "deal"}, {"type": "move", "from": "p1", "to": "A1", "card": "AS"},
        {"type": "move", "from": "p1", "to": "p2", "count": 3}, {"type": "fill", "from": "p1", "to": "p6"},
        {"type": "tuck", "from": "exiles", "to": "p5", "card": "5S"}]))
    assert [type(m) for m in parsed.moves] == [Deal, MoveCards, MoveCards, Fill, Tuck]
    assert parsed.moves[1].from_ == "p1" and parsed.moves[1].card == "AS" and parsed.moves[1].count == 1
    assert parsed.moves[2].count == 3
    assert parsed.result is None and parsed.meta is None


@pytest.mark.parametrize("bad", [
    {"moves": [{"type": "move", "from": "p1", "to": "A1", "form": "x"}]},  # extra key in a move
    {"extra": 1},  # extra key at the top
    {"moves": [{"type": "move", "from": "p1", "to": "A1", "count": 1.0}]},  # strict: a float is not a count
    {"moves": [{"type": "move", "from": "p1", "to": "A1", "count": True}]},
    {"moves": [{"type": "move", "from": "p1", "to": "A1", "count": 0}]},
    {"moves": [{"type": "deal", "from": "p1"}]},  # deal takes no piles
    {"moves": [{"type": "fill", "from": "p1", "to": "p2", "count": 2}]},  # only move has a count
    {"moves": [{"type": "shuffle"}]},
    {"moves": [{"from": "p1", "to": "A1"}]},
    {"deck": ["10H"]},
    {"deck": ["th"]},
    {"deck": ["TH"] * 105},
    {"format": "replay-log/2"},
    {"result": "draw"},
    {"meta": {"player": 7}},
    {"variants": "chaldejski"},
    {"rulings": {"frame": 3}},
    {"game": ""},
])
def test_invalid_logs_are_refused_by_the_models(bad):
    with pytest.raises(ValidationError):
        GameLog.model_validate_json(log(**bad))


def test_meta_is_free_form_but_its_named_keys_are_strings():
    parsed = GameLog.model_validate_json(log(meta={"player": "A", "tournament": {"round": 3}, "expect": [1]}))
    assert parsed.meta.player == "A"
    assert parsed.meta.model_extra == {"tournament": {"round": 3}, "expect": [1]}


def test_optional_fields_and_required_ones():
    d = json.loads(log())
    for key in ("format", "game", "variants", "rulings", "deck", "moves"):
        broken = {k: v for k, v in d.items() if k != key}
        with pytest.raises(ValidationError):
            GameLog.model_validate_json(json.dumps(broken))
    GameLog.model_validate_json(log(result="won", meta={"notes": "x"}))
