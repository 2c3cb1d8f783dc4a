"""Won example games: ``examples/games/<game>/<form>/won-<seed>.json`` for every game and every variant.

    .venv/bin/python -m replay.solver.examples [--data data/stats/results.json] [--search-nodes 20000]

For each form (``base`` = no variant) the first seed the results table records as won is
solved again with the table's node budget (the same line, since the search is
deterministic); a form the table never won is searched seed by seed with a larger budget.
Every log is checked by the validator before it is written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from replay.solver.stats import Form

ROOT = Path(__file__).resolve().parents[2]


def form_dir(form: Form) -> str:
    return form.variants[0] if form.variants else "base"


def won_seeds(data: dict[str, Any] | None, form: Form) -> tuple[list[int], int | None]:
    """Seeds of ``form`` the data file records as won by the solver, and the node budget used."""
    if not data:
        return [], None
    for row in data["forms"]:
        if row["game"] == form.game and tuple(row["variants"]) == form.variants and not row["rulings"]:
            first = row["seeds"][0]
            return [first + i for i, c in enumerate(row["solver"]["results"]) if c == "W"], data["budget"]["nodes"]
    return [], None


def write_won(form: Form, seed: int, nodes: int | None, out: Path) -> Path | None:
    """Solve ``seed``; when won, check the log and write it.  Returns the path, or None."""
    from replay.games.catalog import create
    from replay.log.validate import check_bytes
    from replay.solver import logs as L
    from replay.solver.search import WON, Budget, solve

    game = create(form.game, form.variants, dict(form.rulings))
    deck = game.deck_from_seed(seed)
    r = solve(game, deck=deck, budget=Budget(nodes=nodes))
    if r.status != WON:
        return None
    text = L.dumps(L.make_log(game, deck, r.line, "won", {"source": f"replay solve, seed {seed}", "player": "solver"}))
    report = check_bytes(text.encode(), "won log")
    if not (report.ok and report.outcome == "won"):
        raise RuntimeError(f"{form.label} seed {seed}: the solver's log does not validate: {report.problems}")
    path = out / form.game / form_dir(form) / f"won-{seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    from replay.fsio import atomic_write

    atomic_write(path, text.encode("utf-8"))  # regenerating the example is the purpose
    return path


def main(argv: list[str] | None = None) -> int:
    from replay.solver.table import forms

    ap = argparse.ArgumentParser(description="Write one won example game for every game and variant.")
    ap.add_argument("--data", type=Path, default=ROOT / "data/stats/results.json")
    ap.add_argument("--out", type=Path, default=ROOT / "examples/games")
    ap.add_argument("--search-nodes", type=int, default=20_000, help="budget for forms the table never won")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--max-seeds", type=int, default=50)
    ap.add_argument("--forms", nargs="*", help="only these (game or game/variant)")
    args = ap.parse_args(argv)
    data = json.loads(args.data.read_text()) if args.data.exists() else None
    missing = []
    for form in forms():
        name = f"{form.game}/{form_dir(form)}"
        if args.forms and name not in args.forms and form.game not in args.forms:
            continue
        if any((args.out / form.game / form_dir(form)).glob("won-*.json")):
            print(f"{name}: already has a won example", file=sys.stderr)
            continue
        seeds, nodes = won_seeds(data, form)
        done = None
        for seed in seeds[:3]:
            done = write_won(form, seed, nodes, args.out)
            if done:
                break
        t0 = time.perf_counter()
        seed = args.first_seed
        while done is None and seed < args.first_seed + args.max_seeds:
            done = write_won(form, seed, args.search_nodes, args.out)
            seed += 1
        if done:
            print(f"{name}: {done.relative_to(args.out.parent.parent) if args.out.is_relative_to(ROOT) else done}",
                  file=sys.stderr)
        else:
            missing.append(name)
            print(f"{name}: no win in seeds {args.first_seed}-{seed - 1} at {args.search_nodes} nodes "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
