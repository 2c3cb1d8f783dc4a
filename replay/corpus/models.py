"""Pydantic models for every file under ``corpus/``.

Every model forbids unknown keys (``extra="forbid"``): a misspelt key in a
YAML file is an error, never a silently ignored field.  The JSON Schemas in
``corpus/schema/`` are generated from these models (``replay corpus schema``)
and a test fails when they drift.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from replay.corpus.ids import PREFIX_ALTERNATION, TEXT_IDS

ClauseId = Annotated[str, StringConstraints(pattern=rf"^({PREFIX_ALTERNATION})-[1-9][0-9]*$")]
AmbiguityId = Annotated[str, StringConstraints(pattern=rf"^amb-({PREFIX_ALTERNATION})-[a-z0-9]+(-[a-z0-9]+)*$")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
TextId = Literal[TEXT_IDS]  # type: ignore[valid-type]
GameId = Slug
PileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")]
Suit = Literal["S", "H", "D", "C"]

ClauseKind = Literal["setup", "rule", "variant", "example", "commentary", "provenance"]
#: Kinds whose clauses state something the engine must implement (or excuse).
NORMATIVE_KINDS: frozenset[str] = frozenset({"setup", "rule", "variant", "example"})


class Strict(BaseModel):
    """Base for corpus models: unknown keys are errors; instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # schemas are built when first used


# --------------------------------------------------------------------------- texts


class Evidence(Strict):
    """One piece of evidence: where it is and what it shows."""

    source: str = Field(description="Who or what says it: a clause ID, a book, a program.")
    cite: str | None = Field(None, description="Exact place: clause ID, chapter, file path, URL.")
    says: str = Field(description="What the source says or shows, in a sentence or two.")


class Measured(Strict):
    """A measured figure an entry's argument rests on, as a committed statistics file holds it (the tests hold
    the two equal: tests/test_register_figures.py); the register's prose quotes no figure of its own."""

    form: str = Field(description="The form, as the statistics label it ('printex-frame deal-timing=when-stuck').")
    data: str = Field(description="The committed data file that holds it, under data/stats/ (a table or a row).")
    budget: int = Field(gt=0, description="Positions per deal at which the figure stands.")
    deals: int = Field(gt=0, description="Deals measured.")
    won: int = Field(ge=0, description="Deals won.")
    unwinnable: int = Field(ge=0, description="Deals proved lost.")
    mean_home: float | None = Field(None, description="Mean cards home (of 104) in the best position reached.")
    says: str = Field(description="What the figure shows for the argument, in words.")


class Statement(Strict):
    claim: str
    evidence: list[Evidence] = Field(min_length=1)


class Provenance(Strict):
    summary: str
    known: list[Statement] = Field(description="Facts that the evidence establishes.")
    inferred: list[Statement] = Field(description="What we infer, kept apart from what is known.")
    unknown: list[str] = Field(default_factory=list, description="Open questions.")


class Text(Strict):
    id: TextId
    file: str = Field(description="Path of the verbatim source, relative to corpus/.")
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    size: int = Field(gt=0, description="Size of the source in bytes.")
    language: Literal["pl", "ru"]
    orthography: str
    title: str
    games: list[GameId] = Field(min_length=1)
    layers: list[Literal["verbatim", "diplomatic", "normalized", "translation"]]
    provenance: Provenance


# --------------------------------------------------------------------------- games


class PlaysAs(Strict):
    """Under which of our readings the engine plays as a relative's rules, as far as our rulings reach.

    Argued from the relative's ``differences`` and ``followed`` notes and the ambiguity register; the
    statistics table plays the form (``replay stats --table``) unless ``unplayable`` says why not.
    """

    title: str = Field(description="How a reader names these rules, e.g. \"Cadogan's rules\".")
    variants: list[Slug] = Field(default_factory=list, description="The variants of ours that play as it.")
    rulings: dict[Slug, Slug] = Field(
        default_factory=dict,
        description="Ruling -> reading, where the relative reads otherwise than our default (empty: our defaults).",
    )
    beyond: list[str] = Field(
        default_factory=list,
        description="Where its rules differ and no reading of ours reaches: the form plays our text there.",
    )
    unplayable: str | None = Field(
        None, description="Why the form would not be this relative's game (a reading it needs that we do not have): "
                          "then the table does not play it.",
    )


class Relative(Strict):
    """A published implementation or description of a related game."""

    name: str = Field(description="e.g. PySolFC `LesQuatreCoins`.")
    where: str = Field(description="Where it is published: a file, a book and page.")
    differences: list[str] = Field(description="Where its rules differ from our text (our text wins).")
    followed: list[str] = Field(
        default_factory=list,
        description="Where our text is silent and we follow this relative; each names the ambiguity.",
    )
    plays_as: PlaysAs | None = Field(
        None, description="Under which of our readings the engine plays as its rules (absent: not argued).",
    )


class VariantInfo(Strict):
    id: Slug
    title: str
    original_title: str | None = None
    summary: str


class GameInfo(Strict):
    id: GameId
    title: str
    original_title: str | None = None
    text: TextId
    summary: str
    also_known_as: list[str] = Field(default_factory=list)
    variants: list[VariantInfo] = Field(default_factory=list)
    relatives: list[Relative] = Field(default_factory=list)


# --------------------------------------------------------------------------- clauses


class Clause(Strict):
    """One rule or statement of a text, with its place in the verbatim source."""

    id: ClauseId
    game: GameId
    variant: Slug | None = Field(None, description="The variant this clause belongs to, if any.")
    kind: ClauseKind
    spans: list[tuple[int, int]] = Field(
        min_length=1, description="Character offsets [start, end) into the verbatim text (decoded UTF-8)."
    )
    verbatim: str = Field(description="Exactly the text of the spans (joined by ' … ' when several).")
    normalized: str | None = Field(None, description="Modern-orthography reading (Russian text only).")
    translation: str = Field(min_length=1, description="English translation.")
    notes: str | None = Field(None, description="Translator's notes: what the translation could not show.")

    @model_validator(mode="after")
    def _spans_ordered(self) -> Clause:
        last = -1
        for start, end in self.spans:
            if not (0 <= start < end) or start < last:
                raise ValueError(f"spans of {self.id} must be increasing, non-empty and non-overlapping")
            last = end
        return self


class Substitution(Strict):
    """A systematic correction applied to every occurrence (e.g. OCR 'ђ' for 'ѣ')."""

    sic: str = Field(min_length=1)
    corr: str = Field(min_length=1)
    kind: Literal["yat", "ocr", "punctuation", "spacing"]
    reason: str


class Correction(Strict):
    """One repair of the verbatim text at one place."""

    at: int = Field(ge=0, description="Character offset of `sic` in the verbatim text.")
    sic: str = Field(min_length=1, description="What stands in the verbatim text.")
    corr: str = Field(description="What we read.")
    kind: Literal["ocr", "punctuation", "spacing", "yat", "print-or-ocr"] = Field(
        description="What made the error; print-or-ocr: the printer or the OCR, which cannot be told apart without "
        "the scan.")
    reason: str


class ClausesFile(Strict):
    text: TextId
    clauses: list[Clause]
    substitutions: list[Substitution] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)


class LockedClause(Strict):
    text: TextId
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]
    quote: str = Field(description="The first words of the clause, for the human reader.")


class RetiredClause(Strict):
    text: TextId
    note: str


class ClauseLockFile(Strict):
    """Committed list of clause IDs: IDs are never renumbered, only added or retired."""

    active: dict[ClauseId, LockedClause]
    retired: dict[ClauseId, RetiredClause] = Field(default_factory=dict)


# --------------------------------------------------------------------------- ambiguities


class Reading(Strict):
    id: Slug
    summary: str
    detail: str | None = None
    selectable: bool = Field(
        True, description="False for a reading recorded for completeness that no log can select (say why in detail)."
    )
    plays_as_default: str | None = Field(
        None, min_length=1,
        description="Why a ruling's reading is kept although random walks of every form find it playing as the "
        "default does (`replay corpus check` asks for this; e.g. where it differs only with another ruling's reading).",
    )


AmbiguityCategory = Literal[
    "missing-figure", "contradiction", "damage", "unsaid", "vague", "lexical", "missing-text"
]
AmbiguityStatus = Literal["ruling", "resolved", "no-play-difference"]


class Ambiguity(Strict):
    """One entry of the ambiguity register."""

    id: AmbiguityId
    title: str
    category: AmbiguityCategory
    clauses: list[ClauseId] = Field(min_length=1)
    problem: str
    readings: list[Reading] = Field(min_length=1)
    default: Slug = Field(description="ID of the reading the engine takes by default.")
    reasons: str = Field(description="Why the default: the argument.")
    evidence: list[Evidence] = Field(default_factory=list)
    measured: list[Measured] = Field(default_factory=list, description="Measured figures the argument rests on.")
    status: AmbiguityStatus = Field(
        description="ruling: a switch selects the reading; resolved: the evidence leaves one reading; "
        "no-play-difference: the readings play the same."
    )
    ruling: Slug | None = Field(None, description="Engine ruling that switches between the readings.")
    variants: list[Slug] = Field(default_factory=list, description="Variants the ruling applies to (empty: all).")

    @model_validator(mode="after")
    def _consistent(self) -> Ambiguity:
        ids = [r.id for r in self.readings]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.id}: reading IDs repeat")
        if self.default not in ids:
            raise ValueError(f"{self.id}: default {self.default!r} is not one of the readings {ids}")
        if not next(r for r in self.readings if r.id == self.default).selectable:
            raise ValueError(f"{self.id}: the default reading must be selectable")
        if (self.status == "ruling") != (self.ruling is not None):
            raise ValueError(f"{self.id}: status 'ruling' and a ruling name go together")
        if self.ruling is not None and sum(r.selectable for r in self.readings) < 2:
            raise ValueError(f"{self.id}: a ruling needs at least two selectable readings")
        return self


class AmbiguitiesFile(Strict):
    text: TextId
    entries: list[Ambiguity]


# --------------------------------------------------------------------------- glossary

TermLang = Literal["pl", "ru-old", "ru-modern", "en"]


class TermForm(Strict):
    lang: TermLang
    form: str = Field(description="The headword as it is spelt in this language or spelling.")
    match: str | None = Field(
        None,
        description="Word, phrase or stem to look for at the start of a word in each clause of `occurs` "
        "(default: form), case-insensitive; never matched inside a word.",
    )
    occurs: list[ClauseId] = Field(default_factory=list)


class Term(Strict):
    id: Slug
    gloss: str = Field(description="English headword.")
    art: bool = Field(True, description="A term of art of the card table (underlined on the game pages, with its "
                                        "entry as a tooltip); false for an ordinary word glossed for the reader.")
    definition: str
    forms: list[TermForm] = Field(min_length=1)
    see_also: list[Slug] = Field(default_factory=list)


class GlossaryFile(Strict):
    terms: list[Term]


# --------------------------------------------------------------------------- witnesses


class WitnessSource(Strict):
    """Where a witness's quotations were read: the book, its edition, the copy actually consulted."""

    work: str = Field(min_length=1, description="Author and title, e.g. Lady Cadogan, Illustrated Games of Patience.")
    edition: str = Field(min_length=1, description="Edition, place, publisher, year.")
    section: str = Field(min_length=1, description="The game's section (its title in the book).")
    place: str = Field(min_length=1, description="Page or chapter, or the ebook and its division.")
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$")] = Field(
        description="The copy the quotations were copied from (a transcription is named as such)."
    )
    also: list[str] = Field(default_factory=list, description="Other copies consulted.")
    terms: str = Field(
        min_length=1,
        description="What the quoted text is and on what terms it is quoted: its licence or status (public domain, "
        "CC BY-SA 4.0, none stated), and whose copy was read (corpus/LICENSE §3).",
    )
    read: str | None = Field(
        None, pattern=r"^\d{4}-\d{2}-\d{2}$",
        description="The day the copy was read (ISO 8601), for a text that changes (a wiki article, a web page).",
    )
    revision: str | None = Field(
        None, min_length=1, description="The revision read, for a versioned text (a wiki article), or why it is not known."
    )


class Passage(Strict):
    """The witness's words that one clause corresponds to, and what the clause changes."""

    clause: ClauseId
    source: Slug = Field(description="Key of the source in the file's `sources`.")
    part: str = Field(min_length=1, description="Where in the section: Rule I, Play, Note …")
    quote: str | None = Field(
        None, min_length=1, description="Short quotation, copied from the source; absent when not verified."
    )
    not_verified: str | None = Field(
        None, min_length=1, description="Why there is no quotation: what could not be retrieved."
    )
    departs: str | None = Field(
        None, description="Where the Polish or Russian departs from the English; absent when it follows it."
    )

    @model_validator(mode="after")
    def _quote_or_why_not(self) -> Passage:
        if (self.quote is None) == (self.not_verified is None):
            raise ValueError(f"{self.clause}: a passage has a quotation or says why not (not_verified), not both")
        return self


WitnessRelation = Literal["original", "relative"]


class WitnessFile(Strict):
    """An English witness of one game, aligned clause by clause (``corpus/witnesses/*.yaml``)."""

    id: Slug
    game: GameId
    relation: WitnessRelation = Field(
        description="original: the text our clauses translate or adapt; relative: another game whose wording "
        "our text echoes (cited for comparison only)."
    )
    title: str
    summary: str
    sources: dict[Slug, WitnessSource] = Field(min_length=1)
    passages: list[Passage] = Field(min_length=1)


# --------------------------------------------------------------------------- layouts

Role = Literal["tableau", "foundation", "stock", "waste", "reserve"]


class PileSpec(Strict):
    name: PileName
    row: float
    col: float
    role: Literal["tableau", "stock", "waste", "reserve"]
    label: str | None = Field(None, description="What the text or figure calls it (e.g. corner '1').")


class FoundationSpec(Strict):
    name: PileName
    row: float
    col: float
    base: Literal["A", "K"] = Field(description="A builds up to K; K builds down to A.")


class LayoutSpec(Strict):
    """A reconstruction of a table: where every pile and foundation lies.

    Rows and columns are grid coordinates; "same row", "same column",
    "adjacent" and "corner" are computed from them, never listed.
    """

    id: Slug
    game: GameId
    title: str
    description: str
    reading: Slug | None = Field(None, description="The ruling reading that selects this layout.")
    piles: list[PileSpec]
    foundations: list[FoundationSpec]
    arrangements: dict[Slug, dict[PileName, Suit]] = Field(
        default_factory=dict, description="Named suit arrangements of the foundations."
    )
    deal: list[PileName] = Field(description="Order in which the first round is dealt.")
    later_deal: list[PileName] | None = Field(None, description="Order of later rounds (default: deal).")
    gather: list[PileName] | None = Field(None, description="Order in which piles are gathered (default: deal).")

    @model_validator(mode="after")
    def _names(self) -> LayoutSpec:
        names = [p.name for p in self.piles] + [f.name for f in self.foundations]
        if len(set(names)) != len(names):
            raise ValueError(f"layout {self.id}: pile names repeat")
        tableau = {p.name for p in self.piles if p.role == "tableau"}
        for field in ("deal", "later_deal", "gather"):
            order = getattr(self, field)
            if order is None:
                continue
            unknown = [n for n in order if n not in tableau]
            if unknown:
                raise ValueError(f"layout {self.id}: {field} names unknown tableau piles {unknown}")
            if len(set(order)) != len(order):
                raise ValueError(f"layout {self.id}: {field} repeats a pile")
        found = {f.name for f in self.foundations}
        for arr, mapping in self.arrangements.items():
            if set(mapping) != found:
                raise ValueError(f"layout {self.id}: arrangement {arr} must give a suit to every foundation")
        return self


# --------------------------------------------------------------------------- changes (corpus/changes.yaml)

ChangeKind = Literal["ruling", "reading", "default", "rule"]
Version = Annotated[str, StringConstraints(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")]
Commit = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{7,40}$")]


class Change(Strict):
    """One change of what a log means: a new ruling, a new reading of one, a changed default, or a rule read anew.

    A log names the readings it was played under; whatever it leaves out is read with the defaults of the
    archive that reads it, so every change here can change the verdict on an old log.
    """

    kind: ChangeKind = Field(
        description="ruling: a new ruling (its readings and default); reading: a new reading of a ruling; "
        "default: the default of a ruling changed (before -> default); rule: a rule read anew with no ruling "
        "(clauses).")
    game: GameId
    ruling: Slug | None = Field(None, description="The ruling (kinds ruling, reading, default).")
    ambiguity: AmbiguityId | None = Field(None, description="The register entry that argues the change.")
    readings: list[Slug] = Field(default_factory=list, description="kind ruling: its readings, as introduced.")
    reading: Slug | None = Field(None, description="kind reading: the reading added.")
    default: Slug | None = Field(None, description="kinds ruling and default: the default from now on.")
    before: Slug | None = Field(
        None, description="kind default: the previous default; kind ruling: the reading the engine played before "
        "the ruling existed (what older logs, which cannot name it, meant), none for the first edition.")
    clauses: list[ClauseId] = Field(default_factory=list, description="kind rule: the clauses read anew.")
    commit: Commit | None = Field(None, description="The commit that made the change, where known.")
    reason: str = Field(min_length=1, description="Why, in a sentence or two (the register has the argument).")

    @model_validator(mode="after")
    def _fields_of_its_kind(self) -> Change:
        need = {"ruling": ("ruling", "readings", "default"), "reading": ("ruling", "reading"),
                "default": ("ruling", "before", "default"), "rule": ("clauses",)}[self.kind]
        missing = [f for f in need if not getattr(self, f)]
        if missing:
            raise ValueError(f"a {self.kind!r} change needs {', '.join(missing)}")
        if self.kind == "ruling" and self.default not in self.readings:
            raise ValueError(f"ruling {self.ruling}: its default {self.default!r} is not one of its readings")
        return self


class Reversal(Strict):
    """A claim of the apparatus withdrawn or corrected in a version: no verdict on a log changes, but what the
    edition says does, and a reader who cited the older version must be able to find what was said then."""

    subject: str = Field(min_length=1, description="What the claim is about, e.g. \"text 000, the lost figure\".")
    cites: list[str] = Field(default_factory=list, description="IDs where it stands now: texts, clauses, entries.")
    before: str = Field(min_length=1, description="What the older version said.")
    now: str = Field(min_length=1, description="What this version says instead.")
    commit: Commit | None = Field(None, description="The commit that made the change, where known.")
    reason: str = Field(min_length=1, description="Why, in a sentence or two.")


class Release(Strict):
    """One version of the archive and the changes it made."""

    version: Version
    date: str | None = Field(None, description="When it was released (ISO 8601); none while unreleased.")
    summary: str
    changes: list[Change] = Field(min_length=1)
    apparatus: list[Reversal] = Field(
        default_factory=list, description="Claims of the apparatus withdrawn or corrected (they change no verdict).")


class ChangesFile(Strict):
    """``corpus/changes.yaml``: every version of the archive, oldest first, with what it changed for logs."""

    versions: list[Release] = Field(min_length=1)
