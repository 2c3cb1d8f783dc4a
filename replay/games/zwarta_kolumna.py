"""zwarta-kolumna: "Zwarta kolumna" of text 001, Lady Cadogan's Four Corners.

Two packs.  Four aces and four kings lie in the middle; twelve piles are
dealt round them in the order of the lost figure.  Cards at the corners
(positions 1, 6, 7, 12) may go to any foundation, the others only to a
foundation in their own row.  Places freed by moves are not refilled; the
next twelve cards cover the same positions.  Once the whole deck is dealt,
playable cards may be built on one another in suit, up or down.  The piles
are gathered from position 1 to 12 and dealt again; three deals in all.

Variants: ``fill-from-any-pile``, ``chaldejski`` (ace and king of a suit in
one row), ``gotycki-zamek`` (bases placed during the deal) and
``cztery-katy`` (bases placed from anywhere, each replaced from a corner).
"""

from __future__ import annotations

from typing import Any

from replay.engine import cards as C
from replay.engine.common import (deal_round, deck_not_dealt_out, fits_foundation, foundation_accepts, gather,
                                  gathering_allowed, next_in_suit, other_moves_come_first, stock_empty,
                                  suit_neighbours, top_card_only)
from replay.engine.edition import Edition
from replay.engine.game import Move, Reason, Rule, RuleBook, Setup, Table
from replay.engine.kernel import FastCore
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, Layout
from replay.engine.proofs import proof_of_loss
from replay.engine.registry import effect, procedure, rule

ID = "zwarta-kolumna"
VARIANTS = ("fill-from-any-pile", "chaldejski", "gotycki-zamek", "cztery-katy")
RULINGS = {
    "deal-order": ("columns-down", "snake"),
    "side-reach": ("row", "adjacent"),
    "after-deal": ("restricted", "unrestricted"),
    "deal-timing": ("player-choice", "when-stuck"),
    "gather-order": ("piles-bottom-first", "piles-top-first"),
    "building-from": ("each-pass", "last-pass"),
    "base-placement": ("by-position", "anywhere"),
    "replacement": ("always", "if-empty"),
    "base-timing": ("on-dealing", "as-playable"),
}
PASSES = 3
DEFERRED_BASES = frozenset({"gotycki-zamek", "cztery-katy"})


def combination_problem(variants: frozenset[str]) -> str | None:
    """Refuse gotycki-zamek with cztery-katy: cztery kąty "also" defers the bases and then places them otherwise."""
    if DEFERRED_BASES <= variants:
        return ("gotycki-zamek and cztery-katy cannot be combined: cztery kąty already places the bases during "
                "the deal (“także”, zk-22) and lets them come from anywhere, where gotycki zamek keeps the "
                "other rules identical (zk-21)")
    return None


# ----------------------------------------------------------------------------- setup


@procedure("zk-2", "zk-3", "zk-4", "zk-18")
def take_out_the_bases(layout: Layout, arrangement: str) -> dict[int, int]:
    """Two packs; four aces and four kings of different suits, red and black interleaved, laid face up.

    In the chaldejski variant the ace and the king of each suit lie in one row (arrangement ``chaldejski``).
    """
    return {f: C.make(layout.base_rank(f), suit) for f, suit in layout.arrangement(arrangement).items()}


@procedure("zk-19", "zk-20", "zk-22")
def leave_the_bases_in_the_deck() -> dict[int, int]:
    """(gotycki zamek, cztery kąty) The foundation cards are not taken out first but placed during the deal."""
    return {}


# ----------------------------------------------------------------------------- dealing


@procedure("zk-6", "zk-10", "zk-13")
def deal_twelve_in_the_order_of_the_figure(t: Table, m: Move) -> None:
    """Twelve cards, one on each position 1-12 in the order of the figure, covering what lies there."""
    deal_round(t, t.game.options["deal"])


@rule("zk-13", table_wide=True)
def deal_only_while_the_deck_lasts(t: Table, m: Move) -> Reason:
    """We deal twelve at a time "to the end of the deck"."""
    return deck_not_dealt_out(t)


@rule("zk-10", "zk-11", "zk-15", table_wide=True)
def deal_only_when_no_move_remains(t: Table, m: Move) -> Reason:
    """(ruling deal-timing = when-stuck) The next deal, or the gathering (zk-15), comes after all possible moves."""
    return other_moves_come_first(t, m, "zk-15", gathering="gathering")


@rule("zk-15", "zk-16", table_wide=True)
def gather_only_when_the_deck_is_out(t: Table, m: Move) -> Reason:
    """The piles are gathered after the deck is dealt out; it is laid out three times at most."""
    return gathering_allowed(t, PASSES, "zk-16", "three layouts of the deck are all the game allows")


@procedure("zk-15")
def gather_from_pile_1_to_pile_12(t: Table, m: Move) -> None:
    """The remaining cards are taken up from the pile at position 1 to that at 12 and dealt again unshuffled."""
    gather(t, t.game.options["gather"], t.game.options["bottom_first"])


# ----------------------------------------------------------------------------- playing


@rule("zk-12", per_source=True)
def only_the_top_card_is_playable(t: Table, m: Move) -> str | None:
    """When the top card of a pile is moved, the one beneath may be moved too."""
    return top_card_only(t, m, register="amb-zk-top-card")


@rule("zk-5", "zk-3", accepts=foundation_accepts)
def foundations_build_in_suit(t: Table, m: Move) -> Reason:
    """On the aces in suit upward (2, 3, …), on the kings in suit downward (Q, J, 10, …)."""
    card = t.piles[m.src][-1]
    if fits_foundation(t, m.dst, card):
        return None
    top = t.top(m.dst)
    return lambda: f"{C.code(card)} does not follow on {t.name(m.dst)} ({'top ' + C.code(top) if top >= 0 else 'empty'})"


@rule("zk-8", "zk-7")
def corners_reach_every_foundation_others_only_their_row(t: Table, m: Move) -> str | None:
    """Cards at positions 1, 6, 7, 12 may go to any foundation; others only to one in their horizontal row."""
    if t.game.options["reach"][m.src][m.dst]:
        return None
    if t.game.options["unrestricted_when_dealt"] and stock_empty(t):
        return None
    return f"{t.name(m.src)} is not a corner and {t.name(m.dst)} {t.game.options['beyond_reach']}"


@rule("zk-19", "zk-3", "zk-20")
def one_base_of_each_suit_per_kind(t: Table, m: Move) -> Reason:
    """(bases placed during the deal) The four aces, and the four kings, are of different suits."""
    if t.piles[m.dst]:
        return None
    card = t.piles[m.src][-1]
    kind = t.game.fbase[m.dst]
    for f in t.game.foundations:
        if f != m.dst and t.game.fbase[f] == kind and t.fsuit[f] == C.suit_of(card):
            # zk-3: the four aces, and the four kings, are "of different suits"
            return ("zk-3", f"there is already a foundation of {C.SUIT_NAMES[C.suit_of(card)]} of this kind "
                            f"on {t.name(f)}")
    return None


@rule("zk-18")
def ace_and_king_of_a_suit_share_a_row(t: Table, m: Move) -> str | None:
    """(chaldejski) The ace and the king of one suit lie in one horizontal row."""
    if t.piles[m.dst]:
        return None
    card = t.piles[m.src][-1]
    for f in t.game.options["row_partner"].get(m.dst, ()):
        if t.fsuit[f] >= 0 and t.fsuit[f] != C.suit_of(card):
            return f"{t.name(m.dst)} shares its row with {t.name(f)}, a foundation of another suit"
    return None


@rule("zk-19", "zk-22")
def a_dealt_base_is_placed_at_once(t: Table, m: Move) -> Reason:
    """(ruling base-timing = on-dealing) Foundation cards are taken out as they come: nothing else is done
    while a card that can found a foundation lies uncovered (placing bases, and in cztery kąty the
    replacement from a corner, excepted)."""
    options = t.game.options
    if m.type == "fill" or (m.type == "move" and m.dst in options["found_set"] and not t.piles[m.dst]):
        return None
    piles = t.piles
    for p, placings in options["base_placings"]:  # every pile of the deal, in its order
        pile = piles[p]
        if not pile or (pile[-1] >> 2) not in _BASE_RANKS:
            continue
        # only a foundation founded on the card's rank can take it while empty (zk-5, foundations_build_in_suit):
        # the others are not asked
        for f, placing in placings[pile[-1] >> 2]:
            if not piles[f] and t.game.allows(t, placing):
                # the variant's own clause: zk-19 (gotycki zamek) or zk-22 (cztery kąty)
                clause = "zk-22" if "cztery-katy" in t.game.variants else "zk-19"
                return clause, f"{C.code(pile[-1])} on {t.name(p)} is a foundation card and is placed at once"
    return None


_BASE_RANKS = frozenset({C.ACE, C.KING})


@rule("zk-22", "zk-8")
def bases_come_from_anywhere(t: Table, m: Move) -> Reason:
    """(cztery kąty) Base cards are placed regardless of where they lie; other cards keep to zk-7 and zk-8."""
    if not t.piles[m.dst]:
        return None
    why = corners_reach_every_foundation_others_only_their_row(t, m)
    return ("zk-8", why) if why else None


@rule("zk-9", "zk-17", per_target=True)
def freed_places_are_not_refilled(t: Table, m: Move) -> str | None:
    """Places freed by moves are not filled (unless the fill-from-any-pile variant allows it)."""
    if t.piles[m.dst]:
        return None
    if "fill-from-any-pile" in t.game.variants:
        return None
    return f"{t.name(m.dst)} is a freed place, and freed places are not refilled"


@rule("zk-14", per_target=True)
def building_waits_for_the_whole_deck(t: Table, m: Move) -> str | None:
    """Playable cards may be put on one another only after the whole deck has been dealt."""
    if not t.piles[m.dst]:
        return None  # filling a space is a different rule
    if not stock_empty(t):
        return "cards may be built on one another only once the whole deck is dealt"
    if t.game.options["build_last_pass_only"] and t.passes < PASSES:
        return "under this ruling cards are built on one another only after the third laying-out"
    return None


@rule("zk-14", accepts=suit_neighbours)
def build_in_suit_up_or_down(t: Table, m: Move) -> Reason:
    """One playable card onto another of the same suit, one rank up or down, in any order."""
    under = t.top(m.dst)
    if under < 0:
        return None
    card = t.piles[m.src][-1]
    if next_in_suit(under, card):
        return None
    return lambda: f"{C.code(card)} is not the next card up or down in suit on {C.code(under)}"


@effect("zk-23")
def a_moved_base_is_replaced_from_a_corner(t: Table, m: Move) -> None:
    """(cztery kąty) A base card moved to the foundations is replaced by the top card of a corner pile."""
    if len(t.piles[m.dst]) != 1:
        return  # not a base card
    if t.game.options["replace_if_empty_only"] and t.piles[m.src]:
        return
    if any(t.piles[c] for c in t.game.options["corners"] if c != m.src):
        t.vars["replace"] = t.name(m.src)


@rule("zk-23", table_wide=True)
def a_pending_replacement_comes_first(t: Table, m: Move) -> str | None:
    """(cztery kąty) Once a base card has been taken, its place is refilled before anything else."""
    if t.vars.get("replace") and m.type != "fill":
        return f"the base card taken from {t.vars['replace']} must first be replaced from a corner pile"
    return None


@rule("zk-23")
def replacement_is_the_top_of_another_corner(t: Table, m: Move) -> str | None:
    """(cztery kąty) The replacement is taken from the top of one of the four corner piles."""
    pending = t.vars.get("replace")
    if not pending:
        return "there is no base card to replace"
    if t.name(m.dst) != pending:
        return f"the place to refill is {pending}"
    corners = t.game.options["corners"]
    if m.src not in corners or m.src == m.dst:
        others = [t.name(c) for c in sorted(corners) if c != m.dst and t.piles[c]]  # one has cards: a card is owed
        which = " or ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1 else others) or "a corner"
        if m.src == m.dst:
            return f"the card comes from a corner pile ({which}), not from {pending} itself"
        return f"{t.name(m.src)} is not a corner pile: the card comes from the top of {which}"
    if not t.piles[m.src]:
        return f"{t.name(m.src)} is empty"
    if m.count != 1:
        return "the replacement is one card, from the top of a corner pile"
    return None


@effect("zk-23")
def the_replacement_is_made(t: Table, m: Move) -> None:
    """(cztery kąty) The refilled place is no longer owed a card."""
    t.vars["replace"] = None


# ----------------------------------------------------------------------------- assembly


@procedure("zk-21", "zk-19", "zk-22")
def rules_for_moves_to_the_foundations(variants: frozenset[str], readings: dict[str, str]) -> tuple[list, list]:
    """The rules a move to a foundation must pass, and what follows it, in each variant.

    Gotycki zamek keeps every other rule of the game (zk-21): only the bases' placement is added;
    cztery kąty lets bases come from anywhere and has each replaced from a corner.
    """
    rules = [only_the_top_card_is_playable, foundations_build_in_suit]
    after = []
    if "cztery-katy" in variants:
        rules.append(bases_come_from_anywhere)
        after.append(a_moved_base_is_replaced_from_a_corner)
    elif "gotycki-zamek" in variants and readings["base-placement"] == "anywhere":
        rules.append(bases_come_from_anywhere)
    else:
        rules.append(corners_reach_every_foundation_others_only_their_row)
    if variants & DEFERRED_BASES:
        rules.append(one_base_of_each_suit_per_kind)
        if "chaldejski" in variants:
            rules.append(ace_and_king_of_a_suit_share_a_row)
    return rules, after



def build(variants: frozenset[str], readings: dict[str, str], edition: Edition) -> Setup:
    """The table and rule book of one instance of the game."""
    spec = edition.layout(ID, readings["deal-order"])
    layout = Layout.from_spec(spec)
    corners = layout.corners()
    found = layout.foundations
    n = len(layout.names)
    reach = [[False] * n for _ in range(n)]
    near = layout.adjacent if readings["side-reach"] == "adjacent" else layout.same_row
    for p in layout.tableau:
        for f in found:
            reach[p][f] = p in corners or near(p, f)
    row_partner = {f: tuple(g for g in found if g != f and layout.same_row(f, g)) for f in found}
    options: dict[str, Any] = {
        "deal": layout.order("deal"),
        "gather": layout.order("gather"),
        "bottom_first": readings["gather-order"] == "piles-bottom-first",
        "corners": corners,
        "reach": reach,
        # why a side card cannot reach a foundation, in the words of the reading (ruling side-reach)
        "beyond_reach": "is not the foundation next to it in its row" if readings["side-reach"] == "adjacent"
        else "is not in its row",
        "row_partner": row_partner,
        "unrestricted_when_dealt": readings["after-deal"] == "unrestricted",
        "build_last_pass_only": readings["building-from"] == "last-pass",
        "replace_if_empty_only": readings["replacement"] == "if-empty",
        "found_set": frozenset(found),
        # a_dealt_base_is_placed_at_once: per pile of the deal and rank of a base, the move placing its top card on
        # each foundation founded on that rank, in the foundations' order
        "base_placings": tuple((p, {rank: tuple((f, Move("move", p, f)) for f in found if layout.base_rank(f) == rank)
                                    for rank in _BASE_RANKS}) for p in layout.order("deal")),
    }

    book = RuleBook(layout)
    deal_rules: list[Rule] = [deal_only_while_the_deck_lasts]
    redeal_rules: list[Rule] = [gather_only_when_the_deck_is_out]
    if readings["deal-timing"] == "when-stuck":
        deal_rules.append(deal_only_when_no_move_remains)
        redeal_rules.append(deal_only_when_no_move_remains)
    book.allow("deal", rules=deal_rules, perform=deal_twelve_in_the_order_of_the_figure)
    book.allow("redeal", rules=redeal_rules, perform=gather_from_pile_1_to_pile_12)

    to_foundation, after_foundation = rules_for_moves_to_the_foundations(variants, readings)
    book.allow("move", TABLEAU, FOUNDATION, to_foundation, after=after_foundation)
    book.allow("move", TABLEAU, TABLEAU,
               [only_the_top_card_is_playable, freed_places_are_not_refilled, building_waits_for_the_whole_deck,
                build_in_suit_up_or_down])
    if "cztery-katy" in variants:
        book.allow("fill", TABLEAU, TABLEAU, [replacement_is_the_top_of_another_corner],
                   after=[the_replacement_is_made])
        book.before_every_move(a_pending_replacement_comes_first, except_types=("fill",))
    if variants & DEFERRED_BASES and readings["base-timing"] == "on-dealing":
        book.before_every_move(a_dealt_base_is_placed_at_once, except_types=("fill",))
    book.refuse_others("move", "zk-8")
    book.refuse_others("move", "zk-5", src_role=FOUNDATION, register="amb-zk-no-return")
    book.refuse_others("move", "zk-13", src_role=STOCK)  # the deck's cards are laid out, not moved
    book.refuse_others("deal", "zk-10")
    book.refuse_others("redeal", "zk-15")
    book.refuse_others("fill", "zk-23")

    if variants & DEFERRED_BASES:
        bases = leave_the_bases_in_the_deck()
    else:
        bases = take_out_the_bases(layout, "chaldejski" if "chaldejski" in variants else "alternating")
    return Setup(layout=layout, book=book, bases=bases, max_passes=PASSES, options=options,
                 vars={"replace": None} if "cztery-katy" in variants else {})


# ----------------------------------------------------------------------------- for the solver


@proof_of_loss("a card the third laying-out cannot free")
def a_card_the_third_layout_cannot_free(t: Table) -> str | None:
    """Lost when, in the third laying-out, some card can never reach a foundation.

    The common proof (:func:`replay.engine.proofs.a_card_the_last_pass_cannot_free`, whose docstring
    argues its soundness) told this game's facts: a card on a pile reaches the foundations zk-7 and
    zk-8 give its position (every foundation under ``after-deal=unrestricted``, since the stock runs
    out in this pass); the ``j``-th next card of the stock lands on position ``j mod 12`` of the order
    of the deal (zk-6, zk-13: freed places are not refilled, every round covers the same twelve); cards
    build on one another in suit, up or down (zk-14, allowed once the deck is dealt out in this last
    pass under either reading of ``building-from``).  Only the game alone and chaldejski: the other
    variants refill places or lay the bases during the deal, which this proof does not follow.
    """
    from replay.engine.proofs import a_card_the_last_pass_cannot_free

    g = t.game
    if g.variants - {"chaldejski"} or t.passes < PASSES:
        return None
    reach, deal, free = g.options["reach"], g.options["deal"], g.options["unrestricted_when_dealt"]

    def reaches(place: int | None, f: int) -> bool:
        return place is None or free or reach[place][f]

    return a_card_the_last_pass_cannot_free(t, reaches, lambda j: deal[j % len(deal)], next_in_suit)


#: what the rules make sound to reduce in a search (read by replay.solver.search.profile_for): the proof
#: is asked at the root only; at every position of the third laying-out it pruned a third to a half of
#: them but cost six times the search's speed (about 1.5 ms a position) and decided no more deals,
#: at 1 s or at 2,000 positions (benchmarks/README.md)
SEARCH = {"dead_ends": (a_card_the_third_layout_cannot_free,), "dead_ends_at_nodes": False}


# ----------------------------------------------------------------------------- for the solver: the fast core


def _fast_options(g: Any) -> list[int]:
    """The options as replay/fastcore/games/zwarta_kolumna.c reads them (its comment lists them): the
    variants' and rulings' switches, the corners, the orders of the deal and of gathering, and per pile
    the foundations it reaches and per foundation those of its row, as masks over container indices."""
    o, v, r = g.options, g.variants, g.rulings
    n = len(g.roles)
    if n > 31 or len(o["deal"]) > 32 or len(o["gather"]) > 32 or combination_problem(v) is not None:
        raise NotImplementedError(f"{ID}: a layout or combination the fast core does not mirror")
    deferred = bool(v & DEFERRED_BASES)

    def mask(items: Any) -> int:
        return sum(1 << i for i in items)

    head = [int("fill-from-any-pile" in v), int(deferred), int(deferred and "chaldejski" in v),
            int("cztery-katy" in v or ("gotycki-zamek" in v and r.get("base-placement") == "anywhere")),
            int("cztery-katy" in v), int(deferred and r.get("base-timing") == "on-dealing"),
            int(r.get("deal-timing") == "when-stuck"), int(o["bottom_first"]), int(o["unrestricted_when_dealt"]),
            int(o["build_last_pass_only"]), int(o["replace_if_empty_only"]), PASSES, mask(o["corners"])]

    def padded(seq: Any) -> list[int]:
        return [len(seq)] + list(seq) + [0] * (32 - len(seq))

    reach = [mask(f for f in range(n) if o["reach"][i][f]) for i in range(n)]
    partner = [mask(o["row_partner"].get(i, ())) for i in range(n)]
    return (head + padded(o["deal"]) + padded(o["gather"]) + reach + [0] * (32 - n) + partner
            + [0] * (32 - n))


def _fast_vars(t: Table) -> bytes | None:
    """``Table.vars`` as bytes: none, or (cztery kąty) the pile owed a card, 0xFF for None."""
    if not t.vars:
        return b""
    if set(t.vars) != {"replace"}:
        return None
    name = t.vars["replace"]
    if name is None:
        return b"\xff"
    i = t.game.layout.index(name)
    return bytes([i]) if i < 0xFF and _pile_name(i) == name else None


def _pile_name(i: int) -> str:
    """The name of tableau pile ``i`` in both layouts of the game (p1 … p12, indices 0 … 11)."""
    return f"p{i + 1}"


def _fast_vars_back(b: bytes) -> dict[str, Any]:
    if not b:
        return {}
    return {"replace": None if b[0] == 0xFF else _pile_name(b[0])}


SEARCH["fast_core"] = FastCore(kernel="zwarta-kolumna", options=_fast_options, vars=_fast_vars,
                               vars_back=_fast_vars_back)
