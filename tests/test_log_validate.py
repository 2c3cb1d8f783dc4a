"""The validator as a library: verdicts, problems, places, --lenient, --until and --all-readings."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from replay.engine import cards as C
from replay.engine.game import Move
from replay.games import create
from replay.log.models import MAX_BYTES
from replay.log.play import dumps, new_log, play, played_log, step_of
from replay.log.readings import analyse, reading_sets
from replay.log.report import CODES, ILLEGAL, MALFORMED, VALID
from replay.log.validate import check_bytes, check_file


@lru_cache(maxsize=None)
def base(game_id: str, seed: int = 3, variants: tuple[str, ...] = (), **rulings: str) -> str:
    """A complete log (JSON text) played by the random-greedy player."""
    return dumps(played_log(create(game_id, variants, rulings), seed, 600))


def edited(text: str, change) -> bytes:  # type: ignore[no-untyped-def]
    d = json.loads(text)
    change(d)
    return json.dumps(d).encode()


def first_move(d: dict, pred=lambda s: s["type"] == "move") -> int:  # type: ignore[no-untyped-def]
    return next(i for i, s in enumerate(d["moves"]) if pred(s))


# --------------------------------------------------------------------------- valid logs


@pytest.mark.parametrize("game_id,variants", [
    ("printex-frame", ()), ("printex-frame", ("cztery-katy",)), ("printex-frame", ("any-pile-after-third-deal",)),
    ("zwarta-kolumna", ()), ("zwarta-kolumna", ("cztery-katy",)), ("zwarta-kolumna", ("gotycki-zamek",)),
    ("zwarta-kolumna", ("chaldejski",)), ("zwarta-kolumna", ("fill-from-any-pile",)),
    ("exiles", ()), ("napoleons-square", ()),
])
def test_played_games_are_valid_and_their_result_claim_is_checked(game_id, variants):
    text = base(game_id, 3, variants)
    r = check_bytes(text.encode(), "g.json")
    assert r.verdict == VALID, r.problems
    d = json.loads(text)
    assert r.outcome == d["result"] and r.claimed == d["result"]
    assert r.replayed == r.moves == len(d["moves"])
    assert r.game == game_id and r.variants == sorted(variants)


def test_a_log_without_moves_or_claim_is_valid_and_unfinished():
    g = create("zwarta-kolumna")
    r = check_bytes(dumps(new_log(g, g.deck_from_seed(1))).encode())
    assert r.ok and r.outcome == "unfinished" and r.replayed == 0


def test_a_byte_order_mark_is_ignored():
    assert check_bytes(b"\xef\xbb\xbf" + base("exiles").encode()).ok


def test_non_default_layout_ruling_reads_its_own_pile_names():
    text = base("printex-frame", 2, (), frame="square-20")
    assert check_bytes(text.encode()).ok
    assert "r4" in {s.get("from") for s in json.loads(text)["moves"]} | {"r4"}  # names exist only there
    r = check_bytes(edited(text, lambda d: d["rulings"].update(frame="rect-16")))
    assert r.verdict in (MALFORMED, ILLEGAL)  # other piles, or the same names in other places


# --------------------------------------------------------------------------- illegal moves


def test_an_illegal_move_names_the_clause_the_place_and_the_table():
    g = create("zwarta-kolumna")
    d = json.loads(base("zwarta-kolumna"))
    i = first_move(d)
    t = g.new_table([C.parse(c) for c in d["deck"]])
    for s in d["moves"][:i]:
        assert s["type"] == "deal"
        t.push(Move("deal"))
    # a side pile (not a corner) to a foundation outside its row
    src = next(p for p in ("p2", "p3", "p4", "p5") if t.piles[g.layout.index(p)])
    row = {"p2": 1, "p3": 2, "p4": 3, "p5": 4}[src]
    dst = next(f for f in ("A1", "A2", "A3", "A4") if f != f"A{row}")
    card = C.code(t.piles[g.layout.index(src)][-1])
    d["moves"].insert(i, {"type": "move", "from": src, "to": dst, "card": card})
    text = dumps(d)
    r = check_bytes(text.encode(), "x.json")
    assert r.verdict == ILLEGAL and len(r.problems) == 1
    p = r.first
    assert p.code == "illegal-move" and p.move == i and p.path == f"$.moves[{i}]"
    assert p.clause in ("zk-8", "zk-5")  # the engine checks suit first, then reach
    line = text.splitlines()[p.line - 1]
    assert line[p.column - 1:].startswith('{"type": "move"') and f'"from": "{src}"' in line
    assert p.written == json.dumps({"type": "move", "from": src, "to": dst, "card": card}, separators=(", ", ": "))
    assert p.diplomatic and p.translation
    assert p.held and src in p.held and dst in p.held and "stock" in p.held
    assert p.snapshot["piles"][src][-1] == card
    assert r.replayed == i and r.outcome is None


def test_the_clause_text_comes_from_the_corpus():
    from replay.corpus.loader import default_corpus

    r = check_bytes(edited(base("zwarta-kolumna"), lambda d: d["moves"].insert(1, {"type": "redeal"})))
    p = r.first
    assert p.clause == "zk-15"
    corpus = default_corpus()
    assert p.diplomatic == corpus.diplomatic("zk-15")
    translation = corpus.clauses["zk-15"].translation
    assert p.translation == (translation if translation.strip() != "TODO" else "(translation not yet written)")


def test_a_wrong_card_is_a_card_mismatch_without_clause():
    text = base("printex-frame")
    d = json.loads(text)
    i = first_move(d)
    real = d["moves"][i]["card"]
    d["moves"][i]["card"] = "KS" if real != "KS" else "KH"
    r = check_bytes(json.dumps(d).encode())
    assert r.verdict == ILLEGAL and r.first.code == "card-mismatch" and r.first.clause is None
    assert real in r.first.message and r.first.move == i


@pytest.mark.parametrize("claim", ["won", "unfinished"])
def test_a_false_result_claim_is_rejected_with_the_real_outcome(claim):
    r = check_bytes(edited(base("zwarta-kolumna"), lambda d: d.update(result=claim)))
    assert r.verdict == ILLEGAL and r.first.code == "false-result" and r.first.path == "$.result"
    assert "lost" in r.first.message and r.outcome == "lost"


def test_an_unfinished_claim_on_a_partial_record_is_true():
    r = check_bytes(edited(base("zwarta-kolumna"), lambda d: d.update(moves=d["moves"][:5], result="unfinished")))
    assert r.ok and r.outcome == "unfinished"


# --------------------------------------------------------------------------- bad input


def deck_edit(i: int, code: str):  # type: ignore[no-untyped-def]
    return lambda d: d["deck"].__setitem__(i, code)


BAD = [
    ("json-syntax", lambda t: t[:200].encode(), "$"),
    ("json-syntax", lambda t: t.replace('"moves": [', '"moves": [,', 1).encode(), "$"),
    ("not-utf8", lambda t: t.replace('"deck"', '"deck"').encode().replace(b'"format"', b'"f\xe9rmat"', 1), "$"),
    ("too-deep", lambda t: t.replace('"moves"', '"meta": {"x": ' + "[" * 500 + "]" * 500 + '}, "moves"', 1).encode(),
     "$"),
    ("schema", lambda t: b"[]", "$"),
    ("schema", lambda t: b'"a log"', "$"),
    ("schema", lambda t: edited(t, lambda d: d.pop("deck")), "$"),
    ("schema", lambda t: edited(t, lambda d: d.update(variants={})), "$.variants"),
    ("schema", lambda t: edited(t, lambda d: d["moves"][1].update(count="2")), "$.moves[1].count"),
    ("schema", lambda t: edited(t, lambda d: d["moves"][1].update(form="p1")), "$.moves[1].form"),
    ("schema", lambda t: edited(t, lambda d: d["moves"][1].pop("to")), "$.moves[1]"),
    ("schema", lambda t: edited(t, lambda d: d.update(format="replay-log/0")), "$.format"),
    ("schema", lambda t: edited(t, lambda d: d.update(result="resigned")), "$.result"),
    ("unknown-move-type", lambda t: edited(t, lambda d: d["moves"].insert(0, {"type": "shuffle"})), "$.moves[0]"),
    ("unknown-move-type", lambda t: edited(t, lambda d: d["moves"].insert(0, {"type": "tuck", "from": "p1",
                                                                              "to": "p2"})), "$.moves[0].type"),
    ("unknown-move-type", lambda t: edited(t, lambda d: d["moves"].insert(0, {"type": "fill", "from": "p1",
                                                                              "to": "p2"})), "$.moves[0].type"),
    ("bad-card", lambda t: edited(t, deck_edit(7, "10H")), "$.deck[7]"),
    ("bad-card", lambda t: edited(t, lambda d: d["moves"][1].update(card="Q♠")), "$.moves[1].card"),
    ("unknown-game", lambda t: edited(t, lambda d: d.update(game="napoleon")), "$.game"),
    ("unknown-variant", lambda t: edited(t, lambda d: d.update(variants=["cztery-katy", "zamek"])), "$.variants[1]"),
    ("bad-combination", lambda t: edited(t, lambda d: d.update(variants=["gotycki-zamek", "cztery-katy"])),
     "$.variants"),
    ("bad-combination", lambda t: edited(t, lambda d: d.update(variants=["chaldejski", "chaldejski"])),
     "$.variants[1]"),
    ("bad-combination", lambda t: edited(t, lambda d: d["rulings"].update(replacement="if-empty")),
     "$.rulings.replacement"),
    ("unknown-ruling", lambda t: edited(t, lambda d: d["rulings"].update({"side_reach": "row"})),
     "$.rulings.side_reach"),
    ("unknown-reading", lambda t: edited(t, lambda d: d["rulings"].update({"side-reach": "column"})),
     '$.rulings["side-reach"]'),
    ("unknown-pile", lambda t: edited(t, lambda d: d["moves"][1].update({"to": "A9"})), "$.moves[1].to"),
    ("invalid-deck", lambda t: edited(t, lambda d: d["deck"].pop()), "$.deck"),
    ("invalid-deck", lambda t: edited(t, lambda d: d["deck"].extend(["AS"] * 8)), "$.deck"),
    ("invalid-deck", lambda t: edited(t, lambda d: d["deck"].__setitem__(-1, d["deck"][0])
                                      if d["deck"].count(d["deck"][0]) == 2 else d["deck"].__setitem__(
                                          d["deck"].index(d["deck"][0], 1), "XX")), "$.deck[95]"),
    ("too-large", lambda t: (t + " " * (MAX_BYTES + 1 - len(t))).encode(), "$"),
]


@pytest.mark.parametrize("code,make,path", BAD, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD)])
def test_each_kind_of_bad_input_gets_one_problem_naming_the_place(code, make, path):
    text = base("zwarta-kolumna", 3)
    data = make(text)
    r = check_bytes(data, "bad.json")
    assert r.verdict == CODES[code], r.problems
    assert len(r.problems) == 1
    p = r.first
    assert p.code == code, p
    assert p.path == path, p
    assert "\n" not in p.message and p.message
    if code not in ("too-large",):
        assert p.line is not None and p.column is not None and p.line >= 1 and p.column >= 1, p


def test_unknown_names_come_with_a_suggestion():
    text = base("zwarta-kolumna")
    cases = {
        "game": (lambda d: d.update(game="zwarta-kolumn"), "did you mean 'zwarta-kolumna'?"),
        "pile": (lambda d: d["moves"][1].update({"from": "p 3"}), "did you mean"),
        "card": (lambda d: d["deck"].__setitem__(0, "10S"), "did you mean 'TS'?"),
        "type": (lambda d: d["moves"].insert(0, {"type": "dael"}), "did you mean 'deal'?"),
        "key": (lambda d: d["moves"][1].update({"crad": "AS"}), "did you mean 'card'?"),
    }
    for what, (change, hint) in cases.items():
        r = check_bytes(edited(text, change))
        assert hint in r.first.message, (what, r.first.message)


def test_a_deck_tripling_a_card_points_at_the_third_copy():
    text = base("exiles")
    d = json.loads(text)
    card = d["deck"][0]
    other = next(i for i, c in enumerate(d["deck"]) if c != card and i > d["deck"].index(card, 1))
    d["deck"][other] = card
    r = check_bytes(json.dumps(d).encode())
    assert r.first.code == "invalid-deck" and r.first.path == f"$.deck[{other}]"
    assert f"{card} appears 3 times" in r.first.message


def test_a_deck_with_the_bases_left_in_is_explained():
    r = check_bytes(edited(base("printex-frame"), lambda d: d["deck"].extend(["AS", "AH", "AC", "AD",
                                                                              "KS", "KH", "KC", "KD"])))
    assert r.first.code == "invalid-deck" and "taken out before the deal" in r.first.message


def test_an_unreadable_file_is_an_io_error(tmp_path):
    r = check_file(str(tmp_path / "missing.json"))
    assert r.verdict == "error" and r.first.code == "io-error"


# --------------------------------------------------------------------------- lenient and until


def with_two_violations() -> tuple[bytes, int, int]:
    d = json.loads(base("zwarta-kolumna"))
    a = first_move(d)
    d["moves"].insert(a, {"type": "redeal"})
    b = len(d["moves"]) - 3
    d["moves"].insert(b, {"type": "move", "from": "p1", "to": "stock"})
    return json.dumps(d).encode(), a, b


def test_lenient_lists_every_violation_and_goes_on():
    data, a, b = with_two_violations()
    strict = check_bytes(data)
    assert [p.move for p in strict.problems] == [a]
    lenient = check_bytes(data, lenient=True)
    moves = [p.move for p in lenient.problems if p.move is not None]
    assert moves[:1] == [a] and b in moves
    assert lenient.problems[0].carried_out is True  # the piles can be gathered under the stock: made as recorded
    to_stock = next(p for p in lenient.problems if p.move == b)
    assert to_stock.carried_out is False  # no kind of move puts a card on the stock: skipped
    assert lenient.replayed == lenient.moves
    assert lenient.outcome is not None


def test_lenient_carries_out_an_illegal_move_the_table_allows():
    d = json.loads(base("zwarta-kolumna"))
    i = first_move(d)
    d["moves"].insert(i + 1, {"type": "deal"})  # ... an early deal is legal (player-choice); make one that is not:
    d["rulings"]["deal-timing"] = "when-stuck"
    r = check_bytes(json.dumps(d).encode(), lenient=True)
    assert r.verdict == ILLEGAL
    carried = [p for p in r.problems if p.carried_out]
    assert carried, r.problems


def test_until_stops_after_n_moves_and_does_not_check_the_claim():
    data, a, _ = with_two_violations()
    r = check_bytes(data, until=a)
    assert r.ok and r.replayed == a and r.until == a
    r = check_bytes(edited(base("zwarta-kolumna"), lambda d: d.update(result="won")), until=10)
    assert r.ok and r.replayed == 10
    r = check_bytes(base("zwarta-kolumna").encode(), until=10_000)
    assert r.ok and r.replayed == r.moves


def test_until_still_refuses_a_malformed_move_after_n():
    r = check_bytes(edited(base("zwarta-kolumna"), lambda d: d["moves"][-1].update(to="Q9")), until=3)
    assert r.verdict == MALFORMED and r.first.code == "unknown-pile"


# --------------------------------------------------------------------------- all readings


def test_reading_sets_vary_each_ruling_or_combine_them_all():
    sets, mode = reading_sets("napoleons-square", [], {})
    assert mode == "every combination" and len(sets) == 32 and len({json.dumps(s, sort_keys=True) for s in sets}) == 32
    sets, mode = reading_sets("printex-frame", ["cztery-katy"], {"frame": "square-20"})
    assert mode == "each ruling alone"
    assert sets[0]["frame"] == "square-20"
    assert all(sum(s[k] != sets[0][k] for k in s) == 1 for s in sets[1:])
    assert len(sets) == 1 + sum(len(r) - 1 for r in [
        ("rect-16", "square-16", "square-20", "square-20-ring")]) + 6  # frame: 3 others; six two-reading rulings: 1 each


def zk_log_needing(rulings: dict[str, str], differs: dict[str, str], clause: str, **kw) -> tuple[bytes, int]:
    """A complete zwarta-kolumna log played under ``rulings`` whose first move illegal under ``differs`` breaks ``clause``."""
    g = create("zwarta-kolumna", rulings=rulings)
    other = create("zwarta-kolumna", rulings={**rulings, **differs})
    for seed in range(1, 300):
        moves, t = play(g, g.deck_from_seed(seed), seed, 600, **kw)
        t2 = other.new_table(other.deck_from_seed(seed))
        for k, m in enumerate(moves):
            bad = t2.violation(m)
            if bad:
                if bad[0] == clause:
                    t3 = g.new_table(g.deck_from_seed(seed))
                    steps = []
                    for m2 in moves:
                        steps.append(step_of(g, m2, t3))
                        t3.push(m2)
                    return dumps(new_log(g, g.deck_from_seed(seed), steps, t3.outcome())).encode(), k
                break
            t2.push(m)
    raise AssertionError("no such game found")


def test_all_readings_tells_row_from_adjacent():
    # legal under the default side-reach=row; under adjacent a side pile may not reach the far king
    data, k = zk_log_needing({}, {"side-reach": "adjacent"}, "zk-8")
    a = analyse(data, "row.json")
    assert a.report is None and a.mode == "every combination" and len(a.trials) == 64
    assert a.trials[0].changed == {} and a.trials[0].report.ok
    alone = {tuple(t.changed.items()): t.report for t in a.trials if len(t.changed) == 1}
    adj = alone[(("side-reach", "adjacent"),)]
    assert adj.verdict == ILLEGAL and adj.first.clause == "zk-8" and adj.first.move == k
    assert a.possible()["side-reach"] == {"row": True, "adjacent": False}
    assert a.exit_code == 0


def test_all_readings_finds_the_non_default_reading_a_log_needs():
    # played under after-deal=unrestricted: illegal under the default reading, legal under its own
    data, k = zk_log_needing({"after-deal": "unrestricted"}, {"after-deal": "restricted"}, "zk-8", eager=1.0)
    d = json.loads(data)
    d["rulings"] = {}  # the record does not say which reading: the default applies
    data = json.dumps(d).encode()
    assert check_bytes(data).first.clause == "zk-8"
    a = analyse(data, "needs.json")
    assert not a.trials[0].report.ok
    legal = a.legal
    assert legal and all(t.rulings["after-deal"] == "unrestricted" for t in legal)
    assert a.possible()["after-deal"] == {"restricted": False, "unrestricted": True}
    assert a.exit_code == 0


def test_all_readings_reports_a_layout_change_as_a_verdict_not_a_crash():
    d = json.loads(base("printex-frame", 2, (), frame="square-20"))
    a = analyse(json.dumps(d).encode(), "sq.json")
    verdicts = {t.changed.get("frame"): t.report for t in a.trials if set(t.changed) == {"frame"}}
    assert set(verdicts) == {"rect-16", "square-16", "square-20-ring"}
    assert all(r.verdict in (MALFORMED, ILLEGAL) for r in verdicts.values())
    assert any(r.first.code == "unknown-pile" for r in verdicts.values())


def test_all_readings_of_a_malformed_log_is_one_verdict():
    a = analyse(b"{", "x.json")
    assert a.report is not None and a.report.verdict == MALFORMED and a.exit_code == 1
    a = analyse(edited(base("exiles"), lambda d: d.update(game="exile")), "y.json")
    assert a.report.first.code == "unknown-game"
