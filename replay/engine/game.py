"""The generic game and table: legal moves, checked and unchecked application, outcome.

In the manner of OpenSpiel, a :class:`Game` holds the static facts of one
game instance (game + variants + rulings: its layout and its rule book) and
makes :class:`Table` objects, which hold what lies on the table.  In the
manner of python-chess, :meth:`Table.apply` checks a move and raises
:class:`~replay.engine.errors.IllegalMove` (carrying the clause ID) while
:meth:`Table.push` trusts its caller.

Nothing here names a game.  A game module fills a :class:`RuleBook`: for each
kind of move (move type, role of the source, role of the target) the ordered
list of rule functions that must all allow it, how it is performed, and what
follows it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Union

from replay.engine import cards as C
from replay.engine.errors import IllegalMove, InvalidDeck, MoveMismatch, UnknownName
from replay.engine.layout import FOUNDATION, STOCK, Layout


@dataclass(frozen=True, slots=True)
class Move:
    """One action.  ``src``/``dst`` are container indices (-1 when the move has none).

    ``card`` (optional, -1 when absent) is the card the mover says is moved; ``count``
    is how many cards move together (1 unless a ruling allows sequences).
    """

    type: str
    src: int = -1
    dst: int = -1
    card: int = -1
    count: int = 1


#: what a rule returns: None (allowed), the reason, ``(clause, reason)``, or a function of no
#: arguments giving either of these (the reason composed only when it is shown)
Reason = Union[str, tuple[str, str], Callable[[], Union[str, tuple[str, str]]], None]
Rule = Callable[["Table", Move], Reason]
#: a kind of move as the legal-move search asks it (see Game._candidate_plan)
Plan = tuple["Entry", Move, tuple[Rule, ...], tuple[Rule, ...], tuple[Rule, ...], tuple[Rule, ...],
             tuple[tuple[int, Move], ...], tuple[Rule, ...], "list[tuple[int, tuple[Move, ...]]] | None"]
Effect = Callable[["Table", Move], None]
Key = tuple[str, "str | None", "str | None"]


@dataclass
class Entry:
    rules: tuple[Rule, ...]
    perform: Callable[["Table", Move], None] | None
    after: tuple[Effect, ...]
    candidates: Callable[["Table"], Iterable[Move]] | None


class RuleBook:
    """Which rules govern each kind of move, in the order they are checked."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.entries: dict[Key, Entry] = {}
        self.first: list[tuple[Rule, frozenset[str]]] = []
        self.refusal: dict[str, str] = {}
        #: (type, source role) -> (clause, register entry or None): a refusal for moves from that role
        self.refusal_from: dict[tuple[str, str], tuple[str, str | None]] = {}
        #: (type, source role, target role) -> (clause, register entry or None, a note or None)
        self.refusal_between: dict[tuple[str, str, str], tuple[str, str | None, str | None]] = {}

    def allow(
        self,
        type: str,
        src_role: str | None = None,
        dst_role: str | None = None,
        rules: Iterable[Rule] = (),
        *,
        perform: Callable[[Table, Move], None] | None = None,
        after: Iterable[Effect] = (),
        candidates: Callable[[Table], Iterable[Move]] | None = None,
    ) -> None:
        """Allow moves of ``type`` from a ``src_role`` container to a ``dst_role`` one, under ``rules``."""
        self.entries[(type, src_role, dst_role)] = Entry(tuple(rules), perform, tuple(after), candidates)

    def before_every_move(self, rule: Rule, *, except_types: Iterable[str] = ()) -> None:
        """A rule checked before every move (except the listed types)."""
        self.first.append((rule, frozenset(except_types)))

    def refuse_others(self, type: str, clause: str, *, src_role: str | None = None, dst_role: str | None = None,
                      register: str | None = None, note: str | None = None) -> None:
        """Cite ``clause`` when a move of ``type`` matches no allowed kind.

        With ``src_role``, only for such moves from a container of that role (a card taken back
        from a foundation cites what the foundations are, not the rule of the table); with ``dst_role``
        too, only for such moves onto a container of that role (building on the table where the rules
        send cards only to the foundations).  ``register`` names the ambiguity entry that settles the
        refusal where no clause says it in so many words; ``note`` is said after the reason (where a
        variant allows the move, say).
        """
        if dst_role is not None:
            if src_role is None:
                raise ValueError("refuse_others: dst_role needs src_role")
            self.refusal_between[(type, src_role, dst_role)] = (clause, register, note)
        elif src_role is None:
            self.refusal[type] = clause
        else:
            self.refusal_from[(type, src_role)] = (clause, register)

    @property
    def types(self) -> list[str]:
        return sorted({k[0] for k in self.entries})


@dataclass
class Setup:
    """What a game module builds for one instance: layout, rule book and starting position."""

    layout: Layout
    book: RuleBook
    #: foundation index -> base card placed before the deal (for games that take the bases out)
    bases: dict[int, int] = field(default_factory=dict)
    #: foundation index -> suit fixed in advance with no card placed (empty means: set by the first card)
    suits: dict[int, int] = field(default_factory=dict)
    max_passes: int = 1
    #: game-specific starting values of ``Table.vars``
    vars: dict[str, Any] = field(default_factory=dict)
    #: extra context the rules read (ruling readings turned into values)
    options: dict[str, Any] = field(default_factory=dict)


class Game:
    """One game instance: a game with its variants and rulings, ready to make tables."""

    def __init__(self, game_id: str, variants: frozenset[str], rulings: dict[str, str], setup: Setup,
                 search: dict[str, Any] | None = None) -> None:
        self.id = game_id
        self.variants = variants
        self.rulings = rulings
        self.setup = setup
        #: what the game's module declares for the solver (its ``SEARCH``: sound reductions, proofs of
        #: loss, the fast core's :class:`~replay.engine.kernel.FastCore`); plain data, empty when none
        self.search: dict[str, Any] = dict(search or {})
        self.layout = setup.layout
        self.book = setup.book
        self.options = setup.options
        self.roles = setup.layout.roles
        self.stock = setup.layout.single(STOCK)
        self.foundations = setup.layout.foundations
        self.by_role: dict[str, tuple[int, ...]] = {}
        for i, r in enumerate(self.roles):
            self.by_role.setdefault(r, ())
            self.by_role[r] += (i,)
        n = len(self.roles)
        self.fbase = [-1] * n  #: base rank of each foundation (-1 for other containers)
        self.fdir = [0] * n  #: +1 building up, -1 building down
        for f in self.foundations:
            self.fbase[f] = setup.layout.base_rank(f)
            self.fdir[f] = setup.layout.direction(f)
        self._entries = setup.book.entries
        self._first = setup.book.first
        self._width = n + 1
        self._dispatch: dict[str, list[tuple[Entry | None, tuple[Rule, ...]]]] = {}
        self._plan: list[Plan] | None = None
        self._sorted_deck: list[int] | None = None  #: the expected deck, sorted (the quick check)

    # ------------------------------------------------------------------ decks

    def expected_deck(self) -> Counter[int]:
        """The multiset of cards the stock must hold: two packs less the bases taken out."""
        want = Counter(C.full_deck())
        want.subtract(self.setup.bases.values())
        return want

    def check_deck(self, deck: list[int]) -> None:
        """Raise :class:`InvalidDeck` unless ``deck`` is exactly :meth:`expected_deck`."""
        if self._sorted_deck is None:
            self._sorted_deck = sorted(self.expected_deck().elements())
        if sorted(deck) == self._sorted_deck:
            return
        want = self.expected_deck()
        size = sum(want.values())
        if len(deck) != size:
            taken = f" ({C.DECK_SIZE - size} base cards are taken out before the deal)" if size < C.DECK_SIZE else ""
            raise InvalidDeck(f"the deck has {len(deck)} cards; this game deals {size}{taken}")
        have = Counter(deck)
        for card in sorted(set(have) | set(want)):
            if have[card] > want[card]:
                extra = " (its base card is already on the table)" if card in self.setup.bases.values() else ""
                raise InvalidDeck(f"{C.code(card)} appears {have[card]} times; two packs give {want[card]}{extra}")
            if have[card] < want[card]:
                raise InvalidDeck(f"{C.code(card)} is missing ({have[card]} of {want[card]})")

    def deck_from_seed(self, seed: int) -> list[int]:
        """Shuffle two packs with :func:`replay.engine.shuffle.shuffled`, then take the bases out."""
        from replay.engine.shuffle import shuffled

        deck = shuffled(C.full_deck(), seed)
        for card in self.setup.bases.values():
            deck.remove(card)  # the first copy in dealing order
        return deck

    def new_table(self, deck: list[int]) -> Table:
        """A table before the first deal, with ``deck`` as the stock (first card dealt first)."""
        self.check_deck(deck)
        n = len(self.roles)
        piles: list[list[int]] = [[] for _ in range(n)]
        fsuit = [-1] * n
        for f, card in self.setup.bases.items():
            piles[f].append(card)
            fsuit[f] = C.suit_of(card)
        for f, suit in self.setup.suits.items():
            fsuit[f] = suit
        piles[self.stock] = list(reversed(deck))
        # a copy deep enough that no table shares a list or a set with the setup or with another table
        return Table(self, piles, fsuit, 1, 0, {k: _copied(v) for k, v in self.setup.vars.items()})

    # ------------------------------------------------------------------ moves

    def violation(self, t: Table, m: Move) -> tuple[str, str] | None:
        """``(clause, reason)`` of the first rule ``m`` breaks, or None when it is legal.

        A rule returns None when it allows the move, else the reason; it may return
        ``(clause, reason)`` to cite another of its clauses than the first, and either of these
        through a function of no arguments (``lambda: f"…"``) so that the reason is composed only
        when it is shown: the legal-move search asks rules millions of times and shows no reason.
        A malformed count
        (below one, or other than one on a move that takes no cards from a pile, such as a deal) is
        refused here, citing the clause the game cites for moves of that type it does not allow.
        """
        return self._check(t, m)[1]

    def allows(self, t: Table, m: Move) -> bool:
        """Whether ``m`` is legal: ``violation(t, m) is None``, without composing the reason."""
        return self._check(t, m, compose=False)[1] is None

    def _dispatch_of(self, mtype: str) -> list[tuple[Entry | None, tuple[Rule, ...]]]:
        """For moves of ``mtype``: per (source, target) slot (see :meth:`_slot`), the rule-book entry
        (None when no kind of move allows it) and every rule to ask, in order: those of
        ``before_every_move`` that apply to the type, then the entry's own."""
        table = self._dispatch.get(mtype)
        if table is None:
            firsts = tuple(r for r, exempt in self._first if mtype not in exempt)
            roles = (None,) + tuple(self.roles)  # slot 0 is "no container" (-1)
            table = []
            for sr in roles:
                for dr in roles:
                    entry = self._entries.get((mtype, sr, dr))
                    table.append((entry, firsts + entry.rules if entry is not None else firsts))
            self._dispatch[mtype] = table
        return table

    def _slot(self, m: Move) -> int:
        """Index of ``m``'s (source, target) pair in a :meth:`_dispatch_of` table."""
        n = len(self.roles)
        for i in (m.src, m.dst):
            if not -1 <= i < n:
                raise IndexError(f"no container {i} (the layout has {n}; -1 stands for none)")
        return (m.src + 1) * self._width + m.dst + 1

    def _check(self, t: Table, m: Move, compose: bool = True) -> tuple[Entry | None, tuple[str, str] | None]:
        """The rule-book entry of ``m`` and the first rule it breaks (None when legal)."""
        if m.count != 1 and (m.count < 1 or m.src < 0):
            return None, self._malformed(m)
        entry, rules = self._dispatch_of(m.type)[self._slot(m)]
        for rule in rules:
            why = rule(t, m)
            if why:
                return entry, _reason(rule, why) if compose else _REFUSED
        if entry is None:
            return None, self._refusal(m)
        return entry, None

    def _malformed(self, m: Move) -> tuple[str, str]:
        why = "a move carries at least one card" if m.count < 1 else f"a '{m.type}' move takes no count"
        return self._refusal(m)[0], why

    def step(self, t: Table, m: Move) -> None:
        """Check ``m`` and carry it out (the checked path of :meth:`Table.apply`).

        The same checks as :meth:`_check`, written out: this runs once per move of every log replayed.
        """
        if m.count != 1 and (m.count < 1 or m.src < 0):
            raise IllegalMove(*self._malformed(m), m)
        dispatch = self._dispatch.get(m.type) or self._dispatch_of(m.type)
        src, dst, width = m.src, m.dst, self._width
        if -1 <= src < width - 1 and -1 <= dst < width - 1:
            entry, rules = dispatch[(src + 1) * width + dst + 1]
        else:
            entry, rules = dispatch[self._slot(m)]  # raises IndexError
        for rule in rules:
            why = rule(t, m)
            if why:
                raise IllegalMove(*_reason(rule, why), m)
        if entry is None:
            raise IllegalMove(*self._refusal(m), m)
        if m.card >= 0 and src >= 0:
            pile = t.piles[src]
            actual = pile[-m.count] if len(pile) >= m.count else -1
            if actual != m.card:  # the comparison stays inline: this is every checked move's path
                raise MoveMismatch(misnamed_card(t, m) or "")
        _carry_out(t, m, entry)

    def _key(self, m: Move) -> Key:
        return (m.type, self.roles[m.src] if m.src >= 0 else None, self.roles[m.dst] if m.dst >= 0 else None)

    def _refusal(self, m: Move) -> tuple[str, str]:
        clause = self.book.refusal.get(m.type) or next(iter(self.book.refusal.values()), "?")
        if m.src >= 0 and m.dst >= 0:
            a, b = self.layout.names[m.src], self.layout.names[m.dst]
            why = f"no rule lets a card go from {a} ({self.roles[m.src]}) to {b} ({self.roles[m.dst]})"
            between = self.book.refusal_between.get((m.type, self.roles[m.src], self.roles[m.dst]))
            special = self.book.refusal_from.get((m.type, self.roles[m.src]))
            note = None
            if between is not None:
                clause, register, note = between
            elif special is not None:
                clause, register = special
            else:
                register = None
            why += f" (the register, {register})" if register else ""
            why += f"; {note}" if note else ""
            return clause, why
        if m.type not in {k[0] for k in self._entries}:
            return clause, f"this game has no '{m.type}' move"
        return clause, f"a '{m.type}' move needs a source and a target"

    def candidates(self, t: Table) -> Iterator[Move]:
        """Every move worth checking: each allowed kind, each source with cards, each target."""
        for key, entry in self._entries.items():
            if entry.candidates is not None:
                yield from entry.candidates(t)
                continue
            mtype, sr, dr = key
            if sr is None:
                yield Move(mtype)
                continue
            for src in self.by_role.get(sr, ()):
                if not t.piles[src]:
                    continue
                if dr is None:
                    yield Move(mtype, src)
                    continue
                for dst in self.by_role.get(dr, ()):
                    if dst != src:
                        yield Move(mtype, src, dst)

    def legal_moves(self, t: Table, types: Iterable[str] | None = None) -> list[Move]:
        """The moves :meth:`violation` allows, in :meth:`candidates` order (a faster equivalent of
        ``[m for m in self.candidates(t) if self.violation(t, m) is None]``); with ``types``, only the moves
        of those types (the same moves in the same order as the whole list filtered, found without asking
        the rules of the others: what a reason that names the legal moves of one kind needs; held to the
        filtered list by tests/test_engine.py::test_the_legal_moves_of_some_types_are_the_whole_list_filtered)."""
        exclude = frozenset() if types is None else frozenset(self.book.types).difference(types)
        return self._legal(t, exclude, first_only=False)

    def any_legal(self, t: Table, exclude: frozenset[str] = frozenset()) -> bool:
        """Whether some move (of a type not in ``exclude``) is legal; stops at the first one found."""
        return bool(self._legal(t, exclude, first_only=True))

    # Speed (used by legal_moves/any_legal only; violation() is the reference):
    # candidate Move objects are made once per game (moves are immutable), and a
    # candidate's own rules are checked before the rules of before_every_move.
    # Rules are pure predicates, so the set of legal moves does not depend on the
    # order in which they are checked; only the clause cited would, and
    # violation() keeps the documented order for that.

    def _candidate_plan(self) -> list[Plan]:
        """Per kind of move: its entry, a probe move of its type, its table-wide rules (asked once per
        kind, of the probe), its per-source rules (asked once per group, of its first move), its
        per-target rules and the rules that declare the cards a target accepts, with one move to
        each target (asked once per target), the rules asked per candidate, and the candidate moves
        grouped by source (None: the entry makes its own, and every rule but the table-wide ones is
        asked of each)."""
        plan = self._plan
        if plan is None:
            plan = []
            for key, entry in self._entries.items():
                mtype, sr, dr = key
                rules = list(entry.rules) + [r for r, exempt in self._first if mtype not in exempt]
                wide = tuple(r for r in rules if getattr(r, "table_wide", False))
                narrow = tuple(r for r in rules if not getattr(r, "table_wide", False))
                by_src: tuple[Rule, ...] = ()
                by_dst: tuple[Rule, ...] = ()
                keyed: tuple[Rule, ...] = ()
                targets: tuple[tuple[int, Move], ...] = ()
                groups: list[tuple[int, tuple[Move, ...]]] | None
                if entry.candidates is not None:
                    groups = None
                elif sr is None:
                    groups = [(-1, (Move(mtype),))]
                else:
                    groups = []
                    for src in self.by_role.get(sr, ()):
                        if dr is None:
                            groups.append((src, (Move(mtype, src),)))
                        else:
                            groups.append((src, tuple(Move(mtype, src, dst)
                                                      for dst in self.by_role.get(dr, ()) if dst != src)))
                    # a group's candidates share type, source and count; a target's share type and target
                    by_src = tuple(r for r in narrow if getattr(r, "per_source", False))
                    if dr is not None:
                        by_dst = tuple(r for r in narrow if getattr(r, "per_target", False) and r not in by_src)
                        keyed = tuple(r for r in narrow if getattr(r, "accepts", None) is not None)
                        first: dict[int, Move] = {}
                        for _, moves in groups:
                            for m in moves:
                                first.setdefault(m.dst, m)
                        targets = tuple(first.items())
                    narrow = tuple(r for r in narrow if r not in by_src and r not in by_dst)
                plan.append((entry, Move(mtype), wide, by_src, by_dst, keyed, targets, narrow, groups))
            self._plan = plan
        return plan

    def _legal(self, t: Table, exclude: frozenset[str], first_only: bool) -> list[Move]:
        """The legal moves in candidate order (only the first with ``first_only``), skipping ``exclude`` types."""
        out: list[Move] = []
        for entry, probe, wide, by_src, by_dst, keyed, targets, narrow, groups in self._candidate_plan():
            if probe.type in exclude:
                continue
            if wide and _any_refuses(wide, t, probe):
                continue  # a table-wide rule refuses every move of this kind
            if groups is None:
                moves = self._own_candidates(t, entry)
            else:
                moves = self._grouped_candidates(t, by_src, by_dst, keyed, targets, groups)
            for m in moves:
                for rule in narrow:
                    if rule(t, m):
                        break
                else:
                    if first_only:
                        return [m]
                    out.append(m)
        return out

    def _own_candidates(self, t: Table, entry: Entry) -> Iterator[Move]:
        """The candidates an entry makes itself, less those that belong to another entry."""
        entries, key = self._entries, self._key
        for m in entry.candidates(t):  # type: ignore[misc]
            if entries.get(key(m)) is entry:
                yield m

    @staticmethod
    def _grouped_candidates(t: Table, by_src: tuple[Rule, ...], by_dst: tuple[Rule, ...], keyed: tuple[Rule, ...],
                            targets: tuple[tuple[int, Move], ...],
                            groups: list[tuple[int, tuple[Move, ...]]]) -> Iterator[Move]:
        """The planned candidates that no per-target or per-source rule refuses, and (when rules declare
        what a target accepts) only those whose card every such rule accepts on the target."""
        blocked = {d for d, m in targets if _any_refuses(by_dst, t, m)} if by_dst else ()
        if blocked and len(blocked) == len(targets):
            return  # a rule on the target refuses every target
        wants: dict[int, set[int]] = {}  # card -> the targets that accept it
        free: set[int] = set()  # the targets that accept any card
        if keyed:
            only = keyed[0].accepts if len(keyed) == 1 else None  # type: ignore[attr-defined]
            for d, _ in targets:
                if d in blocked:
                    continue
                cards: Iterable[int] | None
                if only is not None:
                    cards = only(t, d)  # one rule: its cards as it gives them (a card twice adds nothing)
                else:
                    cards = None
                    for r in keyed:
                        a = r.accepts(t, d)  # type: ignore[attr-defined]
                        if a is not None:
                            cards = set(a) if cards is None else cards.intersection(a)
                if cards is None:
                    free.add(d)
                else:
                    for c in cards:
                        takers = wants.get(c)
                        if takers is None:
                            wants[c] = {d}
                        else:
                            takers.add(d)
        piles = t.piles
        ok: set[int] = free
        for src, moves in groups:
            if (src >= 0 and not piles[src]) or not moves:
                continue
            if keyed:
                taking = wants.get(piles[src][-1])
                ok = (free | taking if free else taking) if taking else free
                if not ok:
                    continue  # no target takes this card
            if by_src and _any_refuses(by_src, t, moves[0]):
                continue  # a rule on the source refuses every move from it
            if keyed:
                yield from (m for m in moves if m.dst in ok)
            elif blocked:
                yield from (m for m in moves if m.dst not in blocked)
            else:
                yield from moves

    def consulted(self, m: Move) -> list[Callable[..., object]]:
        """Every function the rules consult for ``m``: the checks, the performer and what follows."""
        out: list[Callable[..., object]] = [r for r, exempt in self._first if m.type not in exempt]
        entry = self._entries.get(self._key(m))
        if entry is not None:
            out += list(entry.rules) + ([entry.perform] if entry.perform else []) + list(entry.after)
        return out

    def perform(self, t: Table, m: Move) -> None:
        """Carry out ``m`` without checking it (the fast path)."""
        _carry_out(t, m, self._entries[self._key(m)])

    def foundation_groups(self) -> tuple[tuple[int, ...], ...]:
        """The groups of foundations the rules treat alike, as the module declares them (``SEARCH``'s
        ``interchangeable_foundations``: ``"all"``, or ``"by-base"``, those founded on the same rank); none
        when it declares nothing.  A card that may go to one empty member of a group may go to any, with the
        same consequences: the solver tries only the first, and ``replay play`` lists them as one move."""
        kind = self.search.get("interchangeable_foundations")
        if kind == "all":
            return (tuple(self.foundations),)
        if kind == "by-base":
            groups: dict[int, list[int]] = {}
            for f in self.foundations:
                groups.setdefault(self.fbase[f], []).append(f)
            return tuple(tuple(g) for g in groups.values())
        return ()

    def cards_home(self, t: Table) -> int:
        """How many cards lie on the foundations."""
        return sum(len(t.piles[f]) for f in self.foundations)

    def is_won(self, t: Table) -> bool:
        return self.cards_home(t) == C.DECK_SIZE


_REFUSED = ("", "")  # a refusal whose reason was not asked for


def _any_refuses(rules: tuple[Rule, ...], t: Table, m: Move) -> bool:
    """Whether one of ``rules`` refuses ``m`` (``any(r(t, m) for r in rules)``, without a generator: the
    legal-move search asks this of every target, source and kind of move)."""
    for r in rules:
        if r(t, m):
            return True
    return False


def misnamed_card(t: Table, m: Move) -> str | None:
    """``the move names 9S but the card moved from p3 is 6C``, when ``m`` names a card that is not the one
    it would move (None when it names none, or the right one)."""
    if m.card < 0 or m.src < 0 or m.count < 1:
        return None
    pile = t.piles[m.src]
    actual = pile[-m.count] if len(pile) >= m.count else -1
    if actual == m.card:
        return None
    if not pile:
        return f"the move names {C.code(m.card)} but {t.name(m.src)} is empty"
    if actual < 0:
        return (f"the move names {C.code(m.card)} and {m.count} cards but {t.name(m.src)} holds "
                f"{len(pile)}")
    return f"the move names {C.code(m.card)} but the card moved from {t.name(m.src)} is {C.code(actual)}"


def _reason(rule: Rule, why: Any) -> tuple[str, str]:
    """``(clause, reason)`` of a rule's refusal: composed now if the rule deferred it, its own clause by default."""
    if callable(why):
        why = why()
    return why if isinstance(why, tuple) else (rule.clause, why)  # type: ignore[attr-defined]


def _carry_out(t: Table, m: Move, entry: Entry) -> None:
    """Make ``m`` (already known legal, or not to be checked) with its entry's performer and effects."""
    perform = entry.perform
    if perform is not None:
        perform(t, m)
    elif m.count == 1:  # the common case of transfer(), without its slices
        card = t.piles[m.src].pop()
        t.piles[m.dst].append(card)
        if t.fsuit[m.dst] < 0 and t.game.roles[m.dst] == FOUNDATION:
            t.fsuit[m.dst] = card & 3
    else:
        transfer(t, m)
    for eff in entry.after:
        eff(t, m)
    t.ply += 1


def transfer(t: Table, m: Move) -> None:
    """Move the top ``m.count`` cards of ``m.src`` onto ``m.dst``; a foundation takes its suit from its base."""
    src = t.piles[m.src]
    moved = src[-m.count:]
    del src[-m.count:]
    t.piles[m.dst].extend(moved)
    if t.fsuit[m.dst] < 0 and t.game.roles[m.dst] == FOUNDATION:
        t.fsuit[m.dst] = C.suit_of(moved[0])


Outcome = str  # "won" | "lost" | "unfinished"


class Table:
    """What lies on the table: every container's cards (bottom first) and the game's counters."""

    __slots__ = ("game", "piles", "fsuit", "passes", "rounds", "vars", "ply")

    def __init__(self, game: Game, piles: list[list[int]], fsuit: list[int], passes: int, rounds: int,
                 vars: dict[str, Any], ply: int = 0) -> None:
        self.game = game
        self.piles = piles  #: cards of each container, bottom first; the stock's next card is last
        self.fsuit = fsuit  #: suit of each foundation (-1: not yet known)
        self.passes = passes  #: which pass through the deck this is (1 = the first deal)
        self.rounds = rounds  #: rounds dealt in this pass
        self.vars = vars  #: game-specific state
        self.ply = ply  #: moves made

    def copy(self) -> Table:
        return Table(self.game, [list(p) for p in self.piles], list(self.fsuit), self.passes, self.rounds,
                     {k: _copied(v) for k, v in self.vars.items()}, self.ply)

    # ------------------------------------------------------------- queries

    def top(self, i: int) -> int:
        """Top card of container ``i``, or -1 when it is empty."""
        p = self.piles[i]
        return p[-1] if p else -1

    def name(self, i: int) -> str:
        return self.game.layout.names[i]

    def legal_moves(self, types: Iterable[str] | None = None) -> list[Move]:
        return self.game.legal_moves(self, types)

    def violation(self, m: Move) -> tuple[str, str] | None:
        return self.game.violation(self, m)

    def allows(self, m: Move) -> bool:
        """Whether ``m`` is legal here (``violation(m) is None``, without composing the reason)."""
        return self.game.allows(self, m)

    def cards_home(self) -> int:
        """How many cards lie on the foundations."""
        return self.game.cards_home(self)

    def is_won(self) -> bool:
        return self.game.is_won(self)

    def outcome(self) -> Outcome:
        """``won``; ``lost`` when no legal move is left; else ``unfinished``."""
        if self.is_won():
            return "won"
        return "unfinished" if self.game.any_legal(self) else "lost"

    # ------------------------------------------------------------- changes

    def apply(self, m: Move) -> None:
        """Check ``m`` and carry it out.

        Raises :class:`IllegalMove` (with the clause ID) when the rules forbid it and
        :class:`MoveMismatch` when ``m.card`` is given and is not the card moved.
        """
        self.game.step(self, m)

    def push(self, m: Move) -> None:
        """Carry out ``m`` without checking it (for a caller that took it from :meth:`legal_moves`)."""
        self.game.perform(self, m)

    # ------------------------------------------------------------- views

    def snapshot(self) -> dict[str, Any]:
        """The table as plain data: every container by name (bottom card first), counters, game state."""
        lay = self.game.layout
        piles = {}
        for i, n in enumerate(lay.names):
            cards = self.piles[i][::-1] if i == self.game.stock else self.piles[i]
            piles[n] = [C.code(c) for c in cards]
        found = {lay.names[f]: (C.SUITS[self.fsuit[f]] if self.fsuit[f] >= 0 else None)
                 for f in self.game.foundations}
        return {
            "game": self.game.id,
            "variants": sorted(self.game.variants),
            "rulings": dict(sorted(self.game.rulings.items())),
            "pass": self.passes,
            "rounds_dealt": self.rounds,
            "moves_made": self.ply,
            "piles": piles,
            "foundation_suits": found,
            "state": {k: _plain(v) for k, v in sorted(self.vars.items()) if not k.startswith("_")},
        }

    def key(self) -> tuple:
        """A hashable summary of the position (for search)."""
        return (tuple(tuple(p) for p in self.piles), tuple(self.fsuit), self.passes,
                tuple(sorted((k, hashable(v)) for k, v in self.vars.items())))


def _copied(v: Any) -> Any:
    """A copy of a game-state value deep enough that changing the copy never changes the original."""
    if isinstance(v, list):
        return [_copied(x) for x in v]
    if isinstance(v, dict):
        return {k: _copied(x) for k, x in v.items()}
    if isinstance(v, set):
        return set(v)
    return v


def _plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(_plain(x) for x in v)
    return v


def hashable(v: Any) -> Any:
    """A hashable form of a game-state value (lists become tuples, sets frozensets, dicts sorted pairs)."""
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, (set, frozenset)):
        return frozenset(v)
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    return v


def parse_move_names(game: Game, mtype: str, src: str | None, dst: str | None) -> Move:
    """Turn pile names into a :class:`Move` (raises :class:`UnknownName` for unknown piles)."""
    lay = game.layout
    return Move(mtype, lay.index(src) if src is not None else -1, lay.index(dst) if dst is not None else -1)


__all__ = ["Game", "Table", "Move", "RuleBook", "Setup", "transfer", "UnknownName", "misnamed_card"]
