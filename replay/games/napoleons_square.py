"""napoleons-square: Napoleon's Square, the second game of text 003 (rules I-III).

Two packs.  Twelve packets of four cards form three sides of a square; the
eight aces are the foundations and go up in suit to the kings (rule III).
Only the top cards of the packets are available (rule I); marriages are made
downward on the square.  A space left by a whole packet may take one card
from the talon or the pack, when the player chooses (rule II).  The Russian
text breaks off before the play of the pack; from Cadogan's English it is
turned one card at a time onto the talon, and there is no re-deal (see
``amb-ns-talon-to-square`` and the register).
"""

from __future__ import annotations

from typing import Any, Iterator

from replay.engine import cards as C
from replay.engine.common import deal_round, fits_foundation, foundation_accepts, one_below_any_suit, one_below_in_suit
from replay.engine.edition import Edition
from replay.engine.game import Game, Move, Reason, RuleBook, Setup, Table
from replay.engine.kernel import FastCore
from replay.engine.layout import FOUNDATION, STOCK, TABLEAU, WASTE, Layout
from replay.engine.proofs import proof_of_loss
from replay.engine.registry import excuse, procedure, rule

ID = "napoleons-square"
VARIANTS: tuple[str, ...] = ()
RULINGS = {
    "marriage-suit": ("in-suit", "any-suit"),
    "sequence-moves": ("single-card", "whole-sequence"),
    "space-fill": ("talon-or-pack", "any-card"),
    "talon-to-square": ("allowed", "forbidden"),
    "take-back": ("never", "allowed"),
}
PACKET = 4

excuse("ns-3", "Information only: the whole square may be looked at; a log and every snapshot show all cards.", __name__)


def combination_problem(variants: frozenset[str]) -> str | None:
    return None


# ----------------------------------------------------------------------------- dealing


@procedure("ns-7")
def deal_twelve_packets_of_four(t: Table, m: Move) -> None:
    """Twelve packets of four cards each, dealt four together, forming three sides of a square."""
    deal_round(t, t.game.options["packets"], per_pile=PACKET)


@procedure("ns-4")
def turn_the_next_card_onto_the_talon(t: Table, m: Move) -> None:
    """The pack is played out one card at a time onto the talon (Cadogan; the Russian text breaks off)."""
    stock = t.piles[t.game.stock]
    t.piles[t.game.options["talon"]].append(stock.pop())
    t.rounds += 1


def dealt_so_far(t: Table) -> str:
    """What has been dealt, as the header and a refusal's table say it: the square (ns-7), then the cards turned
    from the pack one at a time (ns-4), each of which the engine counts as a round."""
    if not t.rounds:
        return "the square not dealt yet"
    turned = t.rounds - 1
    return f"the square dealt, {turned} card{'s' if turned != 1 else ''} turned from the pack"


def deal(t: Table, m: Move) -> None:
    (deal_twelve_packets_of_four if t.rounds == 0 else turn_the_next_card_onto_the_talon)(t, m)


@rule("ns-7", "ns-4", table_wide=True)
def deal_while_the_pack_lasts(t: Table, m: Move) -> Reason:
    """The square is dealt first; then the pack is turned a card at a time until it is out."""
    if not t.piles[t.game.stock]:
        return ("ns-4", "the pack is out; there is no re-deal (the register, amb-ns-no-redeal)")
    return None


@rule("ns-7", table_wide=True)
def the_square_is_dealt_first(t: Table, m: Move) -> str | None:
    """Nothing is played before the twelve packets are dealt."""
    return None if t.rounds else "the square has not been dealt yet"


# ----------------------------------------------------------------------------- playing


@rule("ns-1", "ns-2", per_source=True)
def only_top_cards_are_available(t: Table, m: Move) -> str | None:
    """Only the top cards of the packets are available; taking them off releases the cards beneath."""
    pile = t.piles[m.src]
    if len(pile) < m.count:
        return f"{t.name(m.src)} has {len(pile)} card(s)"
    if m.count != 1 and t.game.roles[m.src] != TABLEAU:
        return f"only the top card of {t.name(m.src)} is available: it gives one card at a time"
    return None


@rule("ns-8", "ns-6", "ns-9", "ns-10", accepts=foundation_accepts)
def aces_found_and_suits_follow_up_to_the_kings(t: Table, m: Move) -> Reason:
    """Aces are played to their place as they appear; every suitable card follows in suit up to the king."""
    if m.count != 1:
        return "cards go to the foundations one at a time"
    card = t.piles[m.src][-1]
    if fits_foundation(t, m.dst, card):
        return None
    top = t.top(m.dst)
    if top >= 0 and C.rank_of(card) == C.rank_of(top) + 1 and C.suit_of(top) != C.suit_of(card):
        return lambda: ("ns-6", f"{C.code(card)} is not of the suit of {t.name(m.dst)} ({C.code(top)}): suits follow")
    return lambda: (f"{C.code(card)} does not follow on {t.name(m.dst)} "
                    f"({'top ' + C.code(top) if top >= 0 else 'empty: aces only'})")


@rule("ns-11", "ns-1")
def marriages_descend_on_the_square(t: Table, m: Move) -> Reason:
    """Marriages are made in descending order (in suit, by the meaning of "marriage") with the square's cards."""
    under = t.top(m.dst)
    if under < 0:
        return None  # a space: rule II
    moving = t.piles[m.src][-m.count:]
    if not t.game.options["marries"](under, moving[0]):
        return lambda: (f"{C.code(moving[0])} is not one below {C.code(under)}"
                        f"{' in suit' if t.game.options['in_suit'] else ''}")
    return None


@rule("ns-11", "ns-1")
def a_moved_sequence_is_a_marriage(t: Table, m: Move) -> Reason:
    """(ruling sequence-moves) Several cards move together only as a descending married sequence."""
    if m.count == 1:
        return None
    if not t.game.options["sequences"]:
        return ("ns-1", "only the top card of a packet is available; cards move one at a time")
    seq = t.piles[m.src][-m.count:]
    marries = t.game.options["marries"]
    for a, b in zip(seq, seq[1:]):
        if not marries(a, b):
            return f"{' '.join(C.code(c) for c in seq)} is not a married sequence"
    return None


@rule("ns-4", "ns-5")
def a_space_takes_one_card_from_talon_or_pack(t: Table, m: Move) -> str | None:
    """Rule II: a space left by a whole packet takes one card of the talon or the pack, when the player chooses."""
    if t.piles[m.dst]:
        return None
    if m.count != 1 and not t.game.options["space_any"]:
        return "a space takes one card"
    if t.game.roles[m.src] in (WASTE, STOCK) or t.game.options["space_any"]:
        return None
    return (f"a space in the square is filled from the talon or the pack, not from "
            f"{'a foundation' if t.game.roles[m.src] == FOUNDATION else 'the square'}")


@rule("ns-4", per_target=True)
def the_pack_only_fills_spaces(t: Table, m: Move) -> str | None:
    """A card goes straight from the pack only into a space (rule II); otherwise it is turned onto the talon."""
    if t.piles[m.dst]:
        return "a card of the pack goes to the talon first; only a space takes it directly"
    return None


@rule("ns-11", per_target=True)
def talon_cards_marry_onto_the_square(t: Table, m: Move) -> str | None:
    """(ruling talon-to-square) Whether the talon's top card may be married onto a packet of the square."""
    if t.piles[m.dst] and not t.game.options["talon_marries"]:
        return "under this ruling only the square's own cards are married"
    return None


@rule("ns-8", per_source=True)
def a_card_built_on_an_ace_may_come_back(t: Table, m: Move) -> str | None:
    """(ruling take-back) Under ``allowed``, the top card of a foundation may come back to the square, one
    card at a time, onto a card it marries or (under space-fill=any-card) into a space; the ace stays, for
    the aces are the foundations themselves (ns-8: "Тузы служатъ основными картами")."""
    if len(t.piles[m.src]) == 1:
        return f"the ace of {t.name(m.src)} is the foundation itself; only the cards built on it come back"
    return None


# ----------------------------------------------------------------------------- assembly


def _square_moves(t: Table) -> Iterator[Move]:
    """Candidates within the square: every top run that could move, onto every space and every packet
    whose top card it could marry (the rules decide; this only leaves out targets no rule could allow)."""
    options = t.game.options
    packets, marries, piles = options["packets"], options["marries"], t.piles
    moves = options["square_moves"]
    for src in packets:
        pile = piles[src]
        if not pile:
            continue
        longest = 1
        if options["sequences"]:
            while longest < len(pile) and marries(pile[-longest - 1], pile[-longest]):
                longest += 1
        for count in range(1, longest + 1):
            lead = pile[-count]
            for dst in packets:
                if dst != src and (not piles[dst] or marries(piles[dst][-1], lead)):
                    yield moves[src, dst, count]


def build(variants: frozenset[str], readings: dict[str, str], edition: Edition) -> Setup:
    spec = edition.layout(ID)
    layout = Layout.from_spec(spec)
    in_suit = readings["marriage-suit"] == "in-suit"
    options: dict[str, Any] = {
        "packets": layout.order("deal"),
        "talon": layout.single(WASTE),
        "in_suit": in_suit,
        "marries": one_below_in_suit if in_suit else one_below_any_suit,
        "sequences": readings["sequence-moves"] == "whole-sequence",
        "space_any": readings["space-fill"] == "any-card",
        "talon_marries": readings["talon-to-square"] == "allowed",
        "take_back": readings["take-back"] == "allowed",
        "dealt": dealt_so_far,
    }
    # one Move object per square move (moves are immutable): a married run is at most 13 cards
    options["square_moves"] = {(src, dst, n): Move("move", src, dst, count=n)
                               for src in options["packets"] for dst in options["packets"] for n in range(1, 14)}
    book = RuleBook(layout)
    book.allow("deal", rules=[deal_while_the_pack_lasts], perform=deal)
    for src in (TABLEAU, WASTE):
        book.allow("move", src, FOUNDATION,
                   [the_square_is_dealt_first, only_top_cards_are_available, aces_found_and_suits_follow_up_to_the_kings])
    book.allow("move", TABLEAU, TABLEAU,
               [the_square_is_dealt_first, only_top_cards_are_available, a_moved_sequence_is_a_marriage,
                a_space_takes_one_card_from_talon_or_pack, marriages_descend_on_the_square],
               candidates=_square_moves)
    book.allow("move", WASTE, TABLEAU,
               [the_square_is_dealt_first, only_top_cards_are_available, a_space_takes_one_card_from_talon_or_pack,
                talon_cards_marry_onto_the_square, marriages_descend_on_the_square])
    book.allow("move", STOCK, TABLEAU,
               [the_square_is_dealt_first, only_top_cards_are_available, the_pack_only_fills_spaces,
                a_space_takes_one_card_from_talon_or_pack])
    if options["take_back"]:
        book.allow("move", FOUNDATION, TABLEAU,
                   [the_square_is_dealt_first, only_top_cards_are_available, a_card_built_on_an_ace_may_come_back,
                    a_space_takes_one_card_from_talon_or_pack, marriages_descend_on_the_square])
    book.refuse_others("move", "ns-1")
    # the foundations ascend to the kings, and keep them (unless take-back=allowed, and then only to the square)
    book.refuse_others("move", "ns-8", src_role=FOUNDATION, register="amb-ns-no-return")
    book.refuse_others("deal", "ns-7")
    return Setup(layout=layout, book=book, max_passes=1, options=options)


# ----------------------------------------------------------------------------- for the solver


def a_card_nothing_can_marry_onto_is_safe_to_play(t: Table, m: Move) -> bool:
    """A card X to a foundation is safe when nothing could ever be married onto it in the square.

    Only a card one rank lower (of X's suit when marriages are in suit, of any suit otherwise)
    goes onto X in the square.  When every copy of those cards is on the foundations, X in the
    square can only be moved about and at last played; no other move needs it, a space or a
    talon card it uncovers is only gained, and the other foundation of its suit already holds
    its rank or stands at the same card (the foundations are interchangeable).  So any winning
    line from here can be rewritten to play X now.  Aces are always safe.

    Under take-back=allowed a card one lower could come back from a foundation onto X; but then
    every card it marries with is on the foundations too (every copy of the lower ranks in the
    marrying suits lies beneath those copies), so such returns only ever cover a card or a space of
    the square, take no card but one another and free nothing: a winning line without them exists,
    and the argument above stands.
    """
    roles = t.game.roles
    if m.dst < 0 or roles[m.dst] != FOUNDATION or roles[m.src] not in (TABLEAU, WASTE):
        return False
    card = t.piles[m.src][-1]
    rank = C.rank_of(card)
    if rank == 0:
        return True
    suits = (C.suit_of(card),) if t.game.options["in_suit"] else range(4)
    for suit in suits:
        copies = 0
        for f in t.game.foundations:
            p = t.piles[f]
            if p and C.suit_of(p[0]) == suit and C.rank_of(p[-1]) >= rank - 1:
                copies += 1
        if copies < C.PACKS:
            return False
    return True


#: what the rules make sound to reduce in a search (read by replay.solver.search.profile_for): the
#: twelve packets have no position the rules look at (any packet marries onto any other, any space
#: takes the same cards), the eight ace foundations are alike, and the round counter is only asked
#: "has the square been dealt?".
SEARCH = {
    "interchangeable_tableau": True,
    "interchangeable_foundations": "all",
    "rounds_matter_up_to": 1,
    "safe_move": a_card_nothing_can_marry_onto_is_safe_to_play,
}


# ----------------------------------------------------------------------------- for the solver: a proof of loss


def _instances(t: Table) -> tuple[list[tuple[int, int, int]], int]:
    """Every card not on a foundation as ``(card, place, height)``: place is the packet's index, or -1 for
    the talon, or -2 for the pack; height counts from the bottom of the packet or talon (the pack: 0).
    Under take-back=allowed the cards on the foundations too, at place ``FOUNDATION_PLACE - f`` for
    foundation ``f``.  Also the number of packets that are empty now."""
    g = t.game
    out: list[tuple[int, int, int]] = []
    spaces = 0
    for p in g.options["packets"]:
        pile = t.piles[p]
        if not pile:
            spaces += 1
        out.extend((card, p, h) for h, card in enumerate(pile))
    out.extend((card, -1, h) for h, card in enumerate(t.piles[g.options["talon"]]))
    out.extend((card, -2, 0) for card in t.piles[g.stock])
    if g.options["take_back"]:
        for f in g.foundations:
            out.extend((card, FOUNDATION_PLACE - f, h) for h, card in enumerate(t.piles[f]))
    return out, spaces


#: the place of :func:`_instances` that stands for foundation 0 (foundation ``f`` is this less ``f``)
FOUNDATION_PLACE = -3


@proof_of_loss("a card that can never come home")
def a_card_that_can_never_come_home_loses(t: Table) -> str | None:
    """Lost when some card can never reach a foundation, even in a game freed of all timing.

    Soundness.  The proof computes the least solution of rules that every game played from here
    obeys; a card the solution leaves out cannot go home in any game, and the game is lost (every
    card must go home).  Each card *instance* (a card at its place now) gets four facts:

    * ``exposed``: it is ever the top card of its place.  A card of the pack is, when it is turned
      (or taken into a space); a card of a packet or of the talon is exposed for the first time only
      after every card now above it there has *left* (cards leave a pile only from the top, and
      nothing beneath a card can move while it lies there).
    * ``home``: it goes to a foundation.  It must be exposed, and (unless an ace) a copy of the card
      one below in suit, another instance, must have gone home before (or lie on a foundation now).
    * ``on_square``: it is ever a top card of the square, where another may be married onto it.  A
      packet card: when exposed.  A talon or pack card: it must be exposed and enter the square,
      into a space (a space must ever exist) or, from the talon under ``talon-to-square=allowed``, by
      marriage onto a card on the square; a card of the pack too, for it is turned onto the talon (the
      proof left pack cards out of marriage until the table's winning line of seed 7 showed it wrong).
    * ``leaves``: it leaves its place.  Home; or married onto another instance on the square (the card
      one above it, in suit under ``marriage-suit=in-suit``), not one beneath it in its own packet; or
      into a space when the rules let it (talon and pack cards always, square cards under
      ``space-fill=any-card``); or, under ``sequence-moves=whole-sequence``, carried away on a married
      run led by a card beneath it (the run's leader is then married or put in a space).
    * A space ever exists when a packet is empty now, or when every card of some packet leaves.
    * Under ``take-back=allowed`` a card on a foundation is an instance too: ``home`` while ``exposed``
      (the top of its foundation, so the card one above may be played onto it), which it is when every
      card now above it there has come back; and it comes back (``on_square`` and ``leaves``), unless an
      ace, onto a card on the square or, under ``space-fill=any-card``, into a space.  Only the cards
      not on a foundation must reach one.

    Every fact true in a real game is derived by these rules from facts that were true before it, so
    the least solution (computed by iterating from "nothing" until nothing changes) contains every
    real fact: the rules only ever *drop* conditions of the real game (timing, the single talon, the
    space being free when wanted), which can only add facts and so only make the proof weaker, never
    wrong.  Before the deal, the position after the deal (the only legal move) is examined.
    """
    g = t.game
    if t.rounds == 0:
        t = t.copy()
        deal_twelve_packets_of_four(t, Move("deal"))
    o = g.options
    marries, in_suit = o["marries"], o["in_suit"]
    sequences, space_any, talon_marries = o["sequences"], o["space_any"], o["talon_marries"]
    inst, spaces_now = _instances(t)
    n = len(inst)
    if n == 0:
        return None
    by_card: dict[int, list[int]] = {}
    for i, (card, _, _) in enumerate(inst):
        by_card.setdefault(card, []).append(i)
    above: list[list[int]] = []  # instances now above i in its place
    below: list[list[int]] = []  # instances now beneath i in its packet, nearest first
    start = 0
    for i, (card, place, h) in enumerate(inst):
        if i and (place != inst[i - 1][1] or place == -2):
            start = i
        end = i
        while end + 1 < n and inst[end + 1][1] == place and place != -2:
            end += 1
        above.append(list(range(i + 1, end + 1)))
        below.append(list(range(i - 1, start - 1, -1)) if place >= 0 else [])
    # foundation tops: (suit, rank) of each foundation that holds cards
    tops = [(C.suit_of(t.piles[f][-1]), C.rank_of(t.piles[f][-1])) for f in g.foundations if t.piles[f]]

    def onto(i: int) -> list[int]:
        """The instances ``i`` may be married onto: the card one above it (in suit if marriages are)."""
        card = inst[i][0]
        r = C.rank_of(card)
        if r == C.KING:
            return []
        suits = (C.suit_of(card),) if in_suit else range(4)
        return [j for s in suits for j in by_card.get(C.make(r + 1, s), ()) if j != i]

    targets = [onto(i) for i in range(n)]
    preds = [by_card.get(card - 4, []) if card >= 4 else [] for card, _, _ in inst]
    pred_on_foundation = [C.rank_of(card) == 0 or (C.suit_of(card), C.rank_of(card) - 1) in tops
                          for card, _, _ in inst]
    packets_of: dict[int, list[int]] = {}
    for i, (_, place, _) in enumerate(inst):
        if place >= 0:
            packets_of.setdefault(place, []).append(i)

    kept = [place > FOUNDATION_PLACE for _, place, _ in inst]  # not on a foundation now

    exposed = [False] * n
    home = [False] * n
    on_square = [False] * n
    leaves = [False] * n
    space = spaces_now > 0
    changed = True
    while changed:
        changed = False
        for i in range(n):
            card, place, _ = inst[i]
            if not exposed[i] and all(leaves[j] for j in above[i]):
                exposed[i] = changed = True
            if not exposed[i]:
                if sequences and place >= 0 and not leaves[i] and _carried_on_a_run(
                        i, inst, below, marries, targets, on_square, space and space_any):
                    leaves[i] = changed = True
                continue
            if not kept[i]:  # a card of a foundation (take-back=allowed)
                if not home[i]:
                    home[i] = changed = True
                if not on_square[i] and C.rank_of(card) and (space and space_any or any(
                        on_square[j] for j in targets[i])):
                    on_square[i] = leaves[i] = changed = True
                continue
            if not home[i] and (pred_on_foundation[i] or any(home[j] for j in preds[i] if j != i)):
                home[i] = changed = True
            if not on_square[i] and (place >= 0 or space or (  # a card of the pack is turned onto the talon
                    place < 0 and talon_marries and any(on_square[j] for j in targets[i]))):
                on_square[i] = changed = True
            if not leaves[i]:
                mine = set(below[i])
                if (home[i] or (place < 0 and space) or (place >= 0 and space and space_any)
                        or (place >= 0 or talon_marries)
                        and any(on_square[j] and j not in mine for j in targets[i])
                        or sequences and place >= 0 and _carried_on_a_run(
                            i, inst, below, marries, targets, on_square, space and space_any)):
                    leaves[i] = changed = True
        if not space and any(all(leaves[j] for j in members) for members in packets_of.values()):
            space = changed = True
    for i, (card, place, _) in enumerate(inst):
        if kept[i] and not home[i]:
            where = {-1: "the talon", -2: "the pack"}.get(place) or t.name(place)
            return f"{C.code(card)} in {where} can never reach a foundation"
    return None


def _carried_on_a_run(i: int, inst: list[tuple[int, int, int]], below: list[list[int]], marries: Any,
                      targets: list[list[int]], on_square: list[bool], space_any: bool) -> bool:
    """Whether a married run led by a card beneath ``i`` in its packet may carry ``i`` away (see
    :func:`a_card_that_can_never_come_home_loses`): every card from the leader up to ``i`` married on the
    one beneath, and the leader married onto a card on the square outside the packet, or into a space."""
    upper = i
    for h in below[i]:
        if not marries(inst[h][0], inst[upper][0]):
            return False
        if space_any or any(on_square[j] and inst[j][1] != inst[i][1] for j in targets[h]):
            return True
        upper = h
    return False


SEARCH["dead_ends"] = (a_card_that_can_never_come_home_loses,)
#: asked at the root only: at every position it cost five times the search's speed (about 3 ms a
#: position) and pruned one to three positions in ten, deciding no more deals at 1 s (benchmarks/README.md)
SEARCH["dead_ends_at_nodes"] = False


# ----------------------------------------------------------------------------- for the solver: the fast core


def _fast_options(g: Game) -> list[int]:
    """The options as replay/fastcore/games/napoleons_square.c reads them: the five rulings, the talon,
    then the packets in dealing order (the order of _square_moves and of the deal)."""
    o = g.options
    packets = list(o["packets"])
    return [int(o["in_suit"]), int(o["sequences"]), int(o["space_any"]), int(o["talon_marries"]),
            int(o["take_back"]), o["talon"], len(packets), *packets]


def _fast_vars(t: Table) -> bytes | None:
    """``Table.vars`` as bytes: this game keeps none (None, the Python search, if some ever appear)."""
    return b"" if not t.vars else None


def _fast_vars_back(b: bytes) -> dict[str, Any]:
    return {}


SEARCH["fast_core"] = FastCore(kernel="napoleons-square", options=_fast_options, vars=_fast_vars,
                               vars_back=_fast_vars_back)
