"""Rulings: named switches between the readings of an ambiguous passage.

A ruling's readings and default come from the ambiguity register (data);
a game maps each reading to behaviour.  A game instance is game + variants
+ rulings, resolved here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from replay.engine.errors import UnknownName


@dataclass(frozen=True)
class Ruling:
    name: str
    readings: tuple[str, ...]
    default: str
    ambiguity: str  #: the register entry that defines it
    title: str = ""
    summaries: Mapping[str, str] = field(default_factory=dict)
    variants: tuple[str, ...] = ()  #: variants it applies to; empty means every form of the game

    def applies(self, variants: frozenset[str]) -> bool:
        return not self.variants or bool(variants & set(self.variants))


def resolve(rulings: Mapping[str, Ruling], chosen: Mapping[str, str]) -> dict[str, str]:
    """Every ruling's reading: the chosen one, else the default.  Unknown names raise."""
    out = {name: r.default for name, r in rulings.items()}
    for name, reading in chosen.items():
        if name not in rulings:
            raise UnknownName("ruling", name, sorted(rulings))
        if reading not in rulings[name].readings:
            raise UnknownName(f"reading of ruling {name!r}", reading, list(rulings[name].readings))
        out[name] = reading
    return out
