"""Table mechanics shared by games: building on foundations, dealing rounds, gathering piles.

These helpers name no clause; a game's rule functions call them and cite their own text.
"""

from __future__ import annotations

from replay.engine import cards as C
from replay.engine.game import Move, Table


def fits_foundation(t: Table, f: int, card: int) -> bool:
    """Whether ``card`` may go on foundation ``f``: its base on an empty one, else next in suit and direction."""
    pile = t.piles[f]
    if not pile:
        if C.rank_of(card) != t.game.fbase[f]:
            return False
        suit = t.fsuit[f]
        return suit < 0 or suit == C.suit_of(card)
    top = pile[-1]
    return (top & 3) == (card & 3) and (card >> 2) == (top >> 2) + t.game.fdir[f]


def foundation_accepts(t: Table, f: int) -> tuple[int, ...]:
    """Every card :func:`fits_foundation` lets onto foundation ``f`` now (for a rule's ``accepts``)."""
    pile = t.piles[f]
    if not pile:
        base, suit = t.game.fbase[f], t.fsuit[f]
        return (C.make(base, suit),) if suit >= 0 else tuple(C.make(base, s) for s in range(4))
    top = pile[-1]
    d = t.game.fdir[f]
    return (top + 4 * d,) if 0 <= (top >> 2) + d <= C.KING else ()


def rank_neighbours(t: Table, d: int) -> tuple[int, ...] | None:
    """The cards one rank above or below the top card of ``d``, in every suit (what
    :func:`next_any_suit` allows on it); None when ``d`` is empty.  For a rule's ``accepts``."""
    pile = t.piles[d]
    return _RANK_NEIGHBOURS[pile[-1] >> 2] if pile else None


def suit_neighbours(t: Table, d: int) -> tuple[int, ...] | None:
    """The cards one rank above or below the top card of ``d`` in its suit (what :func:`next_in_suit`
    allows on it); None when ``d`` is empty.  For a rule's ``accepts``."""
    pile = t.piles[d]
    return _SUIT_NEIGHBOURS[pile[-1]] if pile else None


#: per rank, the cards one rank below it, then one above, each in the four suits (the legal-move search asks
#: them of every target, so they are laid out once)
_RANK_NEIGHBOURS = tuple(tuple(C.make(n, s) for n in (r - 1, r + 1) if 0 <= n <= C.KING for s in range(4))
                         for r in range(C.KING + 1))
#: per card, the cards of its suit one rank below it and one above
_SUIT_NEIGHBOURS = tuple(tuple(top + 4 * k for k in (-1, 1) if 0 <= (top >> 2) + k <= C.KING)
                         for top in range(4 * (C.KING + 1)))


def next_in_suit(under: int, over: int) -> bool:
    """``over`` is one rank above or below ``under`` in the same suit."""
    return (under & 3) == (over & 3) and abs((under >> 2) - (over >> 2)) == 1


def next_any_suit(under: int, over: int) -> bool:
    """``over`` is one rank above or below ``under``, whatever the suits."""
    return abs((under >> 2) - (over >> 2)) == 1


def one_below_in_suit(under: int, over: int) -> bool:
    """``over`` is one rank below ``under`` in the same suit (a descending marriage)."""
    return (under & 3) == (over & 3) and (over >> 2) == (under >> 2) - 1


def one_below_any_suit(under: int, over: int) -> bool:
    return (over >> 2) == (under >> 2) - 1


def deal_round(t: Table, order: tuple[int, ...], per_pile: int = 1) -> int:
    """Deal from the stock onto the piles in ``order`` (``per_pile`` cards each) until it runs out.

    Returns how many cards were dealt; counts the round.
    """
    piles = t.piles
    stock = piles[t.game.stock]
    dealt = min(len(order) * per_pile, len(stock))
    if dealt:
        dealing = stock[-dealt:]  # the stock's next card is its last element
        del stock[-dealt:]
        dealing.reverse()
        if per_pile == 1:
            for i, card in zip(order, dealing):
                piles[i].append(card)
        else:
            for n, i in enumerate(order):
                piles[i].extend(dealing[n * per_pile:(n + 1) * per_pile])
    t.rounds += 1
    return dealt


def gather(t: Table, order: tuple[int, ...], bottom_first: bool) -> None:
    """Take up the piles in ``order`` into a new stock and begin the next pass.

    With ``bottom_first`` each pile's bottom card is dealt first (the piles stacked in order and
    turned face down); otherwise each pile is dealt from its top card down.
    """
    new: list[int] = []
    for i in order:
        pile = t.piles[i]
        new.extend(pile if bottom_first else reversed(pile))
        pile.clear()
    stock = t.piles[t.game.stock]
    stock[:0] = reversed(new)  # the stock's next card is its last element
    t.passes += 1
    t.rounds = 0


def stock_empty(t: Table) -> bool:
    return not t.piles[t.game.stock]


# ----------------------------------------------------------------------------- reasons shared by games
# Each returns None when the move is allowed, else the reason (or ``(clause, reason)`` with the
# clause the caller passed): the game's own rule function cites the text.


def top_card_only(t: Table, m: Move, what: str = "the top card of a pile is playable",
                  register: str | None = None) -> str | None:
    """A move takes one card, the top one, from a pile that has cards.

    ``register`` names the ambiguity entry that settles it, when no clause says it in so many words.
    """
    if not t.piles[m.src]:
        return f"{t.name(m.src)} is empty"
    if m.count != 1:
        return f"only {what}: cards move one at a time" + (f" (the register, {register})" if register else "")
    return None


# ----------------------------------------------------------------------------- naming what exists


def move_text(t: Table, m: Move) -> str:
    """A move as ``replay moves`` shows it and ``replay play`` takes it: ``p3 → F2  5H``,
    ``tuck X → p13  KH``, ``p3 → p5  7H ×3`` (the card named is the lowest one moved), ``deal``."""
    text = " ".join(([] if m.type == "move" and m.src >= 0 else [m.type])
                    + ([t.name(m.src) + (f" → {t.name(m.dst)}" if m.dst >= 0 else "")] if m.src >= 0 else []))
    if m.src >= 0 and len(t.piles[m.src]) >= m.count:
        text += "  " + C.code(t.piles[m.src][-m.count])
    if m.count != 1:
        text += f" ×{m.count}"
    return text


def moves_text(t: Table, moves: list[Move]) -> str:
    """The first of ``moves`` and how many more: ``p3 → F2  5H (and 2 more)``."""
    if not moves:
        return "none"
    more = f" (and {len(moves) - 1} more)" if len(moves) > 1 else ""
    return move_text(t, moves[0]) + more


def legal_to(t: Table, roles: tuple[str, ...], types: tuple[str, ...] = ("move",)) -> list[Move]:
    """The legal moves of ``types`` whose target has one of ``roles`` (to name them in a reason)."""
    return [m for m in t.game.legal_moves(t, types) if m.dst >= 0 and t.game.roles[m.dst] in roles]


def deck_not_dealt_out(t: Table) -> str | None:
    """A deal needs cards in the stock."""
    return None if t.piles[t.game.stock] else "the deck is dealt out; gather the piles (redeal)"


def other_moves_come_first(t: Table, m: Move, gather_clause: str,
                           gathering: str = "next deal") -> str | tuple[str, str] | None:
    """(a when-stuck reading) No deal or gathering while another move is possible.

    A refused gathering cites ``gather_clause``; ``gathering`` names what is refused in its reason.
    """
    if t.game.any_legal(t, exclude=frozenset({"deal", "redeal"})):
        why = "a move is still possible; under this ruling every possible move comes before the next deal"
        return (gather_clause, why.replace("next deal", gathering)) if m.type == "redeal" else why
    return None


def game_won(t: Table) -> str | None:
    """A won game has no move left: every card is on the foundations (the reason), else None."""
    return "the patience has come out: every card is on the foundations, and a won game has no move left" \
        if t.is_won() else None


def gathering_allowed(t: Table, passes: int, limit_clause: str, limit: str) -> str | tuple[str, str] | None:
    """The piles are gathered only once the stock is empty, only while the game is not won, and only
    ``passes`` passes are played.

    A pass too many, or a gathering after the game is won, cites ``limit_clause`` (the clause that
    says when the game comes out) with the reason ``limit`` or :func:`game_won`'s.
    """
    if not stock_empty(t):
        return "the deck is not yet dealt out"
    won = game_won(t)
    if won:
        return (limit_clause, won)
    if t.passes >= passes:
        return (limit_clause, limit)
    return None
