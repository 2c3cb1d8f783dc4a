"""Cards of two full packs and their canonical codes.

A card is a small integer ``rank * 4 + suit`` with rank 0 (ace) to 12 (king)
and suit 0-3 in the order ``S H D C``.  The canonical code is the rank letter
(``A 2-9 T J Q K``) followed by the suit letter: ``TH`` is the ten of hearts.
The two packs are indistinguishable: a deck holds every card twice.
"""

from __future__ import annotations

from collections import Counter

from replay.engine.errors import CardCodeError

SUITS = "SHDC"
RANKS = "A23456789TJQK"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
ACE, KING = 0, 12
PACKS = 2
DECK_SIZE = 52 * PACKS

_CODE = [r + s for r in RANKS for s in SUITS]
_PARSE = {c: i for i, c in enumerate(_CODE)}


def make(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = ace … 12 = king) and ``suit`` (0-3, ``S H D C``)."""
    return rank * 4 + suit


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def value_of(card: int) -> int:
    """The card's number for counting: ace 1 … ten 10, jack 11, queen 12, king 13."""
    return (card >> 2) + 1


def is_red(card: int) -> bool:
    return (card & 3) in (1, 2)


def code(card: int) -> str:
    """Canonical code of ``card``, e.g. ``"QS"``."""
    return _CODE[card]


def name(card: int) -> str:
    """English name, e.g. ``"queen of spades"``."""
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def pretty(card: int) -> str:
    """Short display form with the suit symbol, e.g. ``"Q♠"``."""
    return RANKS[card >> 2].replace("T", "10") + SUIT_SYMBOLS[card & 3]


_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_RANK_ALIASES = {"10": "T", "1": "A", "11": "J", "12": "Q", "13": "K", "B": "J", "D": "Q"}


def suggest(text: str) -> str | None:
    """The canonical code ``text`` most likely means, or None."""
    t = text.strip().upper()
    if not t:
        return None
    suit = _SUIT_ALIASES.get(t[-1], t[-1])
    rank = t[:-1]
    rank = _RANK_ALIASES.get(rank, rank)
    guess = rank + suit
    if guess in _PARSE:
        return guess
    if len(t) == 2 and t[::-1] in _PARSE:
        return t[::-1]
    return None


def parse(text: str) -> int:
    """Parse a canonical card code; raise :class:`CardCodeError` with a suggestion otherwise."""
    try:
        return _PARSE[text]
    except (KeyError, TypeError):
        hint = suggest(text) if isinstance(text, str) else None
        raise CardCodeError(text, hint) from None


def full_deck() -> list[int]:
    """Two packs in canonical order: pack one A♠ A♥ A♦ A♣ 2♠ … K♣, then pack two the same."""
    return list(range(52)) * PACKS


def multiset(cards: list[int]) -> Counter[int]:
    return Counter(cards)
