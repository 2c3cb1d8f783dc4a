"""The models' validator without the models (:mod:`replay.log.compiled`, what ``replay validate`` reads with)
takes and refuses what :class:`~replay.log.models.GameLog` takes and refuses.

Over every example log, the fuzz tests' mutated logs and byte garbage: a log the models take is taken with
the same fields, the same keys given (``__pydantic_fields_set__``), the same free keys of meta and the same
entries as written; a log the models refuse is refused with the same errors (type, place, words, context).
The cached schema is the models' own, made again when it is missing or damaged, and read from the cache
without pydantic's schema machinery.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from replay.log import compiled
from replay.log.models import GameLog
from replay.log.play import dumps
from tests.test_log_fuzz import BASES, FUZZ, base, garbage, mutate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("*.json"))


def _same_value(model: Any, record: Any, where: str) -> None:
    """A model instance and a record hold the same data, all the way down."""
    if isinstance(model, BaseModel):
        assert type(record).__name__ == type(model).__name__, where
        assert record.__pydantic_fields_set__ == model.model_fields_set, where
        assert record.__pydantic_extra__ == model.__pydantic_extra__, where
        for name in type(model).model_fields:
            _same_value(getattr(model, name), getattr(record, name), f"{where}.{name}")
        if "type" in type(model).model_fields:  # a move: its entry as the log writes it
            assert record.entry == model.model_dump(by_alias=True, exclude_unset=True), where
    elif isinstance(model, list):
        assert isinstance(record, list) and len(record) == len(model), where
        for i, (m, r) in enumerate(zip(model, record)):
            _same_value(m, r, f"{where}[{i}]")
    else:
        assert type(record) is type(model) and record == model, where


def assert_same(raw: bytes) -> str:
    """The models and the compiled validator agree on ``raw``; returns ``taken`` or ``refused``."""
    try:
        model = GameLog.model_validate_json(raw)
    except ValidationError as e:
        with pytest.raises(ValidationError) as caught:
            compiled.validator().validate_json(raw)
        assert caught.value.errors(include_url=False) == e.errors(include_url=False), raw[:200]
        assert caught.value.error_count() == e.error_count()
        return "refused"
    _same_value(model, compiled.validator().validate_json(raw), "$")
    return "taken"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_example_log_is_read_the_same(path: Path) -> None:
    assert_same(path.read_bytes())


def test_both_outcomes_are_met_and_a_difference_is_caught() -> None:
    """The comparison sees a taken log and a refused one, and fails on a record that differs (it can fail)."""
    raw = dumps(base(0)).encode()
    assert assert_same(raw) == "taken"
    assert assert_same(raw.replace(b'"deal"', b'"dael"', 1)) == "refused"
    record = compiled.validator().validate_json(raw)
    record.moves[0].__pydantic_fields_set__ = set()
    with pytest.raises(AssertionError):
        _same_value(GameLog.model_validate_json(raw), record, "$")


@settings(FUZZ, max_examples=400)
@given(st.data())
def test_mutated_logs_are_read_the_same(data: Any) -> None:
    d = mutate(data.draw, data.draw(st.integers(0, len(BASES) - 1), label="base"))
    assert_same(json.dumps(d).encode())


@settings(FUZZ, max_examples=300)
@given(st.data())
def test_bytes_and_json_garbage_are_read_the_same(data: Any) -> None:
    assert_same(garbage(data))


def test_the_cached_schema_is_the_models_and_a_damaged_one_is_made_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path))
    compiled._validator.cache_clear()
    try:
        compiled.validator()
        [cached] = (tmp_path / "log-schema").glob("*.json")
        assert json.loads(cached.read_bytes()) == compiled.plain_schema()
        cached.write_text("{not json", encoding="utf-8")
        compiled._validator.cache_clear()
        assert_same(dumps(base(1)).encode())
        assert json.loads(cached.read_bytes()) == compiled.plain_schema()
    finally:
        compiled._validator.cache_clear()


def test_reading_from_the_cache_needs_no_schema_machinery(tmp_path) -> None:
    """A warm cache: the validator is built from the cached JSON; pydantic's schema generation and the models
    are not imported."""
    code = ("import sys, json\nfrom replay.log import compiled\nraw = open(sys.argv[1], 'rb').read()\n"
            "log = compiled.validator().validate_json(raw)\n"
            "print(json.dumps([log.game, len(log.moves), [m for m in ('replay.log.models', "
            "'pydantic._internal._generate_schema', 'pydantic.main') if m in sys.modules]]))")
    env = {**os.environ, "REPLAY_CACHE_DIR": str(tmp_path)}
    path = str(ROOT / "examples" / "games" / "exiles" / "base" / "won-2.json")
    runs = [subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    cold, warm = (json.loads(r.stdout) for r in runs)
    assert cold[2], "the first run builds the schema from the models"
    assert warm[:2] == cold[:2] and warm[2] == [], runs[1].stderr
