"""The clause a refusal quotes is one its rule declares, and says what the reason says (issue #16 §1).

Every rule of every game form is asked about every candidate move of positions met in seeded play;
whenever it refuses, the clause it cites must be one of the clauses it declares (the site and
``replay trace`` link the rule to exactly those).  Every ``refuse_others`` entry is tried on every
kind of move no rule allows; its clause must be declared by a function of the game's rule book.  A
reason that names a register entry names one that exists, of the same game.  Then the cases that
were wrong, one by one.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from replay.corpus.loader import default_corpus
from replay.engine.errors import IllegalMove
from replay.engine.game import Game, Move, Table, _reason
from replay.games.catalog import catalog, create, rulings_for
from replay.log.play import play

REGISTER = re.compile(r"\bamb-[a-z0-9-]+")


def forms() -> Iterator[tuple[str, tuple[str, ...], dict[str, str]]]:
    """Every game: its base form, each variant, each reading of each ruling that is not the default."""
    for gid, mod in catalog().items():
        yield gid, (), {}
        for v in mod.VARIANTS:
            yield gid, (v,), {}
        for name, r in rulings_for(gid).items():
            for reading in r.readings:
                if reading != r.default:
                    yield gid, tuple(r.variants[:1]), {name: reading}


FORMS = list(forms())


def _label(f: tuple[str, tuple[str, ...], dict[str, str]]) -> str:
    gid, variants, rulings = f
    return "+".join([gid, *variants, *(f"{k}={v}" for k, v in rulings.items())])


def _prefix(gid: str) -> str:
    return {"printex-frame": "pf", "zwarta-kolumna": "zk", "exiles": "ex", "napoleons-square": "ns"}[gid]


def _check_register(gid: str, why: str) -> None:
    ambs = default_corpus().ambiguities
    for amb in REGISTER.findall(why):
        assert amb in ambs, f"{why!r} names {amb}, which the register does not hold"
        assert amb.startswith(f"amb-{_prefix(gid)}-"), f"{why!r} names {amb}, an entry of another game"


def _positions(g: Game, seed: int, every: int = 7, most: int = 25) -> Iterator[Table]:
    moves, _ = play(g, g.deck_from_seed(seed), seed, max_moves=400)
    t = g.new_table(g.deck_from_seed(seed))
    yield t.copy()
    for i, m in enumerate(moves, 1):
        t.push(m)
        if i % every == 0 and i // every < most:
            yield t.copy()
    yield t


@pytest.mark.parametrize("form", FORMS, ids=_label)
def test_every_rule_cites_a_clause_it_declares(form):
    gid, variants, rulings = form
    g = create(gid, variants, rulings)
    prefix = _prefix(gid)
    refused = 0
    for seed in (1, 2):
        for t in _positions(g, seed):
            seen: dict[int, tuple[str, str]] = {}  # a table-wide rule's reason, composed once per position
            for (mtype, sr, dr), entry in g.book.entries.items():
                firsts = [r for r, skip in g.book.first if mtype not in skip]
                for m in _candidates(g, t, mtype, sr, dr):
                    for rule in (*firsts, *entry.rules):
                        why = rule(t, m)
                        if not why:
                            continue
                        wide = getattr(rule, "table_wide", False)
                        if wide and id(rule) in seen:
                            continue
                        clause, text = _reason(rule, why)
                        if wide:
                            seen[id(rule)] = (clause, text)
                        refused += 1
                        assert clause in rule.clauses, (  # type: ignore[attr-defined]
                            f"{rule.__module__}.{rule.__name__} cites {clause} ({text!r}) but declares "
                            f"{rule.clauses}")  # type: ignore[attr-defined]
                        assert clause.startswith(prefix + "-") and text
                        _check_register(gid, text)
    assert refused > 0  # the walk met refusals to check


def _candidates(g: Game, t: Table, mtype: str, sr: str | None, dr: str | None) -> Iterator[Move]:
    """Moves of one kind: every source of the role with cards (one card and, where one can, two) and every target."""
    if sr is None:
        yield Move(mtype)
        return
    for src in g.by_role.get(sr, ()):
        if not t.piles[src]:
            continue
        targets = [-1] if dr is None else [d for d in g.by_role.get(dr, ()) if d != src]
        for dst in targets:
            yield Move(mtype, src, dst)
            if len(t.piles[src]) >= 2:
                yield Move(mtype, src, dst, count=2)


@pytest.mark.parametrize("form", FORMS, ids=_label)
def test_every_refusal_of_a_kind_no_rule_allows_cites_a_clause_of_that_kind(form):
    gid, variants, rulings = form
    g = create(gid, variants, rulings)
    declared: dict[str, set[str]] = {}
    for (mtype, _, _), entry in g.book.entries.items():
        for fn in (*entry.rules, entry.perform, *entry.after):
            declared.setdefault(mtype, set()).update(getattr(fn, "clauses", ()))
    every = set().union(*declared.values())
    roles = sorted(set(g.roles))
    t = g.new_table(g.deck_from_seed(1))
    tried = 0
    for mtype in g.book.types:
        if any(k[0] == mtype and k[1] is None for k in g.book.entries):
            continue  # a move with no piles (deal, redeal)
        for a in roles:
            for b in roles:
                if (mtype, a, b) in g.book.entries:
                    continue
                m = Move(mtype, g.by_role[a][0], g.by_role[b][-1])
                if m.src == m.dst:
                    continue
                with pytest.raises(IllegalMove) as e:
                    g.step(t.copy(), m)
                tried += 1
                clause = e.value.clause
                assert clause in every, (
                    f"{_label(form)}: {mtype} {a} -> {b} cites {clause} ({e.value.reason!r}), "
                    f"which no function of the game declares")
                _check_register(gid, e.value.reason)
    for mtype, clause in g.book.refusal.items():
        # (a kind of move this form lacks, like zwarta-kolumna's fill outside cztery katy, is refused as
        # "this game has no 'fill' move", citing the clause of the variant that has it)
        assert clause in every or mtype not in g.book.types, (mtype, clause)
    for (mtype, _), (clause, register) in g.book.refusal_from.items():
        assert clause in every, (mtype, clause)
        if register:
            assert clause in default_corpus().ambiguities[register].clauses, (register, clause)
    for (mtype, _, _), (clause, register, _) in g.book.refusal_between.items():
        assert clause in every, (mtype, clause)
        if register:
            assert clause in default_corpus().ambiguities[register].clauses, (register, clause)
    assert tried > 0


# ----------------------------------------------------------------------------- the cases that were wrong


def _g(gid: str, *variants: str) -> Game:
    return create(gid, variants)


def _refusal(g: Game, t: Table, m: Move) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        g.step(t, m)
    return e.value


def _foundation_with(g: Game, t: Table) -> tuple[int, int]:
    """(a foundation with a card, a tableau pile) of table ``t``: bases placed before the deal, or the
    first card the legal moves send home (Napoleon's Square starts with its foundations empty)."""
    for _ in range(200):
        if any(t.piles[f] for f in g.foundations):
            break
        moves = g.legal_moves(t)
        t.push(next((m for m in moves if m.dst in g.foundations), moves[0]))
    f = next(f for f in g.foundations if t.piles[f])
    return f, g.by_role["tableau"][0]


def test_two_cards_at_once_in_printex_frame_cite_pf17_and_the_register_not_pf7():
    g = _g("printex-frame")
    t = g.new_table(g.deck_from_seed(1))
    t.push(Move("deal"))
    src = next(p for p in g.by_role["tableau"] if t.piles[p])
    t.piles[src].append(t.piles[src][-1] ^ 1)  # a second card on it
    e = _refusal(g, t, Move("move", src, g.foundations[0], count=2))
    assert e.clause == "pf-17" and "only the top card" in e.reason and "amb-pf-playable-all" in e.reason
    assert "pf-17" in default_corpus().ambiguities["amb-pf-playable-all"].clauses


@pytest.mark.parametrize("gid, clause, register", [
    ("zwarta-kolumna", "zk-5", "amb-zk-no-return"), ("printex-frame", "pf-4", "amb-pf-no-return"),
    ("napoleons-square", "ns-8", "amb-ns-no-return"),
])
def test_a_card_taken_back_from_a_foundation_cites_the_foundation_clause_and_the_register(gid, clause, register):
    g = _g(gid)
    t = g.new_table(g.deck_from_seed(1))
    f, p = _foundation_with(g, t)
    e = _refusal(g, t, Move("move", f, p))
    assert e.clause == clause and register in e.reason
    assert clause in default_corpus().ambiguities[register].clauses  # the entry that settles it is about it


def test_a_stock_card_is_not_moved_and_the_refusal_cites_the_laying_out():
    for gid, clause in (("zwarta-kolumna", "zk-13"), ("printex-frame", "pf-18")):
        g = _g(gid)
        t = g.new_table(g.deck_from_seed(1))
        e = _refusal(g, t, Move("move", g.stock, g.foundations[0]))
        assert e.clause == clause, (gid, e.clause, e.reason)


def _exiles_position(predicate: Any) -> tuple[Game, Table]:
    g = _g("exiles")
    for seed in range(1, 40):
        moves, _ = play(g, g.deck_from_seed(seed), seed, max_moves=600)
        t = g.new_table(g.deck_from_seed(seed))
        for m in moves:
            if predicate(g, t):
                return g, t
            t.push(m)
    raise AssertionError("no such position in 40 seeded games")


def test_an_exile_taken_while_a_card_can_be_played_names_that_card():
    from replay.engine.common import move_text
    from replay.engine.layout import FOUNDATION, TABLEAU

    def plays(g: Game, t: Table) -> list[Move]:
        return [m for m in g.legal_moves(t) if m.type == "move" and g.roles[m.src] == TABLEAU
                and g.roles[m.dst] == FOUNDATION]

    def ready(g: Game, t: Table) -> bool:
        exiles = g.options["exiles"]
        return bool(not t.piles[g.stock] and t.piles[exiles] and t.vars.get("chain") is None and plays(g, t))

    g, t = _exiles_position(ready)
    exiles = g.options["exiles"]
    want = g.options["packets"][(t.piles[exiles][-1] >> 2)]  # any packet: the rule refuses before looking
    e = _refusal(g, t, Move("tuck", exiles, want))
    first = plays(g, t)[0]
    assert e.clause == "ex-8" and "a card can still be played to a foundation: " in e.reason
    assert move_text(t, first) in e.reason
    more = len(plays(g, t)) - 1
    assert (f"(and {more} more)" in e.reason) == (more > 0)


def test_a_chain_that_goes_on_names_its_next_step():
    from replay.engine.common import move_text

    def chain_going(g: Game, t: Table) -> bool:
        exiles = g.options["exiles"]
        return (t.vars.get("chain") is not None and bool(t.piles[exiles])
                and any(m.type == "tuck" for m in g.legal_moves(t)))

    g, t = _exiles_position(chain_going)
    tuck = next(m for m in g.legal_moves(t) if m.type == "tuck")
    step = move_text(t, tuck)
    e = _refusal(g, t.copy(), Move("tuck", g.options["exiles"], tuck.dst))  # another exile, too early
    assert e.clause == "ex-10" and e.reason == f"the travelling cards have not yet freed a card: {step}"
    e = _refusal(g, t.copy(), Move("move", tuck.src, g.foundations[0]))  # anything but the chain
    assert e.clause == "ex-10" and e.reason.endswith(f"goes on from {t.name(tuck.src)}: {step}")


def test_an_unfinished_game_claimed_over_names_a_legal_move(tmp_path):
    import json

    from replay.log.play import dumps, new_log
    from replay.log.validate import check_file

    g = _g("zwarta-kolumna")
    log = new_log(g, g.deck_from_seed(3), [{"type": "deal"}], "lost")
    path = tmp_path / "claim.json"
    path.write_text(dumps(log), encoding="utf-8")
    report = check_file(str(path))
    msg = json.dumps(report.to_json())
    assert "legal moves remain: " in msg and re.search(r"legal moves remain: (move|deal) ", msg), msg


def test_a_freed_card_is_named_when_the_chain_is_pushed_on():
    from replay.engine.common import move_text
    from replay.engine.layout import FOUNDATION, TABLEAU

    def freed(g: Game, t: Table) -> bool:
        chain = t.vars.get("chain")
        if chain is None:
            return False
        return any(m.type == "move" and g.roles[m.src] == TABLEAU and g.roles[m.dst] == FOUNDATION
                   for m in g.legal_moves(t))

    g, t = _exiles_position(freed)
    chain = g.layout.index(t.vars["chain"])
    play = next(m for m in g.legal_moves(t) if m.type == "move" and g.roles[m.dst] == FOUNDATION)
    want = g.options["packets"][(t.piles[chain][-1] >> 2) % 13]
    e = _refusal(g, t.copy(), Move("tuck", chain, want if want != chain else g.options["packets"][0]))
    assert e.clause == "ex-10" and e.reason.startswith("a card has been freed: play it (")
    assert move_text(t, play) in e.reason


@pytest.mark.parametrize("variant, clause", [("gotycki-zamek", "zk-19"), ("cztery-katy", "zk-22")])
def test_a_base_left_lying_cites_the_clause_of_the_variant_played(variant, clause):
    """base-timing = on-dealing: the refusal quotes the variant's own sentence, not the other variant's."""
    g = _g("zwarta-kolumna", variant)
    for seed in range(1, 60):
        t = g.new_table(g.deck_from_seed(seed))
        t.push(Move("deal"))
        if g.violation(t, Move("deal")) is not None:
            break
    else:
        pytest.fail("no deal of seeds 1-59 leaves a base lying after the first round")
    e = _refusal(g, t, Move("deal"))
    assert e.clause == clause and "is placed at once" in e.reason


@pytest.mark.clause("pf-10", "pf-22")
def test_building_on_the_table_in_base_printex_frame_cites_pf10_and_says_the_variant_allows_it():
    g = _g("printex-frame")
    t = g.new_table(g.deck_from_seed(1))
    t.push(Move("deal"))
    names = g.layout.names
    b2, b3 = names.index("b2"), names.index("b3")
    e = _refusal(g, t, Move("move", b2, b3))
    assert e.clause == "pf-10", e.clause  # not pf-8: which foundation a pile reaches is not the question
    assert e.reason.startswith("no rule lets a card go from b2 (tableau) to b3 (tableau) (the register, "
                               "amb-pf-target-foundation); a card goes from a pile only onto a foundation")
    assert "cztery-katy (pf-22) allows building on the table" in e.reason
    assert "pf-10" in default_corpus().ambiguities["amb-pf-target-foundation"].clauses
    ck = _g("printex-frame", "cztery-katy")  # the variant: refused only until the third laying-out, by pf-22
    t = ck.new_table(ck.deck_from_seed(1))
    t.push(Move("deal"))
    assert _refusal(ck, t, Move("move", b2, b3)).clause == "pf-22"
