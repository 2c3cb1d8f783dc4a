"""The names the corpus's IDs are made of, in one place: the source texts' numbers and the clause prefixes.

A new source text adds its number to :data:`TEXT_IDS` and its games' clause prefix to
:data:`CLAUSE_PREFIXES` (``docs/contributing.md``); the models' patterns (:mod:`replay.corpus.models`),
``replay trace``'s reading of an ID and the site's linking of IDs in prose are built from them.  No import:
the warm start reads it without pydantic.
"""

from __future__ import annotations

#: the source texts, by number (``corpus/texts/<number>.yaml``)
TEXT_IDS: tuple[str, ...] = ("000", "001", "003")

#: the clause prefix of each game (``zk-8``; ambiguities ``amb-zk-…``)
CLAUSE_PREFIXES: tuple[str, ...] = ("pf", "zk", "ex", "ns")

#: the prefixes as one regular-expression alternation: ``pf|zk|ex|ns``
PREFIX_ALTERNATION = "|".join(CLAUSE_PREFIXES)
