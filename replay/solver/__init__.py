"""Solver, greedy player and win-rate tables (issue #7).

* :mod:`replay.solver.search` — depth-first search on the engine's own legal-move list, with a
  transposition table and sound per-game reductions; verdict won / unwinnable / unknown.
* :mod:`replay.solver.greedy` — the deterministic greedy baseline.
* :mod:`replay.solver.stats` — parallel runs over seeded deals; Wilson and paired Newcombe intervals.
* :mod:`replay.solver.table` and :mod:`replay.solver.page` — the results table
  (``data/stats/results.json``) and its page (``docs/stats.md``).
* :mod:`replay.solver.logs` — solver lines as ``replay-log/1`` logs, and logs read back.
* :mod:`replay.solver.examples` — won example games for every game and variant.
* :mod:`replay.solver.analyse` — position by position, could a logged game still be won
  (``replay analyse``).

The commands (``replay solve``, ``replay stats``, ``replay analyse``) are in :mod:`replay.cli.solver`
and :mod:`replay.cli.view`.
"""
