"""Fuzzing the validator: thousands of malformed and mutated logs.

Properties:

(a) nothing escapes: every input gets a report whose verdict is valid, illegal or malformed
    (never an exception, never an internal error);
(b) verdicts agree with the engine's legal-move list: a move the validator accepts is in
    ``legal_moves()`` at that point, the move it rejects as illegal is not, a card mismatch is a
    legal move naming another card, and a ``lost`` game has no legal move left.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from replay.engine import cards as C
from replay.engine.game import Move
from replay.games import create
from replay.log.models import GameLog
from replay.log.play import dumps, played_log
from replay.log.report import ILLEGAL, MALFORMED, VALID
from replay.log.validate import check_bytes

#: (game, variants, rulings, seed): the logs mutated
BASES = [
    ("printex-frame", (), {}, 3),
    ("printex-frame", ("cztery-katy",), {"frame": "square-20"}, 4),
    ("zwarta-kolumna", (), {}, 3),
    ("zwarta-kolumna", ("cztery-katy",), {}, 5),
    ("zwarta-kolumna", ("gotycki-zamek",), {"deal-timing": "when-stuck"}, 6),
    ("exiles", (), {}, 3),
    ("exiles", (), {"foundations": "eight-aces", "play-during-deal": "during"}, 4),
    ("napoleons-square", (), {}, 3),
    ("napoleons-square", (), {"sequence-moves": "whole-sequence", "space-fill": "any-card"}, 5),
]
#: moves checked against legal_moves() after the first changed move (legal_moves costs up to ~1 ms)
WINDOW = 25
CODES_ = [C.code(i) for i in range(52)]
JUNK_NAMES = ["", "p0", "P1", "A9", "stock ", "exile", "K", "🂡", "p1\u0000", "x" * 70]
JUNK_CARDS = ["10H", "th", "", "ZZ", "1S", "A♠", 5, None, ["AS"]]

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                print_blob=True)


@lru_cache(maxsize=None)
def base(i: int) -> dict[str, Any]:
    gid, variants, rulings, seed = BASES[i]
    return json.loads(dumps(played_log(create(gid, variants, rulings), seed, 400)))


@lru_cache(maxsize=None)
def piles(i: int) -> list[str]:
    gid, variants, rulings, _ = BASES[i]
    return list(create(gid, variants, rulings).layout.names)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def a_move(draw: Any, names: list[str]) -> Any:
    kind = draw(st.sampled_from(["deal", "redeal", "move", "move", "move", "fill", "tuck", "junk"]))
    if kind in ("deal", "redeal"):
        return {"type": kind}
    if kind == "junk":
        return draw(json_values)
    m: dict[str, Any] = {"type": kind,
                         "from": draw(st.sampled_from(names) | st.sampled_from(JUNK_NAMES)),
                         "to": draw(st.sampled_from(names) | st.sampled_from(JUNK_NAMES))}
    if draw(st.booleans()):
        m["card"] = draw(st.sampled_from(CODES_) | st.sampled_from(JUNK_CARDS))
    if kind == "move" and draw(st.integers(0, 3)) == 0:
        m["count"] = draw(st.integers(-1, 4) | st.sampled_from(["2", 1.5, True, None]))
    return m


def mutate(draw: Any, i: int) -> dict[str, Any]:
    """A copy of base log ``i`` with one to three random changes."""
    d = json.loads(json.dumps(base(i)))
    names = piles(i)
    moves = d["moves"]
    for _ in range(draw(st.integers(1, 3))):
        n = len(moves)
        op = draw(st.sampled_from(["drop", "dup", "swap", "insert", "insert", "pile", "card", "count", "truncate",
                                   "value", "delete-key", "header", "result", "deck"]))
        k = draw(st.integers(0, max(0, n - 1)))
        if op == "drop" and n:
            del moves[k]
        elif op == "dup" and n:
            moves.insert(k, json.loads(json.dumps(moves[k])))
        elif op == "swap" and n > 1:
            j = draw(st.integers(max(0, k - 5), min(n - 1, k + 5)))
            moves[k], moves[j] = moves[j], moves[k]
        elif op == "insert":
            moves.insert(draw(st.integers(0, n)), a_move(draw, names))
        elif op == "pile" and n and isinstance(moves[k], dict) and "from" in moves[k]:
            moves[k][draw(st.sampled_from(["from", "to"]))] = draw(st.sampled_from(names) | st.sampled_from(JUNK_NAMES))
        elif op == "card" and n and isinstance(moves[k], dict) and moves[k].get("type") != "deal":
            moves[k]["card"] = draw(st.sampled_from(CODES_) | st.sampled_from(JUNK_CARDS))
        elif op == "count" and n and isinstance(moves[k], dict):
            moves[k]["count"] = draw(st.integers(-1, 5) | st.sampled_from(["1", 2.0, False]))
        elif op == "truncate":
            del moves[k:]
        elif op == "value":
            target = draw(st.sampled_from(["format", "game", "variants", "rulings", "deck", "moves", "result", "meta"]))
            if target == "moves" and n:
                moves[k] = draw(json_values)
            else:
                d[target] = draw(json_values)
        elif op == "delete-key":
            if n and isinstance(moves[k], dict) and moves[k] and draw(st.booleans()):
                del moves[k][draw(st.sampled_from(sorted(moves[k])))]
            else:
                d.pop(draw(st.sampled_from(sorted(d))), None)
        elif op == "header":
            what = draw(st.sampled_from(["game", "variant", "ruling"]))
            if what == "game":
                d["game"] = draw(st.sampled_from(["printex-frame", "zwarta-kolumna", "exiles", "napoleons-square",
                                                  "zwarta", ""]))
            elif what == "variant":
                d["variants"] = draw(st.lists(st.sampled_from(["cztery-katy", "chaldejski", "gotycki-zamek",
                                                               "fill-from-any-pile", "any-pile-after-third-deal",
                                                               "nope"]), max_size=2))
            else:
                rulings = d["rulings"] if isinstance(d.get("rulings"), dict) else {}
                key = draw(st.sampled_from(sorted(rulings) + ["frame", "side-reach", "nope"]))
                rulings[key] = draw(st.sampled_from(["row", "adjacent", "square-20", "square-16", "when-stuck",
                                                     "player-choice", "x"]))
                d["rulings"] = rulings
        elif op == "result":
            d["result"] = draw(st.sampled_from(["won", "lost", "unfinished", "draw", 1, None]))
        elif op == "deck" and isinstance(d.get("deck"), list) and d["deck"]:
            deck = d["deck"]
            a, b = draw(st.integers(0, len(deck) - 1)), draw(st.integers(0, len(deck) - 1))
            how = draw(st.sampled_from(["swap", "swap", "replace", "drop"]))
            if how == "swap":
                deck[a], deck[b] = deck[b], deck[a]
            elif how == "replace":
                deck[a] = draw(st.sampled_from(CODES_) | st.sampled_from(JUNK_CARDS))
            else:
                del deck[a]
    return d


def first_difference(a: list[Any], b: list[Any]) -> int:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return k
    return min(len(a), len(b))


def assert_agrees_with_the_engine(data: bytes, report: Any, start: int) -> None:
    """Property (b), checked from move ``start`` (the moves before it are those of a valid base log)."""
    if report.verdict not in (VALID, ILLEGAL):
        return
    log = GameLog.model_validate_json(data)
    game = create(log.game, log.variants, log.rulings)
    lay = game.layout
    moves = [Move(s.type, lay.index(s.from_) if hasattr(s, "from_") else -1,
                  lay.index(s.to) if hasattr(s, "to") else -1,
                  C.parse(s.card) if getattr(s, "card", None) else -1, getattr(s, "count", 1)) for s in log.moves]
    t = game.new_table([C.parse(c) for c in log.deck])
    p = report.first
    stop = p.move if p is not None and p.move is not None else len(moves)
    if start > stop:
        start = stop
    for k in range(stop):
        if start <= k < start + WINDOW:
            legal = {(m.type, m.src, m.dst, m.count) for m in t.legal_moves()}
            m = moves[k]
            assert (m.type, m.src, m.dst, m.count) in legal, f"move {k} accepted but not in legal_moves()"
        t.push(moves[k])
    if p is not None and p.move is not None:
        m = moves[p.move]
        legal = {(x.type, x.src, x.dst, x.count) for x in t.legal_moves()}
        key = (m.type, m.src, m.dst, m.count)
        if p.code == "illegal-move":
            assert key not in legal, f"move {p.move} rejected under {p.clause} but legal_moves() has it"
            assert p.clause and t.violation(m) is not None
        else:  # the named card is not the one there; the move itself may be legal or not (then it says so)
            assert p.code == "card-mismatch"
            pile = t.piles[m.src]
            assert len(pile) < m.count or pile[-m.count] != m.card
            if key in legal:
                assert p.clause is None
            else:
                assert p.clause and t.violation(m) is not None and p.clause in p.message
    elif report.outcome == "lost":
        assert not t.legal_moves()
    elif report.outcome == "unfinished":
        assert t.legal_moves()


@settings(FUZZ, max_examples=1200)
@given(st.data())
def test_mutated_logs_get_verdicts_that_agree_with_the_engine(data):
    i = data.draw(st.integers(0, len(BASES) - 1), label="base")
    d = mutate(data.draw, i)
    raw = json.dumps(d).encode()
    report = check_bytes(raw, "fuzz.json")
    event(f"{report.verdict} {report.first.code if report.first else ''}")
    assert report.verdict in (VALID, ILLEGAL, MALFORMED), report.problems  # (a): never an internal error
    assert all(p.message and "\n" not in p.message for p in report.problems)
    if report.verdict == MALFORMED:
        assert len(report.problems) == 1 and report.first.path.startswith("$")
        return
    base_moves = base(i)["moves"]
    same_header = all(d.get(k) == base(i).get(k) for k in ("game", "variants", "rulings", "deck"))
    start = first_difference(d["moves"], base_moves) if same_header else 0
    assert_agrees_with_the_engine(raw, report, start)


def garbage(data: Any) -> bytes:
    """A base log's bytes truncated, flipped, wrapped or with bytes inserted; or random bytes or JSON."""
    i = data.draw(st.integers(0, len(BASES) - 1), label="base")
    raw = dumps(base(i)).encode()
    how = data.draw(st.sampled_from(["truncate", "flip", "insert", "garbage", "wrap", "json"]))
    if how == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    elif how == "flip":
        k = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:k] + bytes([data.draw(st.integers(0, 255))]) + raw[k + 1:]
    elif how == "insert":
        k = data.draw(st.integers(0, len(raw)))
        raw = raw[:k] + data.draw(st.binary(min_size=1, max_size=8)) + raw[k:]
    elif how == "garbage":
        raw = data.draw(st.binary(max_size=200))
    elif how == "wrap":
        depth = data.draw(st.integers(1, 400))
        raw = b"[" * depth + raw + b"]" * depth
    else:
        raw = json.dumps(data.draw(json_values)).encode()
    return raw


@settings(FUZZ, max_examples=600)
@given(st.data())
def test_bytes_and_json_garbage_never_escape(data):
    raw = garbage(data)
    report = check_bytes(raw, "garbage.json")
    assert report.verdict in (VALID, ILLEGAL, MALFORMED), report.problems
    if report.verdict == MALFORMED:
        p = report.first
        assert len(report.problems) == 1 and p.message and "\n" not in p.message


@settings(FUZZ, max_examples=400)
@given(st.data())
def test_lenient_and_until_never_escape_and_stay_ordered(data):
    i = data.draw(st.integers(0, len(BASES) - 1), label="base")
    d = mutate(data.draw, i)
    raw = json.dumps(d).encode()
    until = data.draw(st.none() | st.integers(0, 200))
    lenient = check_bytes(raw, "l.json", lenient=True, until=until)
    strict = check_bytes(raw, "s.json", until=until)
    assert lenient.verdict in (VALID, ILLEGAL, MALFORMED) and strict.verdict == lenient.verdict
    moves = [p.move for p in lenient.problems if p.move is not None]
    assert moves == sorted(moves) and len(set(moves)) == len(moves)
    if strict.first is not None and strict.first.move is not None:
        assert lenient.first.move == strict.first.move and lenient.first.code == strict.first.code
    if until is not None and strict.verdict != MALFORMED:
        assert strict.replayed <= until
        assert all(m < until for m in moves)


# --------------------------------------------------------------------------- regressions (issue #13)


def _many_deals(n: int, indent: int | None = 1) -> bytes:
    """A finished Napoleon's Square game (empty stock) followed by ``n`` deals, each illegal."""
    d = json.loads(json.dumps(base(7)))
    d.pop("result", None)
    d["moves"] += [{"type": "deal"}] * n
    return json.dumps(d, indent=indent).encode()


def _scanned(raw: bytes, monkeypatch: Any) -> tuple[int, Any]:
    """Characters the locator's scanner stepped over while --lenient placed every violation."""
    from replay.log import locate

    count = [0]
    skip = locate._skip

    def counting(s: str, i: int) -> int:
        end = skip(s, i)
        count[0] += end - i
        return end

    monkeypatch.setattr(locate, "_skip", counting)
    report = check_bytes(raw, "many.json", lenient=True)
    monkeypatch.setattr(locate, "_skip", skip)
    return count[0], report


def test_lenient_places_violations_in_one_pass_over_the_text(monkeypatch):
    """Placing n violations must cost one pass over the text, not one per violation (it was quadratic)."""
    per_char = []
    for n in (100, 800):
        for indent in (None, 1):
            raw = _many_deals(n, indent)
            scanned, report = _scanned(raw, monkeypatch)
            assert sum(p.code == "illegal-move" for p in report.problems) == n
            last = report.problems[-1]
            assert last.move == len(base(7)["moves"]) + n - 1 and last.written == '{"type": "deal"}'
            # the scanner walks the moves array once; its elements' own text again when one is quoted
            assert scanned <= 3 * len(raw), (n, indent, scanned, len(raw))
            per_char.append(scanned / len(raw))
    assert max(per_char) / min(per_char) < 1.5  # the same work per character at 100 and 800 violations


def test_lenient_line_numbers_are_right_when_placed_from_the_index():
    raw = _many_deals(30)
    text = raw.decode()
    report = check_bytes(raw, "many.json", lenient=True)
    for p in report.problems:
        assert p.line is not None and p.column is not None
        line = text.split("\n")[p.line - 1]
        assert line[p.column - 1:].startswith("{"), (p.move, line)


def test_lenient_keeps_snapshots_for_the_first_violations_only_and_says_so():
    from replay.log.report import report_lines
    from replay.log.validate import MAX_SNAPSHOTS

    n = MAX_SNAPSHOTS + 7
    report = check_bytes(_many_deals(n), "many.json", lenient=True)
    assert len(report.problems) == n
    assert all(p.snapshot is not None for p in report.problems[:MAX_SNAPSHOTS])
    assert all(p.snapshot is None and p.held for p in report.problems[MAX_SNAPSHOTS:])
    assert report.snapshots_omitted == 7 and report.to_json()["snapshots_omitted"] == 7
    assert report_lines(report)[-1].endswith(f"; table snapshots kept for the first {MAX_SNAPSHOTS} only, 7 omitted")


def test_lenient_skips_a_deal_from_an_empty_stock():
    report = check_bytes(_many_deals(3), "many.json", lenient=True)
    assert [p.carried_out for p in report.problems] == [False, False, False]


def _with(change: Any) -> bytes:
    d = json.loads(json.dumps(base(2)))
    change(d)
    return json.dumps(d, indent=1).encode()


NOT_STRICT_JSON = {
    # what the fast parser takes and RFC 8259 does not: each must be json-syntax, never valid
    "NaN": (_with(lambda d: d.update(meta={"x": 1})).replace(b'"x": 1', b'"x": NaN'), "$.meta.x", "NaN"),
    "Infinity": (_with(lambda d: d.update(meta={"x": [1]})).replace(b'"x": [\n   1', b'"x": [\n   Infinity'),
                 "$.meta.x[0]", "Infinity"),
    "-Infinity": (_with(lambda d: d.update(meta={"x": {"y": 1}})).replace(b'"y": 1', b'"y": -Infinity'),
                  "$.meta.x.y", "-Infinity"),
    "1e999": (_with(lambda d: d.update(meta={"x": 1})).replace(b'"x": 1', b'"x": 1e999'), "$.meta.x", "1e999"),
    "-1e999": (_with(lambda d: d.update(meta={"x": 1})).replace(b'"x": 1', b'"x": -1.5e999'), "$.meta.x",
               "-1.5e999"),
    "duplicate top key": (_with(lambda d: None).replace(b'"format": "replay-log/1"',
                                                        b'"format": "replay-log/1", "format": "replay-log/1"'),
                          "$.format", 'the key "format" is given twice'),
    "duplicate ruling": (_with(lambda d: d.update(rulings={"side-reach": "row"})).replace(
        b'"side-reach": "row"', b'"side-reach": "adjacent", "side-reach": "row"'), '$.rulings["side-reach"]',
        'the key "side-reach" is given twice'),
    "duplicate in a move": (_with(lambda d: None).replace(b'"type": "deal"', b'"type": "move", "type": "deal"', 1),
                            "$.moves[", 'the key "type" is given twice'),
    "duplicate in meta": (_with(lambda d: d.update(meta={"player": "A"})).replace(
        b'"player": "A"', b'"player": "A", "player": "B"'), "$.meta.player", 'the key "player" is given twice'),
}


@pytest.mark.parametrize("case", list(NOT_STRICT_JSON))
def test_what_rfc_8259_refuses_is_json_syntax(case):
    raw, path, needle = NOT_STRICT_JSON[case]
    report = check_bytes(raw, "strict.json")
    assert report.verdict == MALFORMED and report.first.code == "json-syntax", report.problems
    p = report.first
    assert p.path.startswith(path) and needle in p.message and p.line is not None
    line = raw.decode().split("\n")[p.line - 1]
    token = needle.split('"')[1] if '"' in needle else needle
    assert token in line[p.column - 1:], (line, p.column)


@pytest.mark.parametrize("typ,field,owners", [("deal", "count", "'move'"), ("deal", "from", "'move', 'fill' and 'tuck'"),
                                              ("redeal", "to", "'move', 'fill' and 'tuck'"),
                                              ("fill", "count", "'move'"), ("tuck", "count", "'move'")])
def test_a_field_of_another_move_type_names_its_owner(typ, field, owners):
    move: dict[str, Any] = {"type": typ, field: 2 if field == "count" else "p1"}
    if typ in ("fill", "tuck"):
        move.update({"from": "p1", "to": "p2"})
    report = check_bytes(_with(lambda d: d["moves"].insert(0, move)), "f.json")
    assert report.first.code == "schema" and report.first.path == f"$.moves[0].{field}"
    assert report.first.message == f"{field!r} is not a field of a {typ!r} move (it belongs to {owners})"


def test_a_valid_log_with_odd_but_strict_json_stays_valid():
    """Numbers, escapes and keys that strict JSON allows must not be refused by the strictness check."""
    raw = _with(lambda d: d.update(meta={"x": 1.5e300, "y": -0.0, "z": "NaN \\u00e9 \\ud83c\\udca1", "w": [{}, {"a": {"a": 1}}],
                                         "notes": "Infinity"}))
    raw = raw.replace(b'"NaN \\\\u00e9', b'"NaN \\u00e9')
    report = check_bytes(raw, "ok.json")
    assert report.verdict == VALID, report.problems


_pairs_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.lists(
        st.tuples(st.sampled_from(["a", "b", "é", 'q"uote', "back\\slash", ""]), inner), max_size=3
    ).map(lambda kv: ("obj", kv)),
    max_leaves=8,
)


def _render(v: Any) -> tuple[str, bool]:
    """JSON text of ``v`` (objects as lists of pairs, duplicates kept) and whether RFC 8259 refuses it."""
    if isinstance(v, tuple) and v[:1] == ("obj",):
        parts, bad = [], len({k for k, _ in v[1]}) < len(v[1])
        for k, x in v[1]:
            text, b = _render(x)
            parts.append(json.dumps(k) + ": " + text)
            bad = bad or b
        return "{" + ", ".join(parts) + "}", bad
    if isinstance(v, list):
        rendered = [_render(x) for x in v]
        return "[" + ", ".join(t for t, _ in rendered) + "]", any(b for _, b in rendered)
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return json.dumps(v), True
    return json.dumps(v), False


@settings(FUZZ, max_examples=500)
@given(_pairs_values)
def test_the_strictness_check_refuses_exactly_what_rfc_8259_refuses(v):
    from replay.log.locate import not_strict
    from replay.log.validate import strict_json

    text, bad = _render(v)
    found = strict_json(text.encode())
    assert (found is not None) == bad, (text, found)
    if bad:
        assert not_strict(text) is not None and found[0].code == "json-syntax"


def _counted_and_parsed(raw: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """The verdict of ``raw`` with the key count's shortcut (what ``replay validate`` does) and with the
    strictness check always parsing the text again."""
    from replay.log import validate

    counted = check_bytes(raw, "m.json")
    real = validate._keys_held
    try:
        validate._keys_held = lambda log: None  # type: ignore[assignment]
        parsed = check_bytes(raw, "m.json")
    finally:
        validate._keys_held = real
    return counted.to_json(), parsed.to_json()


@settings(FUZZ, max_examples=300)
@given(_pairs_values, st.sampled_from(["", ":", "a:b", '"', "\\u003a"]))
def test_the_key_count_spares_the_second_parse_only_where_it_finds_nothing(v, comment):
    """The shortcut of :func:`replay.log.check.strict_unless_counted` (the text's colons against the keys the
    models hold) never changes a verdict: meta's free value ``v`` written with duplicate keys, NaN, huge
    numbers, escapes and colons in strings, and a move's comment with a colon or an escaped one."""
    text, bad = _render(v)
    raw = _with(lambda d: d.update(meta={"x": 1})).replace(b'"x": 1', b'"x": ' + text.encode())
    if comment:
        raw = raw.replace(b'"type": "deal"', b'"type": "deal", "comment": "c' + comment.encode() + b'"', 1)
    counted, parsed = _counted_and_parsed(raw)
    assert counted == parsed
    if bad:
        assert counted["verdict"] == MALFORMED and counted["problems"][0]["code"] == "json-syntax", counted


def test_the_key_count_vouches_for_plain_logs_and_not_for_a_key_given_twice():
    """The count matches the colons of an ordinary log (so the second parse is spared), and not once a key is
    given twice, nor when a string holds a colon: the check can fail."""
    from replay.log.check import strict_unless_counted
    from replay.log.validate import _keys_held

    raw = _with(lambda d: None)
    log = GameLog.model_validate_json(raw)
    assert raw.count(b":") == _keys_held(log)
    twice = raw.replace(b'"type": "deal"', b'"type": "deal", "type": "deal"', 1)
    assert twice.count(b":") != _keys_held(GameLog.model_validate_json(twice))
    assert strict_unless_counted(twice, GameLog.model_validate_json(twice), _keys_held) is not None
    colon = raw.replace(b'"type": "deal"', b'"type": "deal", "comment": "a:b"', 1)
    assert colon.count(b":") != _keys_held(GameLog.model_validate_json(colon))
    assert check_bytes(colon, "c.json").verdict == VALID


def test_a_lenient_report_stays_within_a_few_times_its_log_and_says_where_it_stopped():
    """--lenient --format json turned a 2.2 MB log of violations into 98 MB of JSON (585 MB of memory): the
    report is bounded by the log's size, loses the quoted texts first, then stops listing, and says so."""
    from replay.log.report import json_document, report_lines
    from replay.log.validate import REPORT_PER_BYTE, REPORT_SLACK

    raw = _many_deals(12000)
    report = check_bytes(raw, "many.json", lenient=True)
    doc = json_document([report])
    assert len(doc.encode()) <= REPORT_SLACK + REPORT_PER_BYTE * len(raw), (len(doc), len(raw))
    assert report.verdict == "illegal" and report.omitted > 0 and report.details_omitted > 0
    assert len(report.problems) + report.omitted == 12000  # every violation is counted
    assert report.cut_at == report.problems[-1].move + 1
    assert all(p.diplomatic is None and p.held is None for p in report.problems[-report.details_omitted:])
    assert report.problems[0].diplomatic and report.problems[0].snapshot
    last = report_lines(report)[-1]
    assert f"the report stops at move {report.cut_at + 1} ($.moves[{report.cut_at}]): {report.omitted} more" in last
    assert last.startswith("many.json: 12000 problems")
    small = check_bytes(_many_deals(40), "few.json", lenient=True)  # a small report is whole
    assert small.omitted == small.details_omitted == 0 and all(p.diplomatic for p in small.problems)
