"""printex-frame: the frame patience of text 000 (PRINTEX).

Two packs.  Four aces and four kings are laid out as foundations; a frame of
piles with four numbered corners is dealt round them.  Corner cards may go to
any foundation, the others only to a foundation in their own row or column.
After each deal of sixteen the player makes what moves they can; when the
deck is out the piles are gathered and dealt again; three deals in all.

The shape of the frame and the place of each foundation stood in the lost
figure: they are the layouts and arrangements the rulings ``frame`` and
``foundation-arrangement`` select (see the register, ``amb-pf-frame``).
"""

from __future__ import annotations

from typing import Any

from replay.engine import cards as C
from replay.engine.common import (deal_round, deck_not_dealt_out, fits_foundation, foundation_accepts, gather,
                                  gathering_allowed, next_any_suit, next_in_suit, other_moves_come_first,
                                  rank_neighbours, stock_empty, top_card_only)
from replay.engine.edition import Edition
from replay.engine.game import Game, Move, Reason, Rule, RuleBook, Setup, Table
from replay.engine.kernel import FastCore
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, Layout
from replay.engine.proofs import PassFacts, proof_of_loss, what_the_rest_of_the_pass_can_do
from replay.engine.registry import effect, procedure, rule

ID = "printex-frame"
VARIANTS = ("any-pile-after-third-deal", "cztery-katy")
#: the variants whose third laying-out frees the piles (pf-21: any pile to any foundation; pf-22: building), so
#: that a side card is not lost there for want of a foundation of its line: the side cards' and the kept cards'
#: proofs are not asked with them
FREEING_VARIANTS = frozenset(VARIANTS)
#: the readings of each ruling this module turns into behaviour (checked against the register)
RULINGS = {
    "frame": ("rect-16", "square-16", "square-20", "square-20-ring"),
    "foundation-arrangement": ("alternating", "suit-columns"),
    "corner-refill": ("when-empty", "every-card"),
    "deal-timing": ("player-choice", "when-stuck"),
    "gather-order": ("piles-bottom-first", "piles-top-first"),
    "third-layout": ("third-pass", "third-round"),
    "build-suit": ("in-suit", "any-suit"),
}
PASSES = 3


def combination_problem(variants: frozenset[str]) -> str | None:
    """Both variants may be played together; nothing to refuse."""
    return None


# ----------------------------------------------------------------------------- setup


@procedure("pf-1", "pf-2", "pf-3")
def take_out_the_bases(layout: Layout, arrangement: str) -> dict[int, int]:
    """Two full packs; an ace and a king of each suit, red and black interleaved, are the foundations.

    The arrangement (which suit lies where) is the reading of ``foundation-arrangement``.
    """
    return {f: C.make(layout.base_rank(f), suit) for f, suit in layout.arrangement(arrangement).items()}


# ----------------------------------------------------------------------------- dealing


@procedure("pf-5", "pf-6", "pf-15", "pf-18")
def deal_sixteen_on_the_same_positions(t: Table, m: Move) -> None:
    """The corners 1-4 first, then the sides from corner 1 to 2, 2 to 3, 3 to 4 and 4 to 1.

    Later deals cover the same positions, the cards already there and the places left empty.
    """
    order = t.game.options["first_deal"] if t.rounds == 0 else t.game.options["later_deal"]
    deal_round(t, order)


@rule("pf-18", table_wide=True)
def deal_only_while_the_deck_lasts(t: Table, m: Move) -> Reason:
    """We deal "to the end of the deck": no deal from an empty stock."""
    return deck_not_dealt_out(t)


@rule("pf-15", "pf-19", table_wide=True)
def deal_only_when_no_move_remains(t: Table, m: Move) -> Reason:
    """(ruling deal-timing = when-stuck) The next deal comes after all possible moves are made."""
    return other_moves_come_first(t, m, "pf-19")


@rule("pf-19", "pf-20", table_wide=True)
def gather_only_when_the_deck_is_out(t: Table, m: Move) -> Reason:
    """The piles are gathered after all cards are dealt, and the deck is laid out three times at most."""
    return gathering_allowed(t, PASSES, "pf-20", "three layouts of the deck are all the game allows")


@procedure("pf-19")
def gather_in_dealing_order_without_shuffling(t: Table, m: Move) -> None:
    """The remaining cards are taken up in the order of dealing and laid out again, unshuffled."""
    gather(t, t.game.options["gather"], t.game.options["bottom_first"])


# ----------------------------------------------------------------------------- playing


@rule("pf-7", "pf-17", per_source=True)
def only_the_top_card_is_playable(t: Table, m: Move) -> Reason:
    """Cards lying round the foundations are playable; the one beneath becomes playable when the top one goes.

    Only the top card: pf-17 says so (the register reads pf-7 with it, amb-pf-playable-all), so pf-17 is cited.
    """
    why = top_card_only(t, m, register="amb-pf-playable-all")
    return ("pf-17", why) if why else None


@rule("pf-4", "pf-16", accepts=foundation_accepts)
def foundations_build_in_suit(t: Table, m: Move) -> Reason:
    """On the aces in suit upward (2, 3, …), on the kings in suit downward (Q, J, 10, …)."""
    card = t.piles[m.src][-1]
    if fits_foundation(t, m.dst, card):
        return None
    return lambda: f"{C.code(card)} does not follow on {t.name(m.dst)} ({_describe_foundation(t, m.dst)})"


@rule("pf-10", "pf-8", "pf-9", "pf-11", "pf-12")
def position_decides_which_foundations_a_card_reaches(t: Table, m: Move) -> str | None:
    """Corner cards 1-4 go to any foundation; the others only to one in their own row or column."""
    if t.game.options["reach"][m.src][m.dst]:
        return None
    return (f"{t.name(m.src)} is not a corner and does not lie in the row or column of {t.name(m.dst)}")


@rule("pf-21", "pf-10", "pf-8")
def any_pile_plays_after_the_third_deal(t: Table, m: Move) -> Reason:
    """(variant) After the third laying-out of the deck, cards may go to the foundations from any pile."""
    if stock_empty(t) and t.passes >= PASSES:
        return None
    why = position_decides_which_foundations_a_card_reaches(t, m)
    return ("pf-10", why) if why else None


@rule("pf-22", table_wide=True)
def build_only_after_the_third_layout(t: Table, m: Move) -> str | None:
    """(variant cztery kąty) Building on the table is allowed only after the third laying-out."""
    if t.game.options["third_layout"](t):
        return None
    return "building on the table is allowed only after the third laying-out"


def _cards_that_build_on(t: Table, d: int) -> tuple[int, ...]:
    """What build_one_card_on_another_up_or_down may let onto ``d``: nothing on a space, else a card
    one rank above or below its top card (the ruling may ask for the same suit too)."""
    return rank_neighbours(t, d) or ()


@rule("pf-22", accepts=_cards_that_build_on)
def build_one_card_on_another_up_or_down(t: Table, m: Move) -> Reason:
    """(variant cztery kąty) One playable card onto another, one rank up or down (in suit, by ruling)."""
    under = t.top(m.dst)
    if under < 0:
        return f"{t.name(m.dst)} is empty: a card goes onto another card, not into a space"
    card = t.piles[m.src][-1]
    o = t.game.options
    if o["builds"](under, card):
        return None
    allows, other = o["build_other"]  # the other reading of the ruling, and what it would say of this card
    tail = f"; {other}" if allows is not None and allows(under, card) else ""
    return lambda: f"{C.code(card)} is not one rank above or below {C.code(under)}{o['build_note']}{tail}"


@effect("pf-13", "pf-14")
def corners_are_replaced_from_the_deck(t: Table, m: Move) -> None:
    """A corner card that is moved is replaced by the next card of the deck; other piles are not."""
    if m.src not in t.game.options["corners"]:
        return
    stock = t.piles[t.game.stock]
    if stock and (t.game.options["refill_every_card"] or not t.piles[m.src]):
        t.piles[m.src].append(stock.pop())


# ----------------------------------------------------------------------------- assembly


def _describe_foundation(t: Table, f: int) -> str:
    top = t.top(f)
    return f"top {C.code(top)}" if top >= 0 else "empty"


def _third_pass_dealt(t: Table) -> bool:
    return t.passes >= PASSES and stock_empty(t)


def _third_round_dealt(t: Table) -> bool:
    return t.rounds >= 3


def _other_build_reading(edition: Edition, in_suit: bool) -> tuple[Any, str]:
    """Under the reading in-suit of ``build-suit``: the test of the other reading and the clause a refusal adds
    when that reading would allow the card (as the base game's refusal names the variant that allows building)."""
    if not in_suit:
        return None, ""
    ruling = edition.rulings_of(ID)["build-suit"]
    other = next(r for r in ruling.readings if r != "in-suit")
    return next_any_suit, (f"the ruling {ruling.name}={other} (the register, {ruling.ambiguity}) allows a card of "
                           "any suit")


def build(variants: frozenset[str], readings: dict[str, str], edition: Edition) -> Setup:
    """The table and rule book of one instance of the game."""
    spec = edition.layout(ID, readings["frame"])
    layout = Layout.from_spec(spec)
    corners = layout.corners()
    found = layout.foundations
    n = len(layout.names)
    reach = [[False] * n for _ in range(n)]
    for p in layout.tableau:
        for f in found:
            reach[p][f] = p in corners or layout.in_line(p, f)
    in_suit = readings["build-suit"] == "in-suit"
    options: dict[str, Any] = {
        "first_deal": layout.order("deal"),
        "later_deal": layout.order("later_deal"),
        "gather": layout.order("gather"),
        "bottom_first": readings["gather-order"] == "piles-bottom-first",
        "corners": corners,
        "reach": reach,
        "refill_every_card": readings["corner-refill"] == "every-card",
        "third_layout": _third_pass_dealt if readings["third-layout"] == "third-pass" else _third_round_dealt,
        "builds": next_in_suit if in_suit else next_any_suit,
        "build_note": " of the same suit" if in_suit else "",
        "build_other": _other_build_reading(edition, in_suit),
    }

    book = RuleBook(layout)
    deal_rules: list[Rule] = [deal_only_while_the_deck_lasts]
    redeal_rules: list[Rule] = [gather_only_when_the_deck_is_out]
    if readings["deal-timing"] == "when-stuck":
        deal_rules.append(deal_only_when_no_move_remains)
        redeal_rules.append(deal_only_when_no_move_remains)
    book.allow("deal", rules=deal_rules, perform=deal_sixteen_on_the_same_positions)
    book.allow("redeal", rules=redeal_rules, perform=gather_in_dealing_order_without_shuffling)
    reach_rule = (any_pile_plays_after_the_third_deal if "any-pile-after-third-deal" in variants
                  else position_decides_which_foundations_a_card_reaches)
    book.allow("move", TABLEAU, FOUNDATION,
               [only_the_top_card_is_playable, foundations_build_in_suit, reach_rule],
               after=[corners_are_replaced_from_the_deck])
    if "cztery-katy" in variants:
        book.allow("move", TABLEAU, TABLEAU,
                   [only_the_top_card_is_playable, build_only_after_the_third_layout,
                    build_one_card_on_another_up_or_down],
                   after=[corners_are_replaced_from_the_deck])
    book.refuse_others("move", "pf-8")
    if "cztery-katy" not in variants:  # a card goes from a pile onto a foundation only (pf-9, pf-10)
        book.refuse_others("move", "pf-10", src_role=TABLEAU, dst_role=TABLEAU, register="amb-pf-target-foundation",
                           note="a card goes from a pile only onto a foundation; the variant cztery-katy "
                                "(pf-22) allows building on the table after the third laying-out")
    book.refuse_others("move", "pf-4", src_role=FOUNDATION, register="amb-pf-no-return")
    book.refuse_others("move", "pf-18", src_role=STOCK)  # the deck's cards are laid out, not moved
    book.refuse_others("deal", "pf-15")
    book.refuse_others("redeal", "pf-19")
    return Setup(layout=layout, book=book, bases=take_out_the_bases(layout, readings["foundation-arrangement"]),
                 max_passes=PASSES, options=options)


# ----------------------------------------------------------------------------- for the solver


@proof_of_loss("a card the third laying-out cannot free")
def a_card_the_third_layout_cannot_free(t: Table) -> str | None:
    """Lost when, in the third laying-out, some card can never reach a foundation.

    The common proof (:func:`replay.engine.proofs.a_card_the_last_pass_cannot_free`, whose docstring
    argues its soundness) told this game's facts: a card on a pile reaches the foundations its
    position gives (pf-8 to pf-12; all of them with the variant any-pile-after-third-deal, which
    frees every pile in this pass); a card of the stock lands where the first deal of the laying-out
    puts it when that deal is still to come (:func:`_lands_in_the_first_deal`), and may otherwise land
    anywhere (a moved corner is refilled from the deck, pf-13, pf-14), so it is then taken to reach
    every foundation; cards are built on one
    another only in the cztery-katy variant (pf-22), one rank up or down (in suit, by ruling).
    """
    from replay.engine.proofs import a_card_the_last_pass_cannot_free

    g = t.game
    if t.passes < PASSES:
        return None
    reach, anywhere = g.options["reach"], "any-pile-after-third-deal" in g.variants

    def reaches(place: int | None, f: int) -> bool:
        return place is None or anywhere or reach[place][f]

    builds = g.options["builds"] if "cztery-katy" in g.variants else None
    return a_card_the_last_pass_cannot_free(t, reaches, _lands_in_the_first_deal(t), builds)


def _lands_in_the_first_deal(t: Table) -> Any:
    """Where the ``j``-th next card of the stock will lie: before the first deal of a laying-out (round 0:
    every pile was gathered, the deal is the only move) the cards go out in the order of the first deal
    (pf-5, pf-6), so the first ``len(first)`` land where it says; the rest, and every card once play has
    begun (a moved corner takes the next card, pf-13), are not known (None)."""
    first = t.game.options["first_deal"]
    if t.rounds:
        return lambda j: None
    return lambda j: first[j] if j < len(first) else None


def _still_takes(t: Table, p: int, card: int) -> bool:
    """Whether some foundation that pile ``p`` reaches (pf-8 … pf-12) may still take ``card``: one of its suit
    whose top has not passed the card's rank in its direction (a foundation gives nothing back, pf-4)."""
    g = t.game
    reach = g.options["reach"][p]
    rank, suit = C.rank_of(card), C.suit_of(card)
    for f in g.foundations:
        if reach[f] and t.fsuit[f] == suit:
            pile = t.piles[f]
            if not pile or (rank - C.rank_of(pile[-1])) * g.fdir[f] > 0:
                return True
    return False


@proof_of_loss("a card on a side of the frame reaching no foundation that takes it, in the third laying-out")
def a_side_card_of_the_third_layout_reaches_no_foundation(t: Table) -> str | None:
    """Lost when, in the third laying-out, a card lies (or the first deal will lay it) on a side pile that
    reaches no foundation which may still take it.

    Soundness.  In the third laying-out nothing is gathered again (pf-20).  A card on a side pile (not a
    corner) leaves it only for a foundation in the pile's row or column (pf-8 to pf-12: no building
    without cztery-katy, nothing onto another pile), and a foundation takes a card only while its top has
    not passed it (in suit, one way, pf-4, pf-16).  So a card on a side whose foundations of its suit have
    passed it, or that reaches none of its suit, never goes home, and every card must.  Before the first
    deal of the laying-out (round 0, every pile empty, the deal the only move) the stock's next cards go
    to the places of the first deal in order (pf-5, pf-6): the same holds of the cards it lays on sides.
    Disabled with the variant any-pile-after-third-deal (every pile reaches every foundation once the
    deck is out, pf-21) and with cztery-katy (cards move between piles, pf-22); sound under every reading
    of every ruling (they change the frame, the reach and the timing, all read here from the layout).
    The fast core's kernel (``replay/fastcore/games/printex_frame.c``, ``lost``) is its twin, held equal
    by tests/test_fastcore_printex_frame.py (``test_kernel_follows_the_engine_on_random_walks``).
    """
    g = t.game
    if t.passes < PASSES or g.variants & FREEING_VARIANTS:
        return None
    corners = g.options["corners"]
    for p in g.by_role[TABLEAU]:
        if p not in corners:
            for card in t.piles[p]:
                if not _still_takes(t, p, card):
                    return f"{C.code(card)} on {t.name(p)} can never reach a foundation that takes it"
    if not t.rounds:
        stock = t.piles[g.stock]
        for j, p in enumerate(g.options["first_deal"][:len(stock)]):
            if p not in corners and not _still_takes(t, p, stock[-1 - j]):
                return (f"{C.code(stock[-1 - j])} will be dealt onto {t.name(p)} and can never reach a "
                        f"foundation that takes it")
    return None


def _the_rest_of_the_laying_out(t: Table) -> PassFacts | None:
    """The least fixpoint of the pass's relaxation over the rest of this laying-out, the deck's cards taken to
    land anywhere (:func:`replay.engine.proofs.what_the_rest_of_the_pass_can_do`); None when some foundation has
    no suit yet.  Its instances: the tableau piles' cards, pile by pile from the bottom, then the deck's, the
    next card first."""
    reach = t.game.options["reach"]
    return what_the_rest_of_the_pass_can_do(t, lambda place, f: place is None or reach[place][f], lambda j: None,
                                            None)


def _kept_until_the_gathering(t: Table, facts: PassFacts | None = None) -> tuple[dict[int, int], dict[int, int]] | None:
    """The least and the most cards each tableau pile may hold when the piles are next gathered (steps (1) of
    :func:`a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it`): at least its cards up to the
    topmost one the pass's fixpoint never lets leave, at most its cards now and one for each deal left that
    names it (and a corner's refill).  None when some foundation has no suit yet."""
    g = t.game
    facts = facts or _the_rest_of_the_laying_out(t)
    if facts is None:
        return None
    later, corners = g.options["later_deal"], g.options["corners"]
    deals = -(-len(t.piles[g.stock]) // len(later))  # the deals left at most
    most = {p: len(t.piles[p]) + (deals * later.count(p) + (p in corners) if deals else 0)
            for p in g.by_role[TABLEAU]}
    least = dict.fromkeys(most, 0)
    at = 0
    for p in g.by_role[TABLEAU]:
        for h in range(len(t.piles[p])):
            if not facts.leaves[at + h]:
                least[p] = h + 1
        at += len(t.piles[p])
    return least, most


@proof_of_loss("a card the second laying-out keeps for a side of the third that cannot take it")
def a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it(t: Table) -> str | None:
    """Lost when, in the second laying-out, some card can no longer leave its pile before the piles are gathered,
    and wherever the gathering may put it the first deal of the third laying-out lays it on a side pile that
    reaches no foundation which may still take it.

    Soundness.  Three steps, each only dropping conditions of the real game.  (1) Which cards can leave before
    the gathering: the least fixpoint of the last pass's relaxation
    (:func:`replay.engine.proofs.what_the_rest_of_the_pass_can_do`, whose docstring argues it) over the rest of
    this laying-out, the cards still in the deck taken to land anywhere, which holds every card that leaves in
    any real game (a card dealt later onto a pile only adds a condition to the leaving of the cards beneath
    it); a card it never lets leave stays, and so does every card beneath it (a pile gives cards only from its
    top).  So each pile ends the laying-out with at least the cards up to its topmost staying card, and at most
    the cards it has now and one more for each deal left in which the later deals' order names it (each deal
    lays one card on each pile it names until the deck runs out, so no more deals are left than the deck's
    cards over the piles named, rounded up: pf-15, pf-18), and a corner one more (a moved corner takes the
    deck's next card, pf-13, pf-14, and is never left longer than before its move but when it was empty).
    (2) Where the gathering puts a staying card: the piles are taken up in the order of dealing, each from the
    bottom (or the top, by ruling), into the new deck (pf-19), so its place in the deck lies between the sums of
    the least and of the most cards the piles before it may keep, plus its height (or its own pile's count less
    its height).  The first deal of the third laying-out is the only move before it (a laying-out begins with
    its first deal, pf-5, pf-6) and lays the deck's first cards on the piles in the order of the first deal, so
    a card whose every possible place falls in that deal lands on one of a known set of piles.  (3) When each of
    those is a side pile that reaches no foundation of the card's suit that has not passed it now, the card
    never goes home: in the third laying-out nothing is gathered again and a side card leaves only for a
    foundation of its row or column (the side cards' proof,
    :func:`a_side_card_of_the_third_layout_reaches_no_foundation`), and a foundation that has passed it now has
    passed it then (pf-4, pf-16).  Every card must go home, and none does from a pile once the third laying-out
    is out of reach.  Not asked before the laying-out's first deal (nothing lies on the piles then) nor with the
    variants any-pile-after-third-deal and cztery-katy (the third laying-out frees the piles, pf-21, pf-22).
    The fast core's kernel (``replay/fastcore/games/printex_frame.c``, ``kept_card_lost``) is its twin, held
    equal by tests/test_fastcore_printex_frame.py.
    """
    g = t.game
    if t.passes != PASSES - 1 or not t.rounds or g.variants & FREEING_VARIANTS:
        return None
    kept = _kept_until_the_gathering(t)
    if kept is None:
        return None
    least, most = kept
    corners = g.options["corners"]
    first, bottom_first = g.options["first_deal"], g.options["bottom_first"]
    lo = hi = 0
    for p in g.options["gather"]:
        if lo >= len(first):
            break
        for h in range(least[p]):  # the cards that stay: h from the bottom
            if bottom_first:
                a, b = lo + h, hi + h
            else:
                a, b = lo + least[p] - 1 - h, hi + most[p] - 1 - h
            if b >= len(first):
                continue
            card = t.piles[p][h]
            if all(first[j] not in corners and not _still_takes(t, first[j], card) for j in range(a, b + 1)):
                return (f"{C.code(card)} stays on {t.name(p)} until the gathering and the third laying-out's first "
                        f"deal lays it on {' or '.join(sorted({t.name(first[j]) for j in range(a, b + 1)}))}, "
                        f"which can never take it")
        lo += least[p]
        hi += most[p]
    return None


#: the most deals of the second laying-out still to come for :func:`every_end_of_the_second_layout_strands_a_card`
#: to be asked (each one more widens what a pile may end with; measured: benchmarks/README.md)
ENDS_DEALS_LEFT = 3


def _what_the_deck_may_still_lay(n: int, per_deal: int, corner_cards_home: int,
                                 goes_home: list[bool]) -> tuple[list[set[int]], set[int]]:
    """Where the deals to come may begin in the deck (for the ``i``-th deal to come, the indices of the deck's
    cards, 0 the next, it may begin with) and which of its cards a refill may take, in every way the deck's ``n``
    cards may leave it before the gathering.

    A deal lays the deck's next cards on the piles of the later deals in order, one each while the deck lasts
    (pf-15, pf-18); before each deal (and before the gathering) any number of corners may be moved and refilled,
    each taking the deck's next card (pf-13, pf-14).  The ``k``-th refill follows the ``k``-th move of a card off a
    corner: a card on a corner now that may go home in the rest of the laying-out (``corner_cards_home`` of them)
    or a card an earlier refill put there that may (``goes_home`` of the deck's cards, from the pass's fixpoint,
    which holds every card that goes home in a real game); a refill whose move no such card can make is not a way
    the game can go.  So a way is a walk over states (deals made, the deck's next index, the moves off corners
    still to be had: the corner cards that may go home, plus the refilled ones that may, less the refills so
    far), each step a deal or a refill (only with a move to be had); every state a walk reaches leads on to the
    deck's end (deal on), so the walks' states are the ways' states, and they are few: the search over them
    replaces a list of the ways, which grows with every deal."""
    starts: list[set[int]] = [set() for _ in range(-(-n // per_deal))]
    refills: set[int] = set()
    todo = [(0, 0, corner_cards_home)]
    seen = set(todo)
    while todo:
        deals, pos, moves = todo.pop()
        if pos == n:
            continue
        starts[deals].add(pos)
        steps = [(deals + 1, pos + min(per_deal, n - pos), moves)]
        if moves:
            refills.add(pos)
            steps.append((deals, pos + 1, moves - 1 + goes_home[pos]))
        for step in steps:
            if step not in seen:
                seen.add(step)
                todo.append(step)
    return starts, refills


@proof_of_loss("every way the second laying-out can end strands a card in the third laying-out's first deal")
def every_end_of_the_second_layout_strands_a_card(t: Table) -> str | None:
    """Lost when, in the second laying-out with at most :data:`ENDS_DEALS_LEFT` deals to come, every way its
    deck can go out and its piles can end leaves a gathered deck whose first cards the third laying-out's first
    deal lays, some of them, on side piles that can never take them.

    Soundness.  Every end of the laying-out a real game can reach is among the ends looked at, so when none of
    them leaves a third laying-out that can be won, none that a real game reaches does.  (1) The deck's cards go
    out by deals and refills only (cards leave the deck no other way, pf-13 to pf-18), in one of the ways
    :func:`_what_the_deck_may_still_lay` follows (its docstring argues that every real one is among them): so the
    card the ``i``-th deal to come lays on a pile is one of those it lays there from some place where it may
    begin, and a card a refill puts on a corner one of those it says a refill may take.  A corner must not be named by the later
    deals (in the frames of sixteen it is: a card dealt on a corner may be moved and refilled too, which that
    list does not follow), else nothing is said.  (2) A pile ends with a bottom part of its cards now, at least
    up to the topmost card the pass's fixpoint never lets leave (:func:`_kept_until_the_gathering`: a pile gives
    cards only from its top), and on it some of the cards dealt onto it, in the order of the deals (each that
    stays covers what is beneath it; one that goes home may let more of those beneath go too), and on a corner
    at most one card a refill put there (a corner the later deals do not name holds one card a refill replaces:
    pf-13, pf-14).  (3) The piles are taken up in the order of dealing, each from the bottom (pf-19), and the
    third laying-out's first deal, its only first move (pf-5, pf-6), lays the new deck's first cards on the
    piles of the first deal in order: a card laid on a side pile that reaches no foundation which may still take
    it never goes home there (the side cards' proof, :func:`a_side_card_of_the_third_layout_reaches_no_foundation`:
    nothing is gathered after the third laying-out, pf-20, and a foundation that has passed a card now has
    passed it then, pf-4, pf-16).  Over the piles in the order of gathering, the places of the new deck where
    the next pile may begin are followed (a set of at most as many places as the first deal has), and a pile's
    ending is kept only if each of its cards that falls in the first deal falls on a corner or on a side pile
    that may take it (:func:`_an_end_lays_the_first_deal_well`).  When no place is left before the end of the
    first deal, every end strands a card, and the game is lost.  Each step only widens what a real game can do
    (the deals' cards are taken from every way at once), so the proof is sound; measured, it decides 95% of the
    positions that following each way apart would (benchmarks/README.md), at a small part of the cost.
    Not asked with the piles taken up top first (gather-order), nor with the variants any-pile-after-third-deal
    and cztery-katy (the third laying-out frees the piles, pf-21, pf-22), nor before the laying-out's first deal.
    The fast core's kernel (``replay/fastcore/games/printex_frame.c``, ``ends_lost``) is its twin, held equal by
    tests/test_fastcore_printex_frame.py (``test_kernel_matches_the_engine_on_random_walks``).
    """
    g = t.game
    o = g.options
    if t.passes != PASSES - 1 or not t.rounds or g.variants & FREEING_VARIANTS or not o["bottom_first"]:
        return None
    later, first, corners = o["later_deal"], o["first_deal"], o["corners"]
    stock = t.piles[g.stock]
    n = len(stock)
    if -(-n // len(later)) > ENDS_DEALS_LEFT or any(c in later for c in corners) or len(first) > 31:
        return None  # (a first deal of more than 31 places is beyond the fast core's set of places, a 32-bit word)
    facts = _the_rest_of_the_laying_out(t)
    kept = _kept_until_the_gathering(t, facts) if facts is not None else None
    if facts is None or kept is None:
        return None
    at = 0
    corner_cards_home = 0
    for p in g.by_role[TABLEAU]:
        if p in corners:
            corner_cards_home += sum(facts.goes_home(at + h) for h in range(len(t.piles[p])))
        at += len(t.piles[p])
    if corner_cards_home > 63:
        return None  # (beyond the fast core's set of the moves off corners still to be had, a 64-bit word)
    goes_home = [facts.goes_home(at + i) for i in range(n)]
    nxt = stock[::-1]
    starts, refills = _what_the_deck_may_still_lay(n, len(later), corner_cards_home, goes_home)
    dealt: dict[tuple[int, int], set[int]] = {}  # (pile, the deal's place among those to come): the cards it may lay
    for i, begins in enumerate(starts):
        for start in begins:
            for k in range(min(len(later), n - start)):
                dealt.setdefault((later[k], i), set()).add(nxt[start + k])
    refilled = {nxt[j] for j in refills}
    if _an_end_lays_the_first_deal_well(t, kept[0], dealt, refilled):
        return None
    return ("whichever way the deck goes out before the gathering, every way the piles can end lays a card of the "
            "third laying-out's first deal on a side pile that can never take it")


def _an_end_lays_the_first_deal_well(t: Table, least: dict[int, int], dealt: dict[tuple[int, int], set[int]],
                                     refilled: set[int]) -> bool:
    """Step (3) of :func:`every_end_of_the_second_layout_strands_a_card`: whether some ending of the piles (each a
    bottom part of its cards, at least ``least``, then onto it from each deal to come in order nothing or one of
    the cards ``dealt[(pile, deal)]``, or on a corner one of ``refilled``) gathers into a deck whose cards in the
    third laying-out's first deal each fall on a corner or on a side pile that may take them, or which ends
    before the first deal does."""
    g = t.game
    first, corners = g.options["first_deal"], g.options["corners"]
    nfirst = len(first)
    takes: dict[tuple[int, int], bool] = {}

    def well(j: int, card: int) -> bool:
        if j >= nfirst or first[j] in corners:
            return True
        ok = takes.get((j, card))
        if ok is None:
            ok = takes[(j, card)] = _still_takes(t, first[j], card)
        return ok

    places = {0}
    for p in g.options["gather"]:
        pile = t.piles[p]
        after: set[int] = set()
        for pre in places:
            good = 0
            while good < len(pile) and well(pre + good, pile[good]):
                good += 1
            for m in range(least[p], good + 1):
                ends = {pre + m}
                for i in range(ENDS_DEALS_LEFT):
                    cards = dealt.get((p, i), ())
                    ends |= {e + 1 for e in ends if any(well(e, c) for c in cards)}
                if p in corners and any(well(pre + m, c) for c in refilled):
                    ends.add(pre + m + 1)
                if max(ends) >= nfirst:
                    return True
                after |= ends
        places = after
        if not places:
            return False
    return True


def depth_first_share(g: Game) -> float | None:
    """Nine tenths of a portfolio's budget for the depth-first search wherever the side cards' proof is asked at
    every position (every variant but any-pile-after-third-deal and cztery-katy, which turn it off), the
    solver's default tenth elsewhere.

    Measured (benchmarks/README.md, "The printex frame's share"): as our text reads it, the nested search won
    no deal at any budget of the table (0 of 200 at 10^7 positions) and every deal the table settled was
    proved lost by the depth-first search, whose exhaustive search the side cards' proof prunes; at 10^7
    positions of depth-first search alone, 8 of 12 deals the table had left open at 10^7 (a tenth of it
    depth-first) were proved lost.  In the two variants the proof is off: at nine tenths and 10^7 positions,
    any-pile lost the wins its nested search finds (none of the table's first three won deals was won again
    at the budget that won it) and proved one deal of eight lost, and cztery-katy settled none of four, so
    they keep the tenth.
    """
    return None if g.variants & FREEING_VARIANTS else 0.9


#: what the rules make sound to reduce in a search (read by replay.solver.search.profile_for): the side
#: cards' proof and the kept cards' proof at every position (in the fast core too); the relaxation at the root
#: only: at every position of the third laying-out it pruned a third to a half of them but cost six times the
#: search's speed (about 1.5 ms a position in Python) and decided no more deals (benchmarks/README.md); the
#: portfolio's share of the depth-first search, :func:`depth_first_share`
SEARCH: dict[str, Any] = {"dead_ends": (a_side_card_of_the_third_layout_reaches_no_foundation,
                                        a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it,
                                        every_end_of_the_second_layout_strands_a_card),
                          "root_dead_ends": (a_card_the_third_layout_cannot_free,),
                          "portfolio_dfs_share": depth_first_share}


# ----------------------------------------------------------------------------- for the solver: the fast core


def _fast_options(g: Game) -> list[int]:
    """The options as replay/fastcore/games/printex_frame.c reads them: the rulings and variants, the
    three orders of the layout (first deal, later deals, gathering), then per container its corner flag
    (bit 0) and the foundations its position reaches (bit 1 + the foundation's place in g.foundations), then the
    limit of the proof of the second laying-out's ends (:data:`ENDS_DEALS_LEFT`)."""
    o = g.options
    when_stuck = deal_only_when_no_move_remains in g.book.entries[("deal", None, None)].rules
    flags = []
    for i in range(len(g.roles)):
        bits = int(i in o["corners"])
        for k, f in enumerate(g.foundations):
            bits |= int(bool(o["reach"][i][f])) << (1 + k)
        flags.append(bits)
    orders: list[int] = []
    for which in ("first_deal", "later_deal", "gather"):
        orders += [len(o[which]), *o[which]]
    return [int(o["refill_every_card"]), int(o["third_layout"] is _third_round_dealt),
            int(o["builds"] is next_in_suit), int("any-pile-after-third-deal" in g.variants),
            int("cztery-katy" in g.variants), int(when_stuck), int(o["bottom_first"]),
            PASSES, *orders, *flags, ENDS_DEALS_LEFT]


def _fast_vars(t: Table) -> bytes | None:
    """``Table.vars`` as bytes: this game keeps none (None, the Python search, if some ever appear)."""
    return b"" if not t.vars else None


def _fast_vars_back(b: bytes) -> dict[str, Any]:
    return {}


SEARCH["fast_core"] = FastCore(kernel="printex-frame", options=_fast_options, vars=_fast_vars,
                               vars_back=_fast_vars_back)
