"""The plain log reader (the browser's, without pydantic) gives the verdicts `replay validate` gives.

Over every example log, and thousands of mutated logs and byte garbage (the fuzz tests' own mutations),
the two readers' reports are the same, field for field; only a JSON syntax error may be worded (and
placed within its line) differently, by Python's parser rather than pydantic's.  The plain reader's
constants of the format are the models' own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.log import format as F
from replay.log import plain, validate
from replay.log.models import MOVE_MODELS, GameLog, Meta
from replay.log.play import dumps
from tests.test_log_fuzz import BASES, FUZZ, base, garbage, mutate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("*.json"))


def reports(raw: bytes, **kw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return validate.check_bytes(raw, "x.json", **kw).to_json(), plain.check_bytes(raw, "x.json", **kw).to_json()


def assert_same(raw: bytes, **kw: Any) -> None:
    a, b = reports(raw, **kw)
    if a == b:
        return
    pa, pb = a["problems"][0], b["problems"][0]
    assert pa["code"] == pb["code"] == "json-syntax", (raw[:200], pa, pb)
    assert pa["path"] == pb["path"] and abs(pa["line"] - pb["line"]) <= 1, (raw[:200], pa, pb)
    assert {k: v for k, v in a.items() if k != "problems"} == {k: v for k, v in b.items() if k != "problems"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_example_log_gets_the_same_report(path: Path) -> None:
    raw = path.read_bytes()
    assert_same(raw)
    assert_same(raw, lenient=True)


def test_what_only_pydantics_parser_refuses_is_refused_the_same_way() -> None:
    """Python's parser takes lone surrogates, integers of 4,301 digits and 250 nested arrays; pydantic's
    does not, and neither does the plain reader (same code, place and words)."""
    head = b'{"format": "replay-log/1", "game": "exiles", "variants": [], "rulings": {}, "deck": [], "moves": [], '
    for meta in (b'"\\udc00"', b'"a\\ud800b"', b'"\\ud83d\\ude00"', b"1" * 4301, b"-" + b"1" * 4300,
                 b"[" * 199 + b"]" * 199, b"[" * 200 + b"]" * 200, b'{"a":' * 199 + b"1" + b"}" * 199,
                 b"1e400", b"NaN", b'"a\x01"'):
        raw = head + b'"meta": {"x": ' + meta + b"}}"
        a, b = reports(raw)
        assert a == b, (meta[:20], a["problems"], b["problems"])
    assert_same((ROOT / "examples" / "broken" / "too-deep.json").read_bytes())


def test_the_formats_constants_are_the_models() -> None:
    assert tuple(MOVE_MODELS) == F.MOVE_TYPES
    for t, model in MOVE_MODELS.items():
        assert tuple(f.alias or n for n, f in model.model_fields.items()) == F.MOVE_FIELDS[t]
    assert tuple(f.alias or n for n, f in GameLog.model_fields.items()) == F.LOG_FIELDS
    assert tuple(n for n, f in GameLog.model_fields.items() if f.is_required()) == F.LOG_REQUIRED
    assert tuple(Meta.model_fields) == F.META_STRINGS


def test_a_parsed_log_is_the_same_data() -> None:
    raw = dumps(base(0)).encode()
    m, p = validate.parse(raw), plain.parse(raw)
    assert (p.game, p.variants, p.rulings, p.deck, p.result) == (m.game, m.variants, m.rulings, m.deck, m.result)
    assert [s.entry for s in p.moves] == [s.model_dump(by_alias=True, exclude_unset=True) for s in m.moves]


@settings(FUZZ, max_examples=800)
@given(st.data())
def test_mutated_logs_get_the_same_report(data: Any) -> None:
    d = mutate(data.draw, data.draw(st.integers(0, len(BASES) - 1), label="base"))
    assert_same(json.dumps(d).encode())


@settings(FUZZ, max_examples=500)
@given(st.data())
def test_bytes_and_json_garbage_get_the_same_report(data: Any) -> None:
    raw = garbage(data)
    assert_same(raw)
