"""The clause registry and the rulings: code and corpus point at each other, both ways."""

from __future__ import annotations

import re
from pathlib import Path

from replay.corpus.loader import default_corpus
from replay.corpus.models import NORMATIVE_KINDS
from replay.engine.registry import by_clause, excuses, implementations
from replay.games import catalog, rulings_for
from replay.games.catalog import MODULES

ROOT = Path(__file__).resolve().parents[1]


def test_every_rule_function_cites_clauses_that_exist():
    catalog()
    corpus = default_corpus()
    for impl in implementations().values():
        for cid in impl.clauses:
            assert cid in corpus.clauses, f"{impl.name} cites unknown clause {cid}"
        assert impl.summary, f"{impl.name} has no docstring"


def test_every_normative_clause_is_implemented_or_excused_with_a_reason():
    catalog()
    corpus = default_corpus()
    done = by_clause()
    exc = excuses()
    for cid, cl in corpus.clauses.items():
        if cl.kind in NORMATIVE_KINDS:
            assert cid in done or cid in exc, f"{cid} ({cl.kind}) has no implementing function and no excuse"
    for cid, e in exc.items():
        assert cid in corpus.clauses and len(e.reason) > 20


def test_each_game_module_implements_exactly_the_rulings_of_the_register():
    for game_id, mod in catalog().items():
        register = {name: r.readings for name, r in rulings_for(game_id).items()}
        code = {name: tuple(readings) for name, readings in mod.RULINGS.items()}
        assert set(code) == set(register), game_id
        for name in code:
            assert set(code[name]) == set(register[name]), (game_id, name)


def test_functions_of_a_game_cite_only_that_games_clauses():
    catalog()
    corpus = default_corpus()
    for impl in implementations().values():
        if impl.module.startswith("replay.games."):
            mod = impl.module.rsplit(".", 1)[1].replace("_", "-")
            games = {corpus.clauses[c].game for c in impl.clauses}
            assert games == {mod}, impl.name


def test_the_generic_engine_and_the_solver_name_no_game():
    names = list(MODULES) + [m.rsplit(".", 1)[1] for m in MODULES.values()]
    solver = [ROOT / "replay" / "solver" / f for f in ("search.py", "greedy.py", "stats.py")]
    for path in [*(ROOT / "replay" / "engine").glob("*.py"), *solver]:
        text = path.read_text(encoding="utf-8")
        for n in names:
            assert not re.search(rf"\b{re.escape(n)}\b", text), f"{path.name} names {n}"


def test_every_layout_belongs_to_a_reading_the_engine_can_select():
    corpus = default_corpus()
    for spec in corpus.layouts.values():
        if spec.reading:
            readings = {r for rl in rulings_for(spec.game).values() for r in rl.readings}
            assert spec.reading in readings, spec.id
