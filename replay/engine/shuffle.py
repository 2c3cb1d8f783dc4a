"""A seeded shuffle that any language can re-implement bit for bit.

Generator: SplitMix64 (Steele, Lea and Flood 2014).  With all arithmetic
modulo 2**64::

    state = seed
    next():  state += 0x9E3779B97F4A7C15
             z = state
             z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
             z = (z ^ (z >> 27)) * 0x94D049BB133111EB
             return z ^ (z >> 31)

A uniform integer below ``n`` is drawn by rejection: ``limit = 2**64 - (2**64 % n)``;
draw ``x = next()`` until ``x < limit``; return ``x % n``.

Shuffle: Fisher-Yates from the end: for ``i`` from ``len(cards) - 1`` down to 1,
``j = below(i + 1)`` and swap ``cards[i]`` with ``cards[j]``.

The deck shuffled is :func:`replay.engine.cards.full_deck` (two packs in
canonical order).  Nothing here depends on Python's ``random`` module, whose
algorithms may change between versions.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError("seed must be a non-negative integer")
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled(items: list[int], seed: int) -> list[int]:
    """A new list: ``items`` shuffled by the documented algorithm."""
    out = list(items)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
