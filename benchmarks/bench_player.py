"""The strong player's nested searches compared at equal positions (issue 29).

    .venv/bin/python benchmarks/bench_player.py                                  # every form, 20 deals, 10^6
    .venv/bin/python benchmarks/bench_player.py --forms zwarta-kolumna --nodes 100000 1000000 10000000
    .venv/bin/python benchmarks/bench_player.py --players nmcs beam-2 --deals 40 --json rows.jsonl

Each form is played on deals FIRST … FIRST+DEALS-1 by the portfolio (``--method portfolio``, the
depth-first search's share first, as the statistics table plays), once for each player: the portfolio
with that nested search's parameters (:data:`PLAYERS`), the generator at 0 as ``replay stats`` has it.
Budgets are in positions, so the figures do not depend on the machine or its load; CPU seconds are
printed beside them.  Per form, budget and player it prints the mean best cards home, the deals won, and
against the first player the deals where it brought more cards home, fewer, and the mean difference
(the same deals, so a paired comparison).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.solver.nested import Params, play  # noqa: E402
from replay.solver.search import WON, Budget  # noqa: E402
from replay.solver.stats import Form, game_of  # noqa: E402
from replay.solver.version import code_version  # noqa: E402

#: the forms of issue 29: where the nested search stops, and those it must do no worse on
FORMS = {
    "printex-frame": Form("printex-frame"),
    "printex-frame frame=rect-16": Form("printex-frame", (), (("frame", "rect-16"),)),
    "printex-frame frame=square-20": Form("printex-frame", (), (("frame", "square-20"),)),
    "zwarta-kolumna": Form("zwarta-kolumna"),
    "zwarta-kolumna +fill-from-any-pile": Form("zwarta-kolumna", ("fill-from-any-pile",)),
    "Cadogan's Four Corners": Form("zwarta-kolumna", ("gotycki-zamek",), (
        ("after-deal", "unrestricted"), ("base-placement", "anywhere"), ("side-reach", "adjacent"))),
    "napoleons-square": Form("napoleons-square"),
    "exiles": Form("exiles"),
}

#: the players compared: the nested search the portfolio runs after its depth-first share
PLAYERS = {
    "nmcs": Params("nmcs"),
    "beam-1": Params("nmcs", width=1),
    "beam-2": Params("nmcs", width=2),
    "beam-3": Params("nmcs", width=3),
    "beam-2-level-3": Params("nmcs", level=3, width=2),
    "nrpa": Params("nrpa"),
    "nrpa-level-3": Params("nrpa", level=3),
    "nrpa-level-4-it-10": Params("nrpa", level=4, iterations=10),
    "nmcs-level-3": Params("nmcs", level=3),
    "nmcs-p-0.9": Params("nmcs", p_found=0.9),
}


def run(form: Form, deals: list[int], nodes: int, params: Params) -> dict:
    game = game_of(form)
    homes, won = [], 0
    t0 = time.process_time()
    for s in deals:
        r = play(game, deck=game.deck_from_seed(s), method="portfolio", budget=Budget(nodes=nodes), params=params)
        homes.append(r.best_home)
        won += r.status == WON
    return {"homes": homes, "won": won, "cpu": time.process_time() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--forms", nargs="*", default=list(FORMS), help=f"forms, of: {', '.join(FORMS)}")
    ap.add_argument("--players", nargs="*", default=["nmcs", "beam-2"], help=f"of: {', '.join(PLAYERS)}")
    ap.add_argument("--nodes", nargs="*", type=float, default=[1e6], help="positions per deal (several: each)")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--first", type=int, default=1, help="the first deal's seed")
    ap.add_argument("--json", default=None, help="append each row to this file (JSON lines)")
    args = ap.parse_args()
    for name in args.forms + args.players:
        if name not in FORMS and name not in PLAYERS:
            ap.error(f"unknown form or player {name!r}")
    deals = list(range(args.first, args.first + args.deals))
    print(f"replay player benchmark — code {code_version()}, Python {platform.python_version()}, "
          f"deals {deals[0]}–{deals[-1]}, generator 0, the portfolio")
    print(f"{'form':<38} {'positions':>11} {'player':<16} {'cards home':>10} {'won':>4} "
          f"{'+/-/= vs first':>15} {'diff':>6} {'CPU s':>7}")
    for label in args.forms:
        for nodes in map(int, args.nodes):
            first: dict | None = None
            for player in args.players:
                d = run(FORMS[label], deals, nodes, PLAYERS[player])
                mean = sum(d["homes"]) / len(deals)
                cmp, diff = "", ""
                if first is None:
                    first = d
                else:
                    pairs = list(zip(d["homes"], first["homes"]))
                    cmp = f"{sum(a > b for a, b in pairs)}/{sum(a < b for a, b in pairs)}/" \
                          f"{sum(a == b for a, b in pairs)}"
                    diff = f"{sum(a - b for a, b in pairs) / len(deals):+.1f}"
                print(f"{label:<38} {nodes:>11,} {player:<16} {mean:>10.1f} {d['won']:>4} {cmp:>15} {diff:>6} "
                      f"{d['cpu']:>7.1f}", flush=True)
                if args.json:
                    with open(args.json, "a") as f:
                        f.write(json.dumps({"form": label, "nodes": nodes, "player": player, "deals": deals,
                                            "params": PLAYERS[player].__dict__, **d}) + "\n")


if __name__ == "__main__":
    main()
