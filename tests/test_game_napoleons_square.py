"""napoleons-square (text 003, rules I-III and play): one test or more per normative clause.

Twelve packets p1-p12 form three sides of a square round eight ace foundations f1-f8; the pack
(``stock``) is turned one card at a time onto the ``talon`` after the first deal.  Expectations come
from the text, Cadogan's continuation (see amb-ns-missing-continuation) and the register's rulings.
"""

from __future__ import annotations

import pytest

from replay.engine import cards as C
from replay.engine.game import Move
from replay.engine.registry import excuses
from replay.games import create
from tests.conftest import cited, mv, table_with, top_codes

clause = pytest.mark.clause

PACKETS = [f"p{k}" for k in range(1, 13)]
FOUNDATIONS = [f"f{k}" for k in range(1, 9)]


def run(base: str, n: int) -> list[str]:
    card = C.parse(base)
    return [C.code(C.make(C.rank_of(card) + k, C.suit_of(card))) for k in range(n)]


# ----------------------------------------------------------------------------- the deal


@clause("ns-7")
def test_twelve_packets_of_four_cards_dealt_together_form_three_sides_of_a_square(ns):
    deck = ns.deck_from_seed(9)
    t = ns.new_table(deck)
    assert cited(t, mv(ns, src="p1", dst="f1")) == "ns-7"  # nothing is played before the square is dealt
    t.apply(mv(ns, "deal"))
    for k, name in enumerate(ns.layout.spec.deal):
        assert top_codes(t, name) == [C.code(c) for c in deck[4 * k:4 * k + 4]]
    assert len(t.piles[ns.stock]) == 104 - 48
    assert all(not t.piles[ns.layout.index(f)] for f in FOUNDATIONS)
    lay = ns.layout
    packets = [lay.index(p) for p in PACKETS]
    top, bottom = min(lay.rows[i] for i in packets), max(lay.rows[i] for i in packets)
    left, right = min(lay.cols[i] for i in packets), max(lay.cols[i] for i in packets)
    for i in packets:  # on the left, top or right side; none inside the open fourth side
        assert lay.cols[i] in (left, right) or lay.rows[i] == top, lay.names[i]
    for name in FOUNDATIONS:  # room in the middle for eight aces
        f = lay.index(name)
        assert top < lay.rows[f] < bottom and left < lay.cols[f] < right
        assert ns.fbase[f] == C.ACE


@clause("ns-1")
def test_only_the_uppermost_cards_of_the_packets_are_available(ns):
    t = table_with(ns, {"p1": ["AS", "9D"]})
    assert cited(t, mv(ns, src="p1", dst="f1")) == "ns-8"  # the 9D on top is the card played; the ace is covered
    assert cited(table_with(ns, {"p1": ["9D", "AS"]}), mv(ns, src="p1", dst="f1")) is None
    assert cited(table_with(ns, {}), mv(ns, src="p1", dst="f1")) == "ns-1"  # an empty packet gives nothing
    pair = table_with(ns, {"p1": ["9S", "8S"], "p2": ["TS"]})
    assert cited(pair, mv(ns, src="p1", dst="p2", count=2)) == "ns-1"  # one card at a time (single-card)
    talon = table_with(ns, {"p2": ["TS"], "talon": ["8S", "9S"]})
    assert cited(talon, mv(ns, src="talon", dst="p2", count=2)) == "ns-1"


@clause("ns-2")
def test_taking_off_the_upper_cards_releases_the_lower_ones(ns):
    t = table_with(ns, {"p1": ["AS", "AH"]})
    t.apply(mv(ns, src="p1", dst="f1"))
    assert cited(t, mv(ns, src="p1", dst="f2")) is None
    t = table_with(ns, {"p1": ["7D", "9S", "8S"], "p2": ["9S"], "p3": ["TS"]})
    assert cited(t, mv(ns, src="p1", dst="p3")) == "ns-11"  # the 8S on top moves, not the 9S
    t.apply(mv(ns, src="p1", dst="p2"))  # the 8S married onto the other packet …
    assert top_codes(t, "p1") == ["7D", "9S"]
    assert cited(t, mv(ns, src="p1", dst="p3")) is None  # … releases the 9S


@clause("ns-3")
def test_examining_the_whole_square_is_excused_and_every_card_can_be_seen(ns):
    e = excuses()["ns-3"]
    assert e.module == "replay.games.napoleons_square" and len(e.reason) > 20
    t = ns.new_table(ns.deck_from_seed(4))
    t.apply(mv(ns, "deal"))
    snap = t.snapshot()["piles"]
    for p in PACKETS:
        assert snap[p] == top_codes(t, p) and len(snap[p]) == 4  # the whole square is in view


@clause("ns-4")
def test_a_space_is_occupied_by_one_card_from_the_talon_or_the_pack(ns):
    t = table_with(ns, {"p1": ["AS"], "p2": ["9D"], "talon": ["5C"]}, stock=["7H", "8H"])
    t.apply(mv(ns, src="p1", dst="f1"))  # the whole packet is gone: a space
    assert cited(t, mv(ns, src="talon", dst="p1")) is None
    assert cited(t, mv(ns, src="stock", dst="p1")) is None
    assert cited(t, mv(ns, src="p2", dst="p1")) == "ns-4"  # not from the square (space-fill talon-or-pack)
    assert cited(t, mv(ns, src="stock", dst="p2")) == "ns-4"  # the pack goes straight only into a space
    t.apply(mv(ns, src="stock", dst="p1"))
    assert top_codes(t, "p1") == ["7H"] and [C.code(c) for c in t.piles[ns.stock]] == ["8H"]


@clause("ns-4")
def test_space_fill_any_card_reading_lets_the_square_fill_its_spaces():
    g = create("napoleons-square", rulings={"space-fill": "any-card"})
    t = table_with(g, {"p2": ["9D"], "talon": ["5C"]}, stock=["7H"])
    assert cited(t, mv(g, src="p2", dst="p1")) is None
    assert cited(t, mv(g, src="talon", dst="p1")) is None
    seq = create("napoleons-square", rulings={"space-fill": "any-card", "sequence-moves": "whole-sequence"})
    t = table_with(seq, {"p2": ["9D", "8D"]})
    assert cited(t, mv(seq, src="p2", dst="p1", count=2)) is None  # a whole married run into the space
    talon_only = create("napoleons-square", rulings={"sequence-moves": "whole-sequence"})
    t = table_with(talon_only, {"p2": ["9D", "8D"]})
    assert cited(t, mv(talon_only, src="p2", dst="p1", count=2)) == "ns-4"


@clause("ns-5")
def test_a_space_need_not_be_filled_until_the_player_chooses(ns):
    t = table_with(ns, {"p1": [], "p2": ["9S"], "p3": ["8S"], "talon": ["5C"]}, stock=["7H"])
    assert cited(t, mv(ns, src="talon", dst="p1")) is None  # the space could be filled now …
    assert cited(t, mv(ns, "deal")) is None  # … but the next card may be turned instead
    assert cited(t, mv(ns, src="p3", dst="p2")) is None  # or a marriage made
    t.apply(mv(ns, "deal"))
    t.apply(mv(ns, src="p3", dst="p2"))
    assert not t.piles[ns.layout.index("p1")]  # the space is still open
    assert cited(t, mv(ns, src="talon", dst="p1")) is None


@clause("ns-6")
def test_the_foundations_follow_suit(ns):
    t = table_with(ns, {"p1": ["2H"], "p2": ["2S"], "talon": ["2C"]}, foundations={"f1": ["AS"]})
    assert cited(t, mv(ns, src="p1", dst="f1")) == "ns-6"  # the next rank, but not the suit
    assert cited(t, mv(ns, src="talon", dst="f1")) == "ns-6"
    assert cited(t, mv(ns, src="p2", dst="f1")) is None


@clause("ns-8")
def test_aces_are_the_foundations_and_ascend_in_order_to_the_kings(ns):
    t = table_with(ns, {"p1": ["2S"], "p2": ["AS"], "p3": ["AS"], "p4": ["3S"], "p5": ["KD"]})
    assert cited(t, mv(ns, src="p1", dst="f1")) == "ns-8"  # only an ace founds
    assert cited(t, mv(ns, src="p5", dst="f1")) == "ns-8"
    t.apply(mv(ns, src="p2", dst="f1"))
    assert cited(t, mv(ns, src="p3", dst="f2")) is None  # two packs: the second ace of spades founds too
    assert cited(t, mv(ns, src="p4", dst="f1")) == "ns-8"  # 3 after the ace: out of order
    t.apply(mv(ns, src="p1", dst="f1"))
    assert cited(t, mv(ns, src="p4", dst="f1")) is None
    full = table_with(ns, {"p1": ["AS"]}, foundations={"f1": run("AS", 13)})
    assert cited(full, mv(ns, src="p1", dst="f1")) == "ns-8"  # the king ends it
    assert len(FOUNDATIONS) == 8 and all(ns.fbase[ns.layout.index(f)] == C.ACE for f in FOUNDATIONS)


@clause("ns-9")
def test_an_ace_on_the_surface_of_the_square_goes_to_its_place(ns):
    for p in PACKETS:
        t = table_with(ns, {p: ["7C", "AH"]})
        for f in FOUNDATIONS:
            assert cited(t, mv(ns, src=p, dst=f)) is None
    t = table_with(ns, {"p6": ["AH"]}, foundations={"f1": ["AS"]})
    assert cited(t, mv(ns, src="p6", dst="f1")) == "ns-8"  # its place is an empty one
    t.apply(mv(ns, src="p6", dst="f2"))
    assert top_codes(t, "f2") == ["AH"]


@clause("ns-10")
def test_every_other_suitable_card_follows_from_the_square_or_the_talon(ns):
    t = table_with(ns, {"p9": ["3S"], "talon": ["4S"]}, foundations={"f3": ["AS", "2S"]})
    assert cited(t, mv(ns, src="talon", dst="f3")) == "ns-8"  # the 3 first
    assert cited(t, mv(ns, src="p9", dst="f3")) is None
    t.apply(mv(ns, src="p9", dst="f3"))
    assert cited(t, mv(ns, src="talon", dst="f3")) is None
    assert cited(t, mv(ns, src="stock", dst="f3")) == "ns-1"  # the pack's card is turned first


@clause("ns-11")
def test_marriages_in_descending_order_in_suit_with_the_cards_of_the_square(ns):
    t = table_with(ns, {"p1": ["9S"], "p2": ["8S"], "p3": ["TS"], "p4": ["8H"], "p5": ["7S"]})
    assert cited(t, mv(ns, src="p2", dst="p1")) is None  # 8 on 9, spades
    assert cited(t, mv(ns, src="p3", dst="p1")) == "ns-11"  # ascending
    assert cited(t, mv(ns, src="p4", dst="p1")) == "ns-11"  # another suit (marriage-suit in-suit)
    assert cited(t, mv(ns, src="p5", dst="p1")) == "ns-11"  # two ranks down
    t.apply(mv(ns, src="p2", dst="p1"))
    assert cited(t, mv(ns, src="p5", dst="p1")) is None
    any_suit = create("napoleons-square", rulings={"marriage-suit": "any-suit"})
    t = table_with(any_suit, {"p1": ["9S"], "p3": ["TS"], "p4": ["8H"]})
    assert cited(t, mv(any_suit, src="p4", dst="p1")) is None
    assert cited(t, mv(any_suit, src="p3", dst="p1")) == "ns-11"  # still descending


@clause("ns-11", "ns-1")
def test_sequence_moves_whole_sequence_reading_moves_a_married_run_at_once():
    g = create("napoleons-square", rulings={"sequence-moves": "whole-sequence"})
    t = table_with(g, {"p1": ["4C", "TS", "9S", "8S"], "p2": ["JS"], "p3": ["TS"], "p4": ["9D", "7D"], "p5": ["8D"]})
    assert cited(t, mv(g, src="p1", dst="p2", count=3)) is None  # T 9 8 onto the jack
    assert cited(t, mv(g, src="p1", dst="p3", count=2)) is None  # 9 8 onto the other ten
    assert cited(t, mv(g, src="p1", dst="p2", count=2)) == "ns-11"  # the 9 does not marry the jack
    assert cited(t, mv(g, src="p1", dst="p2", count=4)) == "ns-11"  # the 4C is not part of the run
    assert cited(t, mv(g, src="p4", dst="p5", count=2)) == "ns-11"  # 9D 7D is no marriage
    assert cited(t, mv(g, src="p1", dst="p2", count=5)) == "ns-1"  # p1 holds four
    t.apply(mv(g, src="p1", dst="p2", count=3))
    assert top_codes(t, "p2") == ["JS", "TS", "9S", "8S"] and top_codes(t, "p1") == ["4C"]
    single = create("napoleons-square")
    t = table_with(single, {"p1": ["TS", "9S", "8S"], "p3": ["TS"]})
    assert cited(t, mv(single, src="p1", dst="p3", count=2)) == "ns-1"


@clause("ns-11")
def test_talon_to_square_reading_decides_whether_the_talon_marries_onto_the_square():
    allowed = create("napoleons-square")
    t = table_with(allowed, {"p1": ["9S"], "talon": ["8H", "8S"]})
    assert cited(t, mv(allowed, src="talon", dst="p1")) is None
    t = table_with(allowed, {"p1": ["9S"], "talon": ["8S", "8H"]})
    assert cited(t, mv(allowed, src="talon", dst="p1")) == "ns-11"
    forbidden = create("napoleons-square", rulings={"talon-to-square": "forbidden"})
    t = table_with(forbidden, {"p1": ["9S"], "talon": ["8H", "8S"]})
    assert cited(t, mv(forbidden, src="talon", dst="p1")) == "ns-11"
    assert cited(t, mv(forbidden, src="talon", dst="p2")) is None  # a space still takes it (rule II)


@clause("ns-8")
def test_take_back_reading_lets_a_foundation_card_but_not_its_ace_come_back_to_the_square(ns):
    back = create("napoleons-square", rulings={"take-back": "allowed"})
    spots = {"p1": ["8S"], "p2": ["KD"], "p3": ["4S"]}
    found = {"f1": run("AS", 7), "f2": ["AH"]}
    t = table_with(back, spots, foundations=found)
    assert cited(t, mv(back, src="f1", dst="p1")) is None  # 7S marries onto 8S
    assert cited(t, mv(back, src="f1", dst="p2")) == "ns-11"  # not onto the KD
    assert cited(t, mv(back, src="f1", dst="p4")) == "ns-4"  # a space takes the talon or the pack only
    assert cited(t, mv(back, src="f2", dst="p4")) == "ns-8"  # the ace is the foundation itself
    assert cited(t, mv(back, src="f1", dst="p1", count=2)) == "ns-1"  # one card at a time
    t.apply(mv(back, src="f1", dst="p1"))
    assert top_codes(t, "p1") == ["8S", "7S"] and len(t.piles[back.layout.index("f1")]) == 6
    any_card = create("napoleons-square", rulings={"take-back": "allowed", "space-fill": "any-card"})
    assert cited(table_with(any_card, spots, foundations=found), mv(any_card, src="f1", dst="p4")) is None
    t = table_with(ns, spots, foundations=found)  # the default: the foundations keep their cards
    assert cited(t, mv(ns, src="f1", dst="p1")) == "ns-8"
    assert "amb-ns-no-return" in t.violation(mv(ns, src="f1", dst="p1"))[1]


def _lost_unless_a_jack_comes_back(game):
    """The hearts' 10 lies on the 9 in p1, over the one jack out of the foundations; the other jack tops f3."""
    full = {"f1": run("AS", 13), "f2": run("AS", 13), "f5": run("AD", 13), "f6": run("AD", 13),
            "f7": run("AC", 13), "f8": run("AC", 13), "f3": run("AH", 11), "f4": run("AH", 8)}
    return table_with(game, {"p1": ["JH", "9H", "TH"], "p2": ["QH"], "p3": ["QH"], "p4": ["KH"], "p5": ["KH"]},
                      foundations=full, stock=[])


@clause("ns-8")
def test_the_search_wins_with_a_card_taken_back_and_proves_the_loss_without_it():
    """Only a jack of hearts brought back from f3 onto a queen can take the 10 off the 9: the proof of loss
    sees the loss under the default and must not claim it under take-back=allowed; the search, with its
    safe moves and symmetries, finds the win, as the plain search does."""
    from replay.solver.search import UNWINNABLE, WON, Budget, Profile, solve

    never = create("napoleons-square")
    lost = solve(never, _lost_unless_a_jack_comes_back(never), budget=Budget(nodes=10_000))
    assert lost.status == UNWINNABLE and lost.nodes == 0 and "in p1 can never reach" in lost.proof
    back = create("napoleons-square", rulings={"take-back": "allowed"})
    for profile in (None, Profile()):
        t = _lost_unless_a_jack_comes_back(back)
        r = solve(back, t, budget=Budget(nodes=10_000), profile=profile)
        assert r.status == WON and r.proof is None
        assert any(back.roles[m.src] == "foundation" and back.roles[m.dst] == "tableau" for m in r.line)
        for m in r.line:
            t.apply(m)
        assert t.is_won()


# ----------------------------------------------------------------------------- the pack


@clause("ns-4", "ns-7")
def test_the_pack_is_turned_one_card_at_a_time_onto_the_talon_with_no_redeal(ns):
    deck = ns.deck_from_seed(13)
    t = ns.new_table(deck)
    t.apply(mv(ns, "deal"))
    talon = ns.layout.index("talon")
    for k, card in enumerate(deck[48:], start=1):
        t.apply(mv(ns, "deal"))
        assert t.piles[talon][-1] == card and len(t.piles[talon]) == k
    assert not t.piles[ns.stock]
    assert cited(t, mv(ns, "deal")) == "ns-4"  # the pack is out; no re-deal
    assert "redeal" not in ns.book.types
    assert t.violation(Move("redeal")) is not None


@clause("ns-4")
def test_a_space_filled_straight_from_the_pack_takes_the_next_card(ns):
    t = table_with(ns, {"p7": []}, stock=["QD", "3C"])
    t.apply(mv(ns, src="stock", dst="p7"))
    assert top_codes(t, "p7") == ["QD"]
    t.apply(mv(ns, "deal"))
    assert top_codes(t, "talon") == ["3C"]


def test_won_when_all_104_cards_are_on_the_eight_foundations(ns):
    t = table_with(ns, {}, stock=[])
    suits = "SHDC"
    for k, f in enumerate(FOUNDATIONS):
        t.piles[ns.layout.index(f)] = [C.parse(c) for c in run("A" + suits[k % 4], 13)]
    assert t.outcome() == "won"
    t.piles[ns.layout.index("f8")].pop()
    t.piles[ns.layout.index("p1")] = [C.parse("KC")]
    assert cited(t, mv(ns, src="p1", dst="f8")) is None
    assert t.outcome() == "unfinished"
