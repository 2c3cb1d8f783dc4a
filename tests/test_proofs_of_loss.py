"""Every game's proofs of loss against what the searches know (the checks: tests/proof_checks.py).

(a) A proof never calls lost a deal some search has won, nor any position of its winning line: a sample
of the won deals of data/stats/results.json here, every one of them in benchmarks/proofs_of_loss.py.
(b) On small positions cut down from real deals, whenever a proof says lost, exhaustive search finds no
win; the proofs must also decide some of the lost ones, and some positions must be won, so that the
comparison could fail.  (c) Each check catches a proof broken on purpose.
"""

from __future__ import annotations

import random

import pytest

from replay.games import create
from replay.games import exiles as EX
from replay.games import napoleons_square as NS
from replay.games import printex_frame as PF
from replay.games import zwarta_kolumna as ZK
from replay.solver.search import profile_for
from tests.proof_checks import (before_the_end, check_against_search, check_won_lines, cut_down, end_positions,
                                proofs_of, end_game, in_the_last_pass_with, walk_to, won_deals)

#: won deals asked per form (the first ones of the data file)
SAMPLE = 1


@pytest.mark.parametrize("label, game, seeds, budgets", [pytest.param(*w, id=w[0]) for w in won_deals()
                                                         if proofs_of(w[1])])
def test_no_proof_fires_on_a_won_deal_or_its_winning_line(label, game, seeds, budgets):
    found = None
    for seed in seeds[:3]:  # the player may have changed since the data file was made: the next won deal
        found = check_won_lines(label, game, [seed], out=found, budgets=budgets)
        if found.deals >= SAMPLE:
            break
    assert not found.fired, found.fired
    assert found.deals >= 1 and found.positions > found.deals, found


def test_every_won_deal_is_proved_nothing_at_the_root():
    """The cheap half of (a), for every won deal of the data file: no proof fires on the deal itself."""
    asked = 0
    for label, game, seeds, _ in won_deals():
        proofs = proofs_of(game)
        for seed in seeds:
            t = game.new_table(game.deck_from_seed(seed))
            for proof in proofs:
                assert not proof(t), f"{label} seed {seed}: {proof.__name__}"
                asked += 1
    assert asked > 500


def _printex_end_game(game, rng: random.Random, piles: int = 3, in_the_stock: bool = False):
    """A position of the third laying-out near the end, from a real deal's cards: each suit's ace foundation
    built up and its king foundation built down to random heights, the cards left on ``piles`` random
    piles and the stock (or, ``in_the_stock``, all in the stock before the first deal of the laying-out)."""
    return end_game(game, rng.randrange(1, 10_000), rng, (10, 11, 12, 13, 13, 13, 13, 13, 13, 13), piles,
                    in_the_stock)


def _printex_second_layout_end(game, rng: random.Random, piles: int, deck_out: bool = True) -> object:
    """A position of the second laying-out near the end: :func:`_printex_end_game`'s foundations and cards on
    ``piles`` random piles and, unless ``deck_out``, in the deck (a deal or more still to come); the rest of the
    game is the end of this laying-out, the gathering and the third."""
    t = _printex_end_game(game, rng, piles)
    stock = t.piles[game.stock]
    spread = [p for p in game.by_role["tableau"] if t.piles[p]] or [game.by_role["tableau"][0]]
    while stock and (deck_out or len(stock) > 8):
        t.piles[rng.choice(spread)].append(stock.pop())
    t.passes, t.rounds = PF.PASSES - 1, rng.randint(1, 6)
    return t


def _printex_deck_through_a_corner(game, rng: random.Random) -> object:
    """A position of the second laying-out with one to three deals still to come: foundations built to random
    heights from a real deal's cards, the rest mostly in the deck in an order the foundations take one after
    another (in half of them wholly so, and the first of them on a corner: fed through that corner by its
    refills, all of it may go home before any deal), a few cards on piles, a few cards swapped.  Many are won
    through the corner's refills, many lost by what the deals lay: both kinds of end a deal to come makes."""
    from replay.engine import cards as C

    clean = rng.random() < 0.5
    t = end_game(game, rng.randrange(1, 10_000), rng, (6, 7, 8, 9, 10, 11), 0, True)
    pool = list(t.piles[game.stock])
    tops = {f: t.piles[f][-1] for f in game.foundations}
    chain = []
    while pool:
        takers = {c: f for f in game.foundations for c in pool
                  if C.suit_of(c) == C.suit_of(tops[f]) and C.rank_of(c) == C.rank_of(tops[f]) + game.fdir[f]}
        if not takers or (not clean and rng.random() < 0.04):
            break
        card = rng.choice(sorted(takers))
        pool.remove(card)
        tops[takers[card]] = card
        chain.append(card)
    rng.shuffle(pool)
    tableau = game.by_role["tableau"]
    side = pool[:rng.randint(0, min(len(pool), 2 if clean else 12))]
    for card in side:
        t.piles[rng.choice(tableau)].append(card)
    order = chain + pool[len(side):]
    for _ in range(rng.randint(0, 1 if clean else 3)):
        i, j = rng.randrange(len(order)), rng.randrange(len(order))
        order[i], order[j] = order[j], order[i]
    if order:
        t.piles[min(game.options["corners"])] = [order.pop(0)]
    keep = len(order) if clean else rng.randint(10, 32)
    for card in order[keep:]:
        t.piles[rng.choice(tableau)].append(card)
    t.piles[game.stock] = order[:keep][::-1]  # the next card last
    t.passes, t.rounds = PF.PASSES - 1, rng.randint(1, 5)
    return t


#: the positions each proof of the printex frame is held to exhaustive search on: the last laying-out's end
#: (the side cards' proof and the relaxation), the second's end (the kept cards' proof)
PRINTEX_POSITIONS = {
    "a_side_card_of_the_third_layout_reaches_no_foundation": "third",
    "a_card_the_third_layout_cannot_free": "third",
    "a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it": "second",
    "every_end_of_the_second_layout_strands_a_card": "second",
}


@pytest.mark.parametrize("variants, rulings", [((), {}), ((), {"frame": "rect-16"}),
                                               ((), {"foundation-arrangement": "suit-columns"}),
                                               ((), {"gather-order": "piles-top-first"})])
def test_printex_frame_proofs_agree_with_exhaustive_search(variants, rulings):
    game = create(PF.ID, variants, rulings)
    rng = random.Random(29)
    third = [_printex_end_game(game, rng, in_the_stock=i % 3 == 0) for i in range(120)]
    second = [_printex_second_layout_end(game, rng, piles=rng.randint(4, 12), deck_out=i % 2 == 0) for i in range(160)]
    for proof in proofs_of(game):
        positions = {"third": third, "second": second}[PRINTEX_POSITIONS[proof.__name__]]
        found = check_against_search(game, positions, (proof,))
        assert not found.wrong, found.wrong
        silent = proof is PF.every_end_of_the_second_layout_strands_a_card and (
            rulings.get("frame") == "rect-16" or rulings.get("gather-order") == "piles-top-first")
        assert found.won >= 5 and (found.decided == 0 if silent else found.decided >= 3), (proof.__name__, found)


@pytest.mark.parametrize("rulings", [{}, {"frame": "square-20"}, {"corner-refill": "every-card"}])
def test_the_second_layouts_ends_proof_agrees_with_exhaustive_search_with_deals_to_come(rulings):
    """The proof of the second laying-out's ends where one to three deals are still to come (the other test's
    positions have one at most): never lost where a search wins, and deciding lost positions with two deals or
    more to come, where the deals' cards may fall in many ways."""
    game = create(PF.ID, (), rulings)
    rng = random.Random(41)
    positions = [_printex_deck_through_a_corner(game, rng) for _ in range(70)]
    proof = PF.every_end_of_the_second_layout_strands_a_card
    found = check_against_search(game, positions, (proof,), nodes=200_000)
    assert not found.wrong, found.wrong
    assert found.won >= 15 and found.decided >= 10, found
    later = len(game.options["later_deal"])
    assert sum(len(t.piles[game.stock]) > later and bool(proof(t)) for t in positions) >= 5


def test_the_second_layouts_ends_proof_is_caught_when_it_forgets_that_cards_leave(monkeypatch):
    """(c) Taken to keep every card now on the piles until the gathering (the pass's fixpoint forgotten), the
    proof calls lost positions whose pile cards go home, and the check against exhaustive search catches it."""
    game = create(PF.ID)
    rng = random.Random(41)
    positions = [_printex_second_layout_end(game, rng, piles=rng.randint(4, 12), deck_out=i % 2 == 0)
                 for i in range(60)]
    real = PF._kept_until_the_gathering

    def every_card_stays(t, facts=None):
        kept = real(t, facts)
        return kept and ({p: len(t.piles[p]) for p in kept[0]}, kept[1])

    monkeypatch.setattr(PF, "_kept_until_the_gathering", every_card_stays)
    assert check_against_search(game, positions, (PF.every_end_of_the_second_layout_strands_a_card,),
                                nodes=200_000).wrong


def test_the_side_cards_proof_waits_for_the_third_layout_and_its_variants():
    rng = random.Random(5)
    for variants in ((), ("any-pile-after-third-deal",), ("cztery-katy",)):
        game = create(PF.ID, variants)
        fired = 0
        for _ in range(30):
            t = _printex_end_game(game, rng)
            fired += bool(PF.a_side_card_of_the_third_layout_reaches_no_foundation(t))
            t.passes = 2
            assert PF.a_side_card_of_the_third_layout_reaches_no_foundation(t) is None
        assert bool(fired) == (not variants)


@pytest.mark.parametrize("rulings", [{}, {"foundations": "eight-aces"}, {"thirteenth-packet": "spread"}])
def test_exiles_proof_agrees_with_exhaustive_search(rulings):
    """Positions of real deals a few moves before a random game of them ends (most are lost, some won), and
    real deals' last passes with most cards taken home (won, most of them)."""
    game = create(EX.ID, rulings=rulings)
    positions = [*before_the_end(game, range(1, 60), back=(1, 25)), *end_positions(game, range(1, 15), (12, 30))]
    found = check_against_search(game, positions, nodes=50_000)
    assert not found.wrong, found.wrong
    assert found.won >= 5 and found.lost >= 20 and found.decided >= 1, found


def _napoleon_positions(game, seeds, pack_left: int = 0):
    """Positions cut down from real deals of Napoleon's Square: each deal walked at random until the pack
    holds ``pack_left`` cards or fewer (0: it is out), then most cards taken home (:func:`cut_down`), 10 to 30
    left (14 to 30 with cards in the pack, which the cutting may take)."""
    least = 14 if pack_left else 10
    for seed in seeds:
        t = walk_to(game, seed, lambda t: t.rounds > 0 and len(t.piles[game.stock]) <= pack_left)
        if t is not None:
            yield cut_down(t, random.Random(seed), random.Random(-seed).randint(least, 30))


@pytest.mark.parametrize("rulings", [{}, {"take-back": "allowed"}, {"sequence-moves": "whole-sequence"},
                                     {"talon-to-square": "forbidden"}])
def test_napoleons_square_proof_agrees_with_exhaustive_search(rulings):
    """(b) for "a card that can never come home": positions of real deals with the pack out and with a few
    cards still in it, most cards taken home (some won, some lost), under the readings its fixpoint follows
    apart (cards brought back from the foundations, married runs carried away, no marriage from the talon)."""
    game = create(NS.ID, rulings=rulings)
    positions = [*_napoleon_positions(game, range(1, 60)), *_napoleon_positions(game, range(100, 160), pack_left=6)]
    found = check_against_search(game, positions, nodes=200_000)
    assert not found.wrong, found.wrong
    assert found.won >= 20 and found.lost >= 10 and found.decided >= 10, found
    if not rulings:  # (c) on the same positions, a proof that takes a card under another on the talon for buried
        talon = game.options["talon"]

        def buries_the_talon(t):
            return NS.a_card_that_can_never_come_home_loses(t) or (
                "a card under another on the talon" if len(t.piles[talon]) > 1 else None)

        assert check_against_search(game, positions, (buries_the_talon,), nodes=200_000).wrong


@pytest.mark.parametrize("variants, rulings", [((), {}), (("chaldejski",), {"after-deal": "unrestricted"})])
def test_zwarta_kolumna_last_pass_proof_agrees_with_exhaustive_search(variants, rulings):
    """(b) for "a card the third laying-out cannot free": positions of the third laying-out near its end, from
    real deals' foundations built to random heights, the cards left on six to twelve piles (a quarter of them
    in the stock, before the laying-out's first deal); and (c) the check catches the proof with a pile's cards
    taken to reach no foundation."""
    from replay.engine.common import next_in_suit
    from replay.engine.proofs import a_card_the_last_pass_cannot_free

    game = create(ZK.ID, variants, rulings)
    rng = random.Random(29)
    positions = [end_game(game, rng.randrange(1, 10_000), rng, heights, rng.randint(*piles), i % 4 == 0)
                 for heights, piles in (((9, 10, 11, 12, 13, 13), (6, 12)), ((10, 11, 12, 13, 13, 13, 13), (8, 12)))
                 for i in range(100)]
    proof = ZK.a_card_the_third_layout_cannot_free
    found = check_against_search(game, positions, (proof,), nodes=100_000)
    assert not found.wrong, found.wrong
    assert found.won >= 10 and found.lost >= 20 and found.decided >= 10, found
    deal = game.options["deal"]

    def piles_reach_nothing(t):
        return a_card_the_last_pass_cannot_free(t, lambda place, f: place is None, lambda j: deal[j % len(deal)],
                                                next_in_suit)

    assert check_against_search(game, positions, (piles_reach_nothing,), nodes=100_000).wrong


def test_the_checks_catch_a_broken_proof():
    """(c) A proof that calls lost what it should not is caught by both checks."""
    def always(t):
        return "broken on purpose"

    def ignores_spaces(t):  # the exiles proof with every packet taken to block its cards for ever
        return EX.a_card_the_last_deal_cannot_bring_home(t) or (
            "a packet" if t.passes >= t.game.setup.max_passes and not t.piles[t.game.stock] else None)

    label, game, seeds, _ = next(w for w in won_deals() if w[1].id == EX.ID)
    assert check_won_lines(label, game, seeds[:1], (always,)).fired
    assert check_won_lines(label, game, seeds[:1], (ignores_spaces,)).fired
    positions = list(end_positions(game, range(1, 20), cards_left=(12, 30)))
    assert check_against_search(game, positions, (ignores_spaces,)).wrong


def test_a_walk_into_the_last_pass_stops_there():
    game = create(EX.ID)
    t = walk_to(game, 3, in_the_last_pass_with(game, 104))
    assert t is not None and t.passes == game.setup.max_passes and not t.piles[game.stock]
    assert profile_for(game).root_dead_ends == (EX.a_card_the_last_deal_cannot_bring_home,)


def test_the_verdict_names_the_proof_that_settled_it():
    """A proof at the root names itself; an exhaustive search names itself and its reductions, through the
    portfolio too (replay.solver.nested.play), and in the result's plain data."""
    from replay.solver.nested import play
    from replay.solver.search import UNWINNABLE, Budget, solve

    game = create("napoleons-square")
    r = play(game, deck=game.deck_from_seed(28), budget=Budget(nodes=10))
    assert r.status == UNWINNABLE and r.proved_by == "a card that can never come home" and r.proof
    game = create(PF.ID)
    for seed in range(1, 40):
        r = play(game, deck=game.deck_from_seed(seed), budget=Budget(nodes=100_000))
        if r.status == UNWINNABLE:
            break
    assert r.status == UNWINNABLE and r.proof is None and r.method == "portfolio"
    assert r.proved_by == ("exhaustive search (a card on a side of the frame reaching no foundation that takes it, "
                           "in the third laying-out at every position, a card the second laying-out keeps for a side "
                           "of the third that cannot take it at every position, every way the second laying-out can "
                           "end strands a card in the third laying-out's first deal at every position)")
    assert r.as_dict()["proved_by"] == r.proved_by
    assert solve(game, deck=game.deck_from_seed(seed), budget=Budget(nodes=5)).proved_by is None  # unknown


def test_a_card_of_the_pack_may_be_married_from_the_talon_in_napoleons_square_proof():
    """The table's winning line of Napoleon's Square seed 7 (first won at 10^7): the fixpoint proof once said
    "3S in p1 can never reach a foundation" at two of its positions, for it left the cards of the pack out of
    marriage onto the square, which they make from the talon they are turned onto."""
    from replay.games.catalog import create
    from tests.proof_checks import check_won_lines

    game = create("napoleons-square", (), {})
    got = check_won_lines("napoleons-square", game, [7], nodes=10_000_000)
    assert got.deals == 1 and got.positions > 200
    assert not got.fired, got.fired


def test_the_kept_cards_proof_is_caught_when_it_forgets_that_cards_leave(monkeypatch):
    """(c) The kept cards' proof with every card taken to stay until the gathering (the fixpoint's ``leaves``
    dropped) calls won positions of the second laying-out lost, and the check against search sees it."""
    from replay.engine import proofs as P

    def nothing_leaves(*args):
        facts = P.what_the_rest_of_the_pass_can_do(*args)
        if facts is not None:
            facts.leaves = [False] * len(facts.leaves)
        return facts

    game = create(PF.ID)
    rng = random.Random(29)
    positions = [_printex_second_layout_end(game, rng, piles=rng.randint(4, 12)) for _ in range(60)]
    proof = PF.a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it
    assert not check_against_search(game, positions, (proof,)).wrong
    monkeypatch.setattr(PF, "what_the_rest_of_the_pass_can_do", nothing_leaves)
    assert check_against_search(game, positions, (proof,)).wrong


def _kept_bounds_broken(game, bounds, seeds=range(1, 41)) -> tuple[list[tuple], int, int]:
    """Random games of the second laying-out (from its first deal to its gathering): at every position, ``bounds``
    gives each pile's least and most cards at the gathering; what it got wrong (a pile outside its bounds, or a
    card counted as staying that left), how many positions were checked and how many staying cards."""
    wrong: list[tuple] = []
    checked = staying = 0
    for seed in seeds:
        rng = random.Random(seed)
        t = walk_to(game, seed, lambda t: t.passes == PF.PASSES - 1 and t.rounds >= 1)
        if t is None:
            continue
        seen = []
        while True:
            if t.rounds and t.passes == PF.PASSES - 1:
                least, most = bounds(t)
                seen.append((least, most, {p: list(t.piles[p][:least[p]]) for p in least}))
            moves = t.legal_moves()
            redeal = [m for m in moves if m.type == "redeal"]
            if redeal or not moves:
                break
            home = [m for m in moves if m.dst in game.foundations]
            t.push(rng.choice(home) if home and rng.random() < 0.8 else rng.choice(moves))
        if not redeal:
            continue
        for least, most, kept in seen:
            for p in least:
                if not least[p] <= len(t.piles[p]) <= most[p] or t.piles[p][:least[p]] != kept[p]:
                    wrong.append((seed, t.name(p), least[p], len(t.piles[p]), most[p]))
                staying += least[p]
            checked += 1
    return wrong, checked, staying


@pytest.mark.parametrize("rulings", [{}, {"frame": "rect-16"}, {"frame": "square-16"},
                                     {"corner-refill": "every-card", "frame": "rect-16"},
                                     {"gather-order": "piles-top-first"}, {"deal-timing": "when-stuck"}])
def test_the_kept_cards_bounds_hold_until_the_gathering(rulings):
    """The kept cards' proof with the deck not yet out (exhaustive search cannot reach such positions of real
    deals): along random games of the second laying-out, at every position the cards each pile holds when the
    piles are gathered lie between the bounds :func:`_kept_until_the_gathering` gave, and every card it counted
    as staying is still in its place then."""
    wrong, checked, staying = _kept_bounds_broken(create(PF.ID, (), rulings), PF._kept_until_the_gathering)
    assert not wrong, wrong[:5]
    assert checked > 200 and staying > 1000, (checked, staying)


def test_the_kept_cards_bounds_are_caught_when_a_deal_is_forgotten():
    """The same check catches bounds that leave out the deals still to come (a pile's most: its cards now)."""
    def forgetful(t):
        least, most = PF._kept_until_the_gathering(t)
        return least, {p: len(t.piles[p]) for p in most}

    wrong, checked, _ = _kept_bounds_broken(create(PF.ID), forgetful, seeds=range(1, 11))
    assert checked and wrong