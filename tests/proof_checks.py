"""The checks every proof of loss is held to (tests/test_proofs_of_loss.py takes samples of them in CI;
benchmarks/proofs_of_loss.py runs them in full and prints the figures).

* :func:`check_won_lines`: a deal some search has won (a ``W`` of data/stats/results.json) is won again
  by the portfolio, and no proof of the game says "lost" at any position of the winning line, the deal
  itself included.
* :func:`check_against_search`: on small positions cut down from real deals, whenever a proof says
  "lost", exhaustive search (:func:`replay.solver.search.solve` without the proofs and without a
  budget, or with a large one: a position it cannot settle is left out) finds no win.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from replay.engine import cards as C
from replay.engine.game import Game, Table
from replay.games import create
from replay.solver.search import UNKNOWN, WON, Budget, profile_for, proof_name, solve

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "data" / "stats" / "results.json"

Proof = Callable[[Table], "str | None"]


def proofs_of(game: Game) -> tuple[Proof, ...]:
    """Every proof of loss the game's search asks (at every position, then at the root only)."""
    profile = profile_for(game)
    return (*profile.dead_ends, *profile.root_dead_ends)


def won_deals(path: Path = RESULTS) -> Iterator[tuple[str, Game, list[int], dict[int, int]]]:
    """``(label, game, seeds, budgets)`` for every form of the statistics' data file with a won deal: the
    seeds won, those the search won at the lowest budget first, and the budget (positions) each was won at
    (the row's rung where it settled, ``settled`` and ``rungs`` of ``replay-stats/2``)."""
    data = json.loads(path.read_text())
    for section in ("forms", "rulings", "relatives"):
        for form in data[section]:
            marks, rungs = form.get("settled", ""), form.get("rungs") or [form["budget"]["nodes"]]
            budgets = {data["seed"] + i: (rungs[int(marks[i])] if i < len(marks) and marks[i].isdigit()
                                          else form["budget"]["nodes"])
                       for i, c in enumerate(form["solver"]["results"]) if c == "W"}
            if budgets:
                seeds = sorted(budgets, key=lambda s: (budgets[s], s))
                yield form["label"], create(form["game"], tuple(form["variants"]), form["rulings"]), seeds, budgets


@dataclass
class WonLines:
    """What :func:`check_won_lines` found."""

    deals: int = 0  #: won deals whose line was asked
    not_won_again: int = 0  #: won deals the portfolio did not win again within its budget (not asked)
    positions: int = 0  #: positions of winning lines asked (every proof at each)
    fired: list[str] = field(default_factory=list)  #: "label seed N ply K: proof: reason" for each wrong answer


def check_won_lines(label: str, game: Game, seeds: Iterable[int], proofs: tuple[Proof, ...] | None = None,
                    nodes: int = 200_000, out: WonLines | None = None,
                    budgets: dict[int, int] | None = None) -> WonLines:
    """Win each deal again (the portfolio, ``nodes`` positions, or the budget ``budgets`` gives the seed where
    it is more: the one the table won it at) and ask every proof at every position of the line."""
    from replay.solver.nested import play

    out = out or WonLines()
    proofs = proofs_of(game) if proofs is None else proofs
    for seed in seeds:
        deck = game.deck_from_seed(seed)
        r = play(game, deck=deck, budget=Budget(nodes=max(nodes, (budgets or {}).get(seed, 0))))
        if r.status != WON:
            out.not_won_again += 1
            continue
        out.deals += 1
        t = game.new_table(deck)
        for ply in range(len(r.line) + 1):
            out.positions += 1
            for proof in proofs:
                why = proof(t)
                if why:
                    out.fired.append(f"{label} seed {seed} ply {ply}: {proof_name(proof)}: {why}")
            if ply < len(r.line):
                t.push(r.line[ply])
    return out


@dataclass
class AgainstSearch:
    """What :func:`check_against_search` found."""

    compared: int = 0  #: positions exhaustive search settled
    won: int = 0
    lost: int = 0
    decided: int = 0  #: lost positions a proof called lost
    unsettled: int = 0  #: positions the search could not settle within its budget (left out)
    wrong: list[str] = field(default_factory=list)  #: a proof that called a won position lost


def check_against_search(game: Game, positions: Iterable[Table], proofs: tuple[Proof, ...] | None = None,
                         nodes: int | None = 300_000, out: AgainstSearch | None = None) -> AgainstSearch:
    """Ask the proofs and exhaustive search (no proof of loss, ``nodes`` positions at most) about each position."""
    out = out or AgainstSearch()
    proofs = proofs_of(game) if proofs is None else proofs
    plain = replace(profile_for(game), dead_ends=(), root_dead_ends=())
    for t in positions:
        r = solve(game, t, budget=Budget(nodes=nodes), profile=plain)
        if r.status == UNKNOWN:
            out.unsettled += 1
            continue
        out.compared += 1
        won = r.status == WON
        out.won += won
        out.lost += not won
        answers = [(proof, proof(t)) for proof in proofs]
        fired = [(p, why) for p, why in answers if why]
        if fired and won:
            out.wrong += [f"{proof_name(p)}: {why}" for p, why in fired]
        out.decided += bool(fired) and not won
    return out


# ----------------------------------------------------------------------------- cut-down positions


def end_game(game: Game, seed: int, rng: random.Random, heights: tuple[int, ...], piles: int = 3,
             in_the_stock: bool = False) -> Table:
    """A position of the last pass near the end, from deal ``seed``'s foundations: each suit's ace foundation
    built up and its king foundation built down to a height drawn from ``heights``, the cards left spread at
    random over ``piles`` random tableau piles and the stock (or, ``in_the_stock``, all in the stock, before
    the first deal of the pass)."""
    t = game.new_table(game.deck_from_seed(seed))
    for i, role in enumerate(game.roles):
        if role != "foundation":
            t.piles[i] = []
    rest = []
    for f in game.foundations:
        suit, up = t.fsuit[f], game.fdir[f] > 0
        height = rng.choice(heights)
        ranks = range(height) if up else range(12, 12 - height, -1)
        t.piles[f] = [C.make(r, suit) for r in ranks]
        rest += [C.make(r, suit) for r in range(13) if r not in ranks]
    rng.shuffle(rest)
    tableau = game.by_role["tableau"]
    places = [] if in_the_stock else [tableau[i] for i in rng.sample(range(len(tableau)), piles)]
    places.append(game.stock)
    for card in rest:
        t.piles[rng.choice(places)].append(card)
    t.passes, t.rounds = game.setup.max_passes, 0 if in_the_stock else 1
    return t


def walk_to(game: Game, seed: int, stop: Callable[[Table], bool], eager: float = 0.9, cap: int = 3000) -> Table | None:
    """A random walk from deal ``seed`` (a move home with chance ``eager`` when there is one) to the first
    position where ``stop`` holds; None when the game ends first."""
    rng = random.Random(seed)
    t = game.new_table(game.deck_from_seed(seed))
    for _ in range(cap):
        if stop(t):
            return t
        moves = t.legal_moves()
        if not moves:
            return None
        home = [m for m in moves if m.dst in game.foundations and m.src not in game.foundations]
        t.push(rng.choice(home) if home and rng.random() < eager else rng.choice(moves))
    return None


def in_the_last_pass_with(game: Game, cards_left: int) -> Callable[[Table], bool]:
    """A walk's stop: the last pass, the stock dealt out, at most ``cards_left`` cards not home."""
    def stop(t: Table) -> bool:
        return (t.passes >= game.setup.max_passes and not t.piles[game.stock]
                and 104 - t.cards_home() <= cards_left)
    return stop


def cut_down(t: Table, rng: random.Random, cards_left: int) -> Table:
    """``t`` with most cards taken home: again and again a foundation is chosen and the card it wants next is
    taken from wherever it lies (any depth of any pile) and put on it, until at most ``cards_left`` cards are
    not home.  The cards of the real deal keep their order in every pile."""
    t = t.copy()
    g = t.game
    found = [f for f in g.foundations if t.piles[f]]
    while found and 104 - t.cards_home() > cards_left:
        f = rng.choice(found)
        top = t.piles[f][-1]
        want = top + 4 * g.fdir[f]
        if not 0 <= want < 52:
            found.remove(f)
            continue
        places = [(i, h) for i, pile in enumerate(t.piles) if i not in g.foundations
                  for h, c in enumerate(pile) if c == want]
        if not places:
            found.remove(f)
            continue
        i, h = rng.choice(places)
        t.piles[f].append(t.piles[i].pop(h))
    return t


def end_positions(game: Game, seeds: Iterable[int], cards_left: tuple[int, int], eager: float = 0.9) -> Iterator[Table]:
    """Positions cut down from real deals: each deal walked at random into its last pass (the stock dealt
    out), then :func:`cut_down` to between ``cards_left[0]`` and ``cards_left[1]`` cards not home."""
    for seed in seeds:
        t = walk_to(game, seed, in_the_last_pass_with(game, 104), eager)
        if t is not None:
            yield cut_down(t, random.Random(seed), random.Random(-seed).randint(*cards_left))


def before_the_end(game: Game, seeds: Iterable[int], back: tuple[int, int], eager: float = 0.9,
                   cap: int = 3000) -> Iterator[Table]:
    """Positions of real deals near the end of a game: each deal walked at random to its end (no move left,
    won or lost), then the position ``back[0]`` to ``back[1]`` moves before the end, if it is in the last pass
    with the stock dealt out."""
    for seed in seeds:
        rng = random.Random(seed)
        t = game.new_table(game.deck_from_seed(seed))
        line = [t.copy()]
        for _ in range(cap):
            moves = t.legal_moves()
            if not moves:
                break
            home = [m for m in moves if m.dst in game.foundations and m.src not in game.foundations]
            t.push(rng.choice(home) if home and rng.random() < eager else rng.choice(moves))
            line.append(t.copy())
        k = rng.randint(*back)
        if k < len(line) and in_the_last_pass_with(game, 104)(line[-1 - k]):
            yield line[-1 - k]
