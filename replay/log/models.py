"""The game-log format ``replay-log/1``: pydantic models, limits and the published JSON Schema.

A log is one JSON object::

    {"format": "replay-log/1", "game": "zwarta-kolumna", "variants": [], "rulings": {},
     "deck": ["TH", "4C", ...], "moves": [{"type": "deal"}, {"type": "move", "from": "p3", "to": "A2"}],
     "result": "lost", "meta": {"player": "...", "date": "..."}}

Every model forbids unknown keys (``extra="forbid"``) and takes JSON types strictly
(``"count": 1.0`` or ``"count": true`` is not a count).  The moves are a union
discriminated on ``type``.  The JSON Schema published in
``docs/schema/replay-log-1.schema.json`` is :func:`schema_text`; a test fails when
they drift.  What each field means for each game is in ``docs/log-format.md``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

FORMAT = "replay-log/1"

#: a log file larger than this is refused before it is parsed
MAX_BYTES = 5_000_000
#: a log with more moves than this is refused
MAX_MOVES = 100_000
#: JSON nested deeper than this is refused (the limit of the JSON parser, pydantic-core's jiter)
MAX_DEPTH = 200
#: longest pile name, game, variant, ruling or reading name accepted
MAX_NAME = 64
#: longest comment on a move, in characters (a paragraph of a notebook; 100,000 moves with comments this long
#: would pass :data:`MAX_BYTES`, which still bounds the whole file)
MAX_COMMENT = 2000

CARD_PATTERN = r"^[A2-9TJQK][SHDC]$"

CardCode = Annotated[
    str,
    StringConstraints(pattern=CARD_PATTERN),
    Field(description="Canonical card code: rank A 2-9 T J Q K, then suit S H D C (e.g. `TH`, `QS`)."),
]
Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
PileName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_NAME),
    Field(description="A pile, foundation or other container as the game's layout names it (`replay games`)."),
]
Comment = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_COMMENT),
    Field(description="Free text about the move (what the player thought, a note from the source); ignored by "
          f"the rules. 1 to {MAX_COMMENT} characters."),
]
Result = Literal["won", "lost", "unfinished"]


class Strict(BaseModel):
    """Base of the log models: unknown keys are errors; JSON types are taken strictly."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class Commented(Strict):
    """Base of the moves: every move may carry a comment, which the rules ignore."""

    comment: Comment | None = None


# --------------------------------------------------------------------------- moves


class Deal(Commented):
    """Deal the next round from the stock (what a round is depends on the game)."""

    type: Literal["deal"]


class Redeal(Commented):
    """Gather the piles into a new stock and begin the next pass through the deck."""

    type: Literal["redeal"]


class MoveCards(Commented):
    """Move the top card of one pile (or its top count cards, where a ruling allows) onto another."""

    type: Literal["move"]
    from_: PileName = Field(alias="from", description="The pile the card comes from.")
    to: PileName = Field(description="The pile or foundation it goes to.")
    card: CardCode | None = Field(
        None, description="The card moved (the deepest one when several move); when given it must be the card "
        "actually moved."
    )
    count: int = Field(
        1, ge=1, le=104, description="How many cards move together (only Napoleon's Square with the ruling "
        "sequence-moves=whole-sequence moves more than one); from the spread packet 13 of exiles (ruling "
        "thirteenth-packet=spread), the place from the top of the one card taken to a foundation."
    )


class Fill(Commented):
    """(zwarta-kolumna, cztery-katy) Refill the place a base card was taken from with the top of a corner pile."""

    type: Literal["fill"]
    from_: PileName = Field(alias="from", description="The corner pile the replacement comes from.")
    to: PileName = Field(description="The place the base card was taken from.")
    card: CardCode | None = Field(None, description="The card moved; when given it must be the card actually moved.")


class Tuck(Commented):
    """(exiles) Put the top card of the exiles or of the travelling packet under the packet of its number."""

    type: Literal["tuck"]
    from_: PileName = Field(alias="from", description="`exiles`, or the packet the travelling card comes from.")
    to: PileName = Field(description="The packet of the card's number (`p1` … `p13`).")
    card: CardCode | None = Field(None, description="The card moved; when given it must be the card actually moved.")


Step = Annotated[Union[Deal, Redeal, MoveCards, Fill, Tuck], Field(discriminator="type")]

#: every move type of the format, with its model
MOVE_MODELS: dict[str, type[Commented]] = {"deal": Deal, "redeal": Redeal, "move": MoveCards, "fill": Fill,
                                           "tuck": Tuck}
MOVE_TYPES = tuple(MOVE_MODELS)


# --------------------------------------------------------------------------- the log


class Meta(BaseModel):
    """Free-form facts about the record.  The named keys are strings when present; any other key is allowed."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    player: str | None = Field(None, description="Who played.")
    date: str | None = Field(None, description="When (ISO 8601 recommended).")
    source: str | None = Field(None, description="Where the record comes from.")
    notes: str | None = None


class GameLog(Strict):
    """One recorded game: which game under which rules, the deck, and every move in order."""

    format: Literal["replay-log/1"] = Field(description="The format and its version.")
    game: Name = Field(description="A game ID, as `replay games` lists them.")
    variants: list[Name] = Field(description="The variants played (may be empty).")
    rulings: dict[Name, Name] = Field(
        description="Ruling name -> reading; rulings not named take their default reading."
    )
    deck: list[CardCode] = Field(
        max_length=104,
        description="The stock in dealing order, first card dealt first. Where the game takes the foundation "
        "cards out before dealing, the stock after they are taken out.",
    )
    moves: list[Step] = Field(max_length=MAX_MOVES, description="Every move, in the order made.")
    result: Result | None = Field(
        None, description="A claim about the end (checked): won (every card on the foundations), lost (no legal "
        "move is left), unfinished (legal moves remain).",
    )
    meta: Meta | None = Field(None, description="Free-form: player, date, source, notes, …")


# --------------------------------------------------------------------------- schema

def json_schema() -> dict[str, Any]:
    """The JSON Schema of a log (draft 2020-12), as published in ``docs/schema/``.

    Beside the shape of the models, it names what exists so that an editor can complete it and a
    validator catch a misspelt name: the game IDs (an enum), each game's variants and rulings and
    their readings (one ``if``/``then`` per game), and variants given once each (``uniqueItems``).
    """
    schema = GameLog.model_json_schema(by_alias=True)
    props = schema["properties"]
    games = _games()
    props["game"]["enum"] = list(games)
    props["variants"]["uniqueItems"] = True
    schema["allOf"] = [
        {
            "if": {"properties": {"game": {"const": gid}}, "required": ["game"]},
            "then": {"properties": {
                "variants": {"items": {"enum": list(variants)}} if variants else {"maxItems": 0},
                "rulings": {
                    "properties": {name: {"enum": list(readings)} for name, readings in rulings.items()},
                    "additionalProperties": False,
                },
            }},
        }
        for gid, (variants, rulings) in games.items()
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "replay game log, format replay-log/1",
        **schema,
    }


def _games() -> dict[str, tuple[tuple[str, ...], dict[str, tuple[str, ...]]]]:
    """Game ID -> (its variants, ruling name -> the readings a log may choose), from the catalog."""
    from replay.games.catalog import MODULES, module, rulings_for

    return {gid: (tuple(module(gid).VARIANTS), {name: tuple(r.readings) for name, r in sorted(rulings_for(gid).items())})
            for gid in MODULES}


def schema_text() -> str:
    """The schema as the committed file holds it (sorted keys, two-space indent, final newline)."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
