"""exiles: the first game of text 003, of which only the end survives (Leoni's Own, as far as the text goes).

An ace and a king of each suit are laid out as the bases; the other cards
are dealt in rows of thirteen onto packets numbered 1-13, counting 1 to 13
along each row; a card whose value equals its number is exiled face down
and replaced by the next card of the pack.  When everything is dealt, the
top cards of the packets are played to the foundations.  When nothing more
can be played, the top exile goes under the packet of its own number, then
the top card of that packet under the packet of *its* number, and so on
until a card is freed for a foundation.  When the exiles are used up, the
packets are gathered and dealt again, once.

The beginning of the game (its foundations, its rules I and III) is lost;
every gap is filled by a ruling or a resolved entry of the register, and
the rules of Leoni's Own that the Russian does not state (bases that stay,
a king that ends the chain, a spread thirteenth packet) are rulings too.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterator

from replay.engine import cards as C
from replay.engine.common import (fits_foundation, foundation_accepts, game_won, gather, legal_to, moves_text,
                                  stock_empty, top_card_only)
from replay.engine.edition import Edition
from replay.engine.game import Effect, Game, Move, Reason, Rule, RuleBook, Setup, Table
from replay.engine.kernel import VARS_BYTES, FastCore
from replay.engine.layout import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout
from replay.engine.proofs import proof_of_loss
from replay.engine.registry import effect, procedure, rule

ID = "exiles"
VARIANTS: tuple[str, ...] = ()
RULINGS = {
    "foundations": ("withdrawn-first", "aces-and-kings", "eight-aces"),
    "reversal": ("one-card", "unlimited", "both-directions"),
    "reversal-bases": ("bases-move", "bases-stay"),
    "replacement-number": ("same", "next"),
    "redeals": ("one", "two"),
    "play-during-deal": ("after", "during"),
    "rule-three": ("reverse", "in-order"),
    "chain-king": ("travels-on", "ends-chain"),
    "thirteenth-packet": ("like-the-others", "spread"),
}
ROW = 13
NO_PLAY_TYPES = frozenset({"deal", "redeal", "tuck"})


def combination_problem(variants: frozenset[str]) -> str | None:
    return None


# ----------------------------------------------------------------------------- setup


@procedure("ex-6", "ex-13")
def lay_out_an_ace_and_a_king_of_each_suit_first(layout: Layout) -> dict[int, int]:
    """(ruling foundations = withdrawn-first) An ace and a king of each suit are withdrawn from the pack and laid
    out as the bases before the deal, as Leoni's Own and Cadogan's The Nation lay them (amb-ex-foundations):
    four aces to build up, four kings to build down; the other 96 cards are dealt and counted."""
    return {f: C.make(layout.base_rank(f), suit) for f, suit in layout.arrangement("by-suit").items()}


# ----------------------------------------------------------------------------- dealing


@procedure("ex-1", "ex-2", "ex-3", "ex-4", "ex-5")
def deal_a_row_counting_one_to_thirteen(t: Table, m: Move) -> None:
    """Deal a row onto packets 1-13, counting; a card whose value is its number is exiled and replaced.

    Jacks count eleven, queens twelve, kings thirteen.  The replacement comes from the pack and is
    examined against the same number (ruling replacement-number = same) or placed unexamined (next).
    """
    stock = t.piles[t.game.stock]
    exiles = t.piles[t.game.options["exiles"]]
    recheck = t.game.options["recheck_replacement"]
    for number, packet in enumerate(t.game.options["packets"], start=1):
        if not stock:
            break
        card = stock.pop()
        while C.value_of(card) == number:
            exiles.append(card)
            if not stock:
                card = -1  # the pack ran out on a match: the place stays empty
                break
            card = stock.pop()
            if not recheck:
                break
        if card >= 0:
            t.piles[packet].append(card)
    t.rounds += 1


@rule("ex-4", "ex-6", table_wide=True)
def deal_while_the_pack_lasts(t: Table, m: Move) -> str | None:
    """The deal goes on, row after row, until all the cards are laid out."""
    return None if t.piles[t.game.stock] else "all the cards are laid out"


@rule("ex-6", table_wide=True)
def play_begins_when_all_cards_are_laid_out(t: Table, m: Move) -> str | None:
    """(ruling play-during-deal = after) Having laid out all the cards, one examines the packets and plays."""
    if t.game.options["play_after_deal"] and m.type not in ("deal",) and not stock_empty(t):
        return "play begins when all the cards are laid out"
    return None


@rule("ex-12", table_wide=True)
def gather_when_the_exiles_are_out(t: Table, m: Move) -> str | None:
    """After all the exiles are used, the packets are taken up in order and dealt a second time, "если
    необходимо" (if necessary): not once the patience has come out."""
    if not stock_empty(t):
        return "the cards are not all laid out"
    if t.piles[t.game.options["exiles"]]:
        return "exiles remain to be played"
    won = game_won(t)
    if won:  # "если необходимо": a second deal only if the patience has not come out (amb-ex-second-deal)
        return won
    if t.passes >= t.game.options["passes"]:
        return "the packets are dealt a second time only (ruling redeals)"
    return None


@procedure("ex-12")
def take_up_the_packets_in_order(t: Table, m: Move) -> None:
    """The packets, taken up in succession and turned, make the new pack (the lost rule III).

    Each packet keeps its order and is dealt from its bottom card. Under the ruling rule-three = reverse
    (Cadogan's way of taking up) the last packet comes first: 13, 12, … 1; under in-order, 1 to 13.
    """
    gather(t, t.game.options["gather"], bottom_first=True)
    t.vars["chain"] = None


# ----------------------------------------------------------------------------- playing


@rule("ex-6", per_source=True)
def only_top_cards_are_played(t: Table, m: Move) -> str | None:
    """Only the top card of a packet (the lost rule I) or of the exiles can be played."""
    return top_card_only(t, m, "the top card moves", register="amb-ex-rule-one")


@rule("ex-6", "ex-13", accepts=foundation_accepts)
def foundations_follow_in_suit(t: Table, m: Move) -> Reason:
    """Suitable cards go onto the foundations: the base of its kind, then in suit and sequence."""
    card = t.piles[m.src][-m.count]  # the top card; from a spread packet, the one taken (its place: count)
    if fits_foundation(t, m.dst, card):
        return None
    top = t.top(m.dst)
    return lambda: f"{C.code(card)} does not follow on {t.name(m.dst)} ({'top ' + C.code(top) if top >= 0 else 'empty'})"


@rule("ex-6")
def one_foundation_of_each_suit_per_kind(t: Table, m: Move) -> str | None:
    """(ruling foundations = aces-and-kings) Four aces and four kings, one of each suit."""
    if t.piles[m.dst]:
        return None
    card = t.piles[m.src][-m.count]
    for f in t.game.foundations:
        if f != m.dst and t.game.fbase[f] == t.game.fbase[m.dst] and t.fsuit[f] == C.suit_of(card):
            return f"{t.name(f)} is already the foundation of {C.SUIT_NAMES[C.suit_of(card)]} of this kind"
    return None


@rule("ex-6", per_source=True)
def the_spread_thirteenth_packet_gives_any_card(t: Table, m: Move) -> str | None:
    """(ruling thirteenth-packet = spread) Leoni's Own's thirteenth pile: any card of packet 13 may be played to
    a foundation (the move's count is its place from the top); of the other packets only the top card."""
    pile = t.piles[m.src]
    if not pile:
        return f"{t.name(m.src)} is empty"
    if m.src == t.game.options["spread"]:
        return None if m.count <= len(pile) else f"{t.name(m.src)} holds {len(pile)} cards, not {m.count}"
    return top_card_only(t, m, "the top card moves", register="amb-ex-rule-one")


@procedure("ex-6")
def take_the_card_from_its_place(t: Table, m: Move) -> None:
    """(ruling thirteenth-packet = spread) The card taken from its place in the spread packet goes onto the
    foundation (an empty foundation takes its suit)."""
    card = t.piles[m.src].pop(-m.count)
    t.piles[m.dst].append(card)
    if t.fsuit[m.dst] < 0:
        t.fsuit[m.dst] = C.suit_of(card)


def _plays_home_from_the_spread_packet(t: Table) -> Iterator[Move]:
    """Candidate plays from the packets to the foundations, every card of the spread packet 13 included
    (packets in layout order, then the card's place from the top, then the foundations)."""
    g = t.game
    spread = g.options["spread"]
    for src in g.by_role[TABLEAU]:
        n = len(t.piles[src]) if src == spread else min(1, len(t.piles[src]))
        for count in range(1, n + 1):
            for f in g.foundations:
                yield Move("move", src, f, count=count)


@rule("ex-7", per_target=True)
def a_space_takes_a_card_from_the_packets(t: Table, m: Move) -> str | None:
    """An empty place takes a card from the packets; nothing is built on a packet."""
    if t.piles[m.dst]:
        return f"{t.name(m.dst)} is not empty; cards are not built on the packets"
    return None


@rule("ex-8", "ex-10", table_wide=True)
def exiles_wait_until_nothing_can_be_played(t: Table, m: Move) -> Reason:
    """The exiles are taken only when all the cards are laid out and no more can be played to the foundations."""
    if not stock_empty(t):
        return "the exiles are taken only when all the cards are laid out"
    if _foundation_play_exists(t):
        return lambda: f"a card can still be played to a foundation: {_foundation_plays(t)}"
    if t.vars.get("chain") is not None:
        return lambda: ("ex-10", f"the travelling cards have not yet freed a card: {_chain_steps(t)}")
    return None


@rule("ex-8")
def an_exile_that_fits_goes_to_its_foundation(t: Table, m: Move) -> str | None:
    """If the exile suits a foundation it is played there instead of going under a packet."""
    card = t.piles[m.src][-1]
    if any(fits_foundation(t, f, card) and _base_allowed(t, f, card) for f in t.game.foundations):
        return f"{C.code(card)} suits a foundation and is played there"
    return None


@rule("ex-8", "ex-9", "ex-10")
def a_card_goes_under_the_packet_of_its_number(t: Table, m: Move) -> str | None:
    """A five goes under the fifth packet, a queen under the twelfth, and so on."""
    card = t.piles[m.src][-1]
    want = t.game.options["packets"][C.value_of(card) - 1]
    if m.dst != want:
        return f"{C.code(card)} goes under packet {C.value_of(card)} ({t.name(want)}), not {t.name(m.dst)}"
    return None


@rule("ex-10")
def the_chain_continues_from_the_same_packet(t: Table, m: Move) -> Reason:
    """Next, the top card of that same packet travels, until a card for a foundation is freed."""
    chain = t.vars.get("chain")
    if chain is None:
        return "no card is travelling: take the next exile"
    if t.name(m.src) != chain:
        return f"the top card of {chain} travels next"
    if _foundation_play_exists(t):
        return lambda: f"a card has been freed: play it ({_foundation_plays(t)})"
    return None


@rule("ex-10", table_wide=True)
def a_travelling_chain_is_followed_to_its_end(t: Table, m: Move) -> Reason:
    """While cards are travelling and nothing is freed, the chain goes on before anything else."""
    if t.vars.get("chain") is not None and m.type != "tuck" and not _foundation_play_exists(t):
        return lambda: f"the chain of travelling cards goes on from {t.vars['chain']}: {_chain_steps(t)}"
    return None


def _foundation_plays(t: Table) -> str:
    """The legal plays from the packets to the foundations, the first named (for a reason)."""
    return moves_text(t, [m for m in legal_to(t, (FOUNDATION,)) if t.game.roles[m.src] == TABLEAU])


def _chain_steps(t: Table) -> str:
    """The next step of the travelling chain (for a reason)."""
    return moves_text(t, t.game.legal_moves(t, ("tuck",)))


@procedure("ex-8", "ex-10")
def put_under_the_packet(t: Table, m: Move) -> None:
    """Take the top card of the source and put it under the packet of its number."""
    card = t.piles[m.src].pop()
    t.piles[m.dst].insert(0, card)


@effect("ex-10", "ex-11")
def follow_the_chain(t: Table, m: Move) -> None:
    """The chain goes on from the packet just added to, unless its next step would come back round.

    The travelling is forced, so the next step is known: when it would bring back a position the chain
    has already been in, the chain can free nothing and ends here (amb-ex-chain-loop).
    """
    packets = t.game.options["packets"]
    seen = t.vars.setdefault("_seen", [])
    if m.src == t.game.options["exiles"]:
        seen.clear()
    card = t.piles[m.dst][-1]
    now, then = _positions(t, packets, m.dst, packets[C.value_of(card) - 1])
    seen.append(now)
    if then in seen:
        t.vars["chain"] = None
        seen.clear()
    else:
        t.vars["chain"] = t.name(m.dst)


@effect("ex-9", "ex-10")
def a_king_ends_the_chain(t: Table, m: Move) -> None:
    """(ruling chain-king = ends-chain) Leoni's Own: a king that travels (the exile itself or a card the chain
    takes up) goes to packet 13 and ends the chain; the next exile is taken when play stops again."""
    if C.value_of(t.piles[m.dst][0]) == ROW:
        t.vars["chain"] = None
        t.vars["_seen"] = []


#: the modulus of a position's code: the Mersenne prime 2**61 - 1 (a code fits in 8 bytes of the kernel's vars)
POSITION_MODULUS = (1 << 61) - 1


def _positions(t: Table, packets: tuple[int, ...], src: int, dst: int) -> tuple[int, int]:
    """The codes of the packets now, and after the top card of packet ``src`` goes under packet ``dst``.

    A position's code is defined here, not left to Python's hash(), so that the fast core computes the
    same numbers (replay/fastcore/games/exiles.c, ``packets_code``): the packets in deal order, each
    one's cards bottom first and closed by the byte 255, read as one little-endian number, modulo
    :data:`POSITION_MODULUS`.  Two positions of a chain have the same code exactly when they are the same
    position (but for a coincidence of about one in 2**61, the chance Python's hash() of the same
    tuples had too)."""
    packed = list(map(bytes, t.game.options["packet_piles"](t.piles)))  # each packet's cards as bytes, once
    now = _packed_code(packed)
    i, j = packets.index(src), packets.index(dst)
    top = packed[i][-1:]
    packed[i] = packed[i][:-1]
    packed[j] = top + packed[j]
    return now, _packed_code(packed)


def _packed_code(packed: list[bytes]) -> int:
    """The code of the packets, each one's cards given as bytes (bottom first)."""
    return int.from_bytes(b"\xff".join(packed) + b"\xff", "little") % POSITION_MODULUS


@effect("ex-11")
def a_freed_card_ends_the_chain(t: Table, m: Move) -> None:
    """Once a card is played, the travelling is over; the next exile is taken when play stops again."""
    t.vars["chain"] = None
    t.vars["_seen"] = []


@rule("ex-13")
def one_card_from_ascending_to_descending(t: Table, m: Move) -> str | None:
    """In good time, one card (at a time) may be changed from the ascending to the descending order of its suit."""
    if t.game.fdir[m.src] != 1 or t.game.fdir[m.dst] != -1:
        return "a card is changed only from an ascending to a descending foundation"
    return _changed_card_fits(t, m)


@rule("ex-13")
def one_card_either_way_between_the_orders(t: Table, m: Move) -> str | None:
    """(ruling reversal = both-directions) Cadogan's "and vice versâ": from descending to ascending too."""
    if t.game.fdir[m.src] == t.game.fdir[m.dst]:
        return "a card is changed only between an ascending and a descending foundation"
    return _changed_card_fits(t, m)


@rule("ex-13")
def the_bases_stay_on_their_foundations(t: Table, m: Move) -> str | None:
    """(ruling reversal-bases = bases-stay) Leoni's Own: the ace or king a foundation was founded with is not
    changed to the other order; only the cards built on it are."""
    if len(t.piles[m.src]) == 1:
        return f"{C.code(t.piles[m.src][0])} is the base of {t.name(m.src)} and stays there"
    return None


@rule("ex-13")
def only_one_card_in_the_game(t: Table, m: Move) -> str | None:
    """(ruling reversal = one-card) The change is made once in the game."""
    if t.vars.get("reversed", 0) >= 1:
        return "only one card may be changed from ascending to descending order"
    return None


def _changed_card_fits(t: Table, m: Move) -> str | None:
    card = t.piles[m.src][-1]
    if not t.piles[m.dst] or not fits_foundation(t, m.dst, card):
        return f"{C.code(card)} does not follow on {t.name(m.dst)}"
    return None


@effect("ex-13")
def count_the_change(t: Table, m: Move) -> None:
    """(ruling reversal = one-card) Count the change, so that no second one is made.

    Only under that reading: the count is read by :func:`only_one_card_in_the_game` alone, so under the
    others it is not kept (it stays 0), and two positions that differ only in how often cards were changed
    are one position, as they are for the rules.  (Kept under every reading, it made each change back and
    forth a new position: the search followed one such line some 40,000 moves deep in Leoni's Own.)"""
    t.vars["reversed"] = t.vars.get("reversed", 0) + 1


# ----------------------------------------------------------------------------- assembly


def _base_allowed(t: Table, f: int, card: int) -> bool:
    if t.piles[f] or not t.game.options["one_of_each"]:
        return True
    return not any(g != f and t.game.fbase[g] == t.game.fbase[f] and t.fsuit[g] == C.suit_of(card)
                   for g in t.game.foundations)


def _foundation_play_exists(t: Table) -> bool:
    """Whether the top card of some packet (any card of a spread packet 13) can go to a foundation (what :func:`fits_foundation` and
    :func:`_base_allowed` allow, found without asking them of every pair: this runs at every step
    of a chain; a test holds the two to the same answer)."""
    g = t.game
    piles = t.piles
    tops = {p[-1] for p in g.options["packet_piles"](piles) if p}
    if g.options["spread"] >= 0:
        tops.update(piles[g.options["spread"]])  # every card of the spread packet 13 can be played
    if not tops:
        return False
    empty = []
    for f, step in g.options["foundation_steps"]:
        pile = piles[f]
        if pile:
            if pile[-1] + step in tops:  # the next card in suit and direction (none past a king or an ace)
                return True
        else:
            empty.append(f)
    if not empty:
        return False
    # An empty foundation takes its base, of its own suit if it keeps one (fits_foundation), where one
    # of each allows: no other foundation of its kind holds that suit (_base_allowed).
    fsuit, fbase = t.fsuit, g.fbase
    owner = {(fbase[h], fsuit[h]): h for h in g.foundations if fsuit[h] >= 0} if g.options["one_of_each"] else {}
    by_base: dict[int, list[int]] = {}
    for f in empty:
        by_base.setdefault(fbase[f], []).append(f)
    for card in tops:
        rank, suit = card >> 2, card & 3
        for f in by_base.get(rank, ()):
            if fsuit[f] in (-1, suit) and owner.get((rank, suit), f) == f:
                return True
    return False


def _chain_tucks(t: Table) -> Iterator[Move]:
    """Candidate tucks between packets: from the travelling packet only (no other can be legal),
    onto every packet, itself included: when its top card has that packet's own number it goes under
    the same packet (ex-10), a move the generic candidates (which skip ``dst == src``) never offer."""
    chain = t.vars.get("chain")
    if chain is None:
        return
    src = t.game.layout.index(chain)
    if t.piles[src]:
        for dst in t.game.options["packets"]:
            yield Move("tuck", src, dst)


def build(variants: frozenset[str], readings: dict[str, str], edition: Edition) -> Setup:
    spec = edition.layout(ID, readings["foundations"])
    layout = Layout.from_spec(spec)
    one_of_each = readings["foundations"] in ("withdrawn-first", "aces-and-kings")
    packets = layout.order("deal")
    options: dict[str, Any] = {
        "packets": layout.order("deal"),
        "packet_piles": itemgetter(*layout.order("deal")),  # all the packets' piles in one call
        "foundation_steps": tuple((f, 4 * layout.direction(f)) for f in layout.foundations),  # card + step: next
        "exiles": layout.single(RESERVE),
        "recheck_replacement": readings["replacement-number"] == "same",
        "play_after_deal": readings["play-during-deal"] == "after",
        "passes": 2 if readings["redeals"] == "one" else 3,
        "gather": layout.order("deal")[::-1] if readings["rule-three"] == "reverse" else layout.order("deal"),
        "one_of_each": one_of_each,
        "spread": packets[ROW - 1] if readings["thirteenth-packet"] == "spread" else -1,  # packet 13, or none
    }
    book = RuleBook(layout)
    book.before_every_move(play_begins_when_all_cards_are_laid_out, except_types=("deal", "redeal"))
    book.before_every_move(a_travelling_chain_is_followed_to_its_end, except_types=("tuck",))
    book.allow("deal", rules=[deal_while_the_pack_lasts], perform=deal_a_row_counting_one_to_thirteen)
    book.allow("redeal", rules=[gather_when_the_exiles_are_out], perform=take_up_the_packets_in_order)
    to_foundation: list[Rule] = [only_top_cards_are_played, foundations_follow_in_suit]
    if one_of_each:
        to_foundation.append(one_foundation_of_each_suit_per_kind)
    if options["spread"] >= 0:
        book.allow("move", TABLEAU, FOUNDATION, [the_spread_thirteenth_packet_gives_any_card] + to_foundation[1:],
                   perform=take_the_card_from_its_place, after=[a_freed_card_ends_the_chain],
                   candidates=_plays_home_from_the_spread_packet)
    else:
        book.allow("move", TABLEAU, FOUNDATION, to_foundation, after=[a_freed_card_ends_the_chain])
    book.allow("move", RESERVE, FOUNDATION, [exiles_wait_until_nothing_can_be_played] + to_foundation,
               after=[a_freed_card_ends_the_chain])
    book.allow("move", TABLEAU, TABLEAU, [only_top_cards_are_played, a_space_takes_a_card_from_the_packets])
    change: list[Rule] = [only_top_cards_are_played]
    change.append(one_card_either_way_between_the_orders if readings["reversal"] == "both-directions"
                  else one_card_from_ascending_to_descending)
    if readings["reversal"] == "one-card":
        change.append(only_one_card_in_the_game)
    if readings["reversal-bases"] == "bases-stay":
        change.append(the_bases_stay_on_their_foundations)
    book.allow("move", FOUNDATION, FOUNDATION, change,
               after=[count_the_change] if readings["reversal"] == "one-card" else [])
    travelled: list[Effect] = [follow_the_chain]
    if readings["chain-king"] == "ends-chain":
        travelled.append(a_king_ends_the_chain)
    book.allow("tuck", RESERVE, TABLEAU,
               [only_top_cards_are_played, exiles_wait_until_nothing_can_be_played,
                an_exile_that_fits_goes_to_its_foundation, a_card_goes_under_the_packet_of_its_number],
               perform=put_under_the_packet, after=travelled)
    book.allow("tuck", TABLEAU, TABLEAU,
               [only_top_cards_are_played, the_chain_continues_from_the_same_packet,
                a_card_goes_under_the_packet_of_its_number],
               perform=put_under_the_packet, after=travelled, candidates=_chain_tucks)
    book.refuse_others("move", "ex-6")
    book.refuse_others("move", "ex-4", src_role=STOCK)  # the pack's cards are laid out, not moved
    book.refuse_others("tuck", "ex-8")
    book.refuse_others("deal", "ex-4")
    book.refuse_others("redeal", "ex-12")
    bases = lay_out_an_ace_and_a_king_of_each_suit_first(layout) if readings["foundations"] == "withdrawn-first" \
        else {}
    return Setup(layout=layout, book=book, bases=bases, max_passes=options["passes"], options=options,
                 vars={"chain": None, "_seen": [], "reversed": 0})


#: what the rules make sound to reduce in a search (read by replay.solver.search.profile_for): the
#: four ace and the four king foundations are each founded by whatever card of the kind comes
#: first, or laid out with one suit each (withdrawn-first: the key sorts them with their suits), and
#: no rule looks at where a foundation lies.
SEARCH: dict[str, Any] = {"interchangeable_foundations": "by-base"}


# ----------------------------------------------------------------------------- for the solver: a proof of loss


@proof_of_loss("a card the last deal cannot bring home")
def a_card_the_last_deal_cannot_bring_home(t: Table) -> str | None:
    """Lost when, the last deal laid out, some card can never reach a foundation, however the chains run.

    Soundness.  Once the last deal is laid out (the last pass, the pack empty) nothing is dealt or
    gathered again: a card moves only from the top of a packet (to a foundation, into a space, or
    travelling in a chain, ex-7 to ex-10; any card of a spread packet 13 to a foundation), from the top
    of the exiles (taken when play stops, to a foundation or under a packet, ex-8), under the packet of
    its own number (a travelling card always goes to the packet of its value, ex-9, ex-10), or between
    two foundations of its suit (ex-13).  So nothing is ever laid *on* a card that lies in a packet or
    the exiles now, and a card tucked under packet ``v`` lies beneath every card now in ``v`` that is
    still there.  The proof computes the least solution of rules every game from here obeys, iterated
    from "nothing" until nothing changes; each rule only drops conditions of the real game (timing, the
    chain stopping at the first freed card or in a loop, a king ending it, the one free space, the count
    of changes), so every fact of a real game is in it, and a card it never brings home cannot go home
    in any game: the game is lost.  Facts:

    * ``top(f, s, r)``: foundation ``f`` (of suit ``s``) has the rank ``r`` on top at some time; ``empty(f)``:
      it is empty at some time.  True now for its top; a card ``(r, s)`` that comes home on ``f`` makes
      ``top(f, s, r)``; a change from ``a`` to ``b`` (the directions the ruling ``reversal`` allows) of
      the top ``x`` when ``b``'s top takes it makes ``top(b, s, x)`` and ``a``'s card below it its top
      (``empty(a)`` when ``x`` was its base).
    * For each card *instance* (a card in a packet or the exiles now, and its *twin*: the same card
      tucked under the packet of its number): ``exposed`` once every card now above it has left (a
      twin: once it has been tucked and every card now in that packet has left; a spread packet 13:
      every card at once); ``home`` when exposed and some foundation's top at some time takes it (or an
      empty one its base); ``tucked`` when an exposed exile is taken, or an exposed card lies in a
      packet the chain reaches; ``leaves`` when home, tucked, or put into a space.
    * The chain reaches packet ``p`` when a card of ``p``'s number is tucked (or the chain is at ``p`` now);
      a space exists at some time when a packet is empty now or every card now in some packet leaves.

    Every card now in a packet or the exiles must go home, as itself or as its twin; the first that
    can do neither is the reason.  Under every ruling reading (the readings only restrict the moves the
    rules above allow).  The fast core's kernel (``replay/fastcore/games/exiles.c``, ``lost``) computes
    the same verdict, held equal by tests/test_fastcore_exiles.py's random walks
    (``test_kernel_follows_the_engine_on_random_walks``), so that the search may ask it at every position.
    """
    g = t.game
    o = g.options
    if t.passes < g.setup.max_passes or t.piles[g.stock]:
        return None
    packets, spread, exiles = o["packets"], o["spread"], o["exiles"]
    # instances: (card, place: a packet, or -1 for the exiles); ``needs[i]``: the instances whose leaving exposes
    # i.  A card leaves only once exposed, and is exposed only once every card above it has left, so the one
    # card directly above stands for all of them (the bottom card of a packet for the whole packet); the
    # cards of a spread packet lie side by side, each exposed now, and a twin under it waits for all of them
    cards: list[int] = []
    place: list[int] = []
    needs: list[tuple[int, ...]] = []
    members: dict[int, list[int]] = {}
    for p in (*packets, exiles):
        pile = t.piles[p]
        first = len(cards)
        at = p if p != exiles else -1
        members[at] = list(range(first, first + len(pile)))
        for h, card in enumerate(pile):
            cards.append(card)
            place.append(at)
            needs.append(() if p == spread or h == len(pile) - 1 else (first + h + 1,))
    n0 = len(cards)
    if not n0:
        return None

    def all_of(q: int) -> tuple[int, ...]:
        m = members[q]
        return tuple(m) if q == spread else tuple(m[:1])

    for i in range(n0):  # the twin of i: i + n0, under the packet of its number
        q = packets[C.value_of(cards[i]) - 1]
        cards.append(cards[i])
        place.append(q)
        needs.append(all_of(q))
    n = len(cards)
    found = g.foundations
    fdir = [g.fdir[f] for f in found]
    fbase = [g.fbase[f] for f in found]
    fsuit = [t.fsuit[f] for f in found]
    both = g.rulings.get("reversal") == "both-directions"
    # a foundation's tops are ever of its own suit once it has one (its base taken, or the suit it keeps)
    suits = [(fsuit[k],) if fsuit[k] >= 0 else (0, 1, 2, 3) for k in range(len(found))]
    changes = [(a, b, suits[a]) for a in range(len(found)) for b in range(len(found))
               if fdir[a] != fdir[b] and (both or fdir[a] > 0)]
    top = [[[False] * 13 for _ in range(4)] for _ in found]
    empty = [not t.piles[f] for f in found]
    for k, f in enumerate(found):
        if t.piles[f]:
            top[k][t.fsuit[f]][C.rank_of(t.piles[f][-1])] = True
    # per instance: its rank and suit, the foundations whose next card it is once their top is one before it
    # (k, the rank before), and those whose base it is
    rank = [C.rank_of(c) for c in cards]
    suit = [C.suit_of(c) for c in cards]
    after = [tuple((k, rank[i] - fdir[k]) for k in range(len(found)) if 0 <= rank[i] - fdir[k] < 13)
             for i in range(n)]
    bases = [tuple(k for k in range(len(found)) if rank[i] == fbase[k] and fsuit[k] in (-1, suit[i]))
             for i in range(n)]
    exposed, home, leaves, tucked = [False] * n, [False] * n, [False] * n, [False] * n
    reached = {p: False for p in packets}
    if t.vars.get("chain") is not None:
        reached[g.layout.index(t.vars["chain"])] = True
    space = any(not t.piles[p] for p in packets)
    holes = [all_of(p) for p, m in members.items() if p >= 0 and m]  # a packet emptied: all its cards left
    # the facts are set once each, from a work list of the instances to look at again: an instance is looked
    # at when a fact its rules read is set (the cards it waits for leaving, its own card tucked for a twin,
    # the top a foundation needs below it, an empty foundation, the chain reaching its packet, a space)
    waiting: dict[int, list[int]] = {}  # j -> the instances that wait for j to leave
    at_top: dict[tuple[int, int, int], list[int]] = {}  # (k, suit, rank) on top of k -> the instances it takes
    at_base: dict[int, list[int]] = {}
    in_place: dict[int, list[int]] = {}
    for i in range(n):
        for j in needs[i]:
            waiting.setdefault(j, []).append(i)
        for k, q in after[i]:
            at_top.setdefault((k, suit[i], q), []).append(i)
        for k in bases[i]:
            at_base.setdefault(k, []).append(i)
        in_place.setdefault(place[i], []).append(i)
    work = list(range(n - 1, -1, -1))
    queued = [True] * n
    moved = True  # a top or an emptiness of the foundations is new since the changes were last followed

    def look(i: int) -> None:
        if not queued[i]:
            queued[i] = True
            work.append(i)

    def new_top(k: int, su: int, r: int) -> None:
        nonlocal moved
        top[k][su][r] = moved = True
        for j in at_top.get((k, su, r), ()):
            look(j)

    while work:
        while work:
            i = work.pop()
            queued[i] = False
            if not exposed[i]:
                if (i >= n0 and not tucked[i - n0]) or not all(leaves[j] for j in needs[i]):
                    continue
                exposed[i] = True
            r, su = rank[i], suit[i]
            for k in bases[i]:
                if empty[k]:
                    if not top[k][su][r]:
                        new_top(k, su, r)
                    home[i] = True
            for k, q in after[i]:
                if top[k][su][q]:
                    if not top[k][su][r]:
                        new_top(k, su, r)
                    home[i] = True
            travels = place[i] < 0 or reached[place[i]]
            if travels and i < n0 and not tucked[i]:
                tucked[i] = True
                look(i + n0)
                q = packets[C.value_of(cards[i]) - 1]
                if not reached[q]:
                    reached[q] = True
                    for j in in_place.get(q, ()):
                        look(j)
            if not leaves[i] and (home[i] or travels or space):
                leaves[i] = True
                for j in waiting.get(i, ()):
                    look(j)
                if not space and any(all(leaves[h] for h in m) for m in holes):
                    space = True
                    for j in range(n):
                        if not leaves[j]:
                            look(j)
        while moved:  # the changes between foundations depend on their tops alone: followed until none is new
            moved = False
            for a, b, a_suits in changes:
                da, db, ta, tb = fdir[a], fdir[b], top[a], top[b]
                for su in a_suits:
                    ra, rb = ta[su], tb[su]
                    for x in range(13):
                        q = x - db
                        if ra[x] and 0 <= q < 13 and rb[q]:
                            if not rb[x]:
                                new_top(b, su, x)
                            if x == fbase[a]:
                                if not empty[a]:
                                    empty[a] = moved = True
                                    for j in at_base.get(a, ()):
                                        look(j)
                            elif not ra[x - da]:
                                new_top(a, su, x - da)
    for i in range(n0):
        if not home[i] and not home[i + n0]:
            where = "the exiles" if place[i] < 0 else t.name(place[i])
            return f"{C.code(cards[i])} in {where} can never reach a foundation"
    return None


#: asked at the root only: at every position (in the fast core) it cost nine times the search's speed and
#: settled one deal more in 200 at 100,000 positions (benchmarks/README.md, "Proofs of loss"); measured again
#: once a change back and forth was no new position: four times the CPU for four deals more in 200 at 100,000,
#: and on Leoni's Own's 35 deals still open at 10^6, six more settled at 2.2 times the CPU (benchmarks/README.md,
#: "The exiles: a change back and forth is no new position")
SEARCH["root_dead_ends"] = (a_card_the_last_deal_cannot_bring_home,)


# ----------------------------------------------------------------------------- the fast search core


_REVERSAL_CODE = {"one-card": 0, "unlimited": 1, "both-directions": 2}
_VARS_KEYS = frozenset({"chain", "_seen", "reversed"})


def _fast_options(game: Game) -> list[int]:
    """The instance's options as replay/fastcore/games/exiles.c reads them (its header lists the order)."""
    o = game.options
    steps = o["foundation_steps"]
    r = game.rulings
    return [o["exiles"], int(o["recheck_replacement"]), int(o["play_after_deal"]), o["passes"],
            int(o["one_of_each"]), _REVERSAL_CODE[r["reversal"]], int(r["reversal-bases"] == "bases-stay"),
            int(r["chain-king"] == "ends-chain"), o["spread"],
            len(o["packets"]), *o["packets"], len(o["gather"]), *o["gather"],
            len(steps), *(x for f, step in steps for x in (f, step))]


#: how many of the chain's seen positions the kernel's vars hold (replay/fastcore/games/exiles.c: MAX_SEEN)
FAST_MAX_SEEN = (VARS_BYTES - 6) // 8


def _fast_vars(t: Table) -> bytes | None:
    """``Table.vars`` as the kernel keeps them: the chain's packet (its container index; 0xFF: none), the
    cards changed (uint32; counted under reversal = one-card only), how many positions the chain has been
    in, and their codes (8 bytes each, as :func:`_positions` makes them); None for a state the kernel cannot
    hold (a chain longer than its room, or vars it does not know: the search then runs in Python)."""
    v = t.vars
    if v.keys() != _VARS_KEYS:
        return None
    chain, changed, seen = v["chain"], v["reversed"], v["_seen"]
    if not isinstance(changed, int) or not 0 <= changed < 1 << 32 or len(seen) > FAST_MAX_SEEN:
        return None
    if not all(isinstance(c, int) and 0 <= c < POSITION_MODULUS for c in seen):
        return None
    at = 0xFF
    if chain is not None:
        at = t.game.layout.index(chain)
        if _packet_name(at) != chain:
            return None
    return b"".join([bytes([at]), changed.to_bytes(4, "little"), bytes([len(seen)]),
                     *(c.to_bytes(8, "little") for c in seen)])


def _packet_name(i: int) -> str:
    """The name of packet container ``i`` in every layout of the game (p1 … p13, indices 0 … 12)."""
    return f"p{i + 1}"


def _fast_vars_back(b: bytes) -> dict[str, Any]:
    """``Table.vars`` from the kernel's bytes: the inverse of :func:`_fast_vars`."""
    return {"chain": None if b[0] == 0xFF else _packet_name(b[0]), "reversed": int.from_bytes(b[1:5], "little"),
            "_seen": [int.from_bytes(b[6 + 8 * k:14 + 8 * k], "little") for k in range(b[5])]}


SEARCH["fast_core"] = FastCore(kernel="exiles", options=_fast_options, vars=_fast_vars, vars_back=_fast_vars_back)
