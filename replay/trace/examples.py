"""Which example logs touch which clause: replay each log and note the clauses of every rule consulted."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from replay.engine.errors import ReplayError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "games"


def clauses_of_log(path: Path) -> set[str]:
    """Clauses whose functions the replay of the log at ``path`` consults (up to its first illegal move)."""
    from replay.log.validate import Bad, engine_moves, instance, parse

    try:
        log = parse(path.read_bytes())
        inst = instance(log.game, log.variants, log.rulings)
        table = inst.game.new_table([_card(c) for c in log.deck])
        moves = engine_moves(inst, log)
    except (Bad, ReplayError, OSError):
        return set()
    seen: set[str] = set()
    for m in moves:
        for fn in inst.game.consulted(m):
            seen.update(getattr(fn, "clauses", ()))
        try:
            table.apply(m)
        except ReplayError:
            break
    return seen


def _card(code: str) -> int:
    from replay.engine.cards import parse

    return parse(code)


@lru_cache(maxsize=1)
def examples_touching() -> dict[str, list[str]]:
    """Clause ID -> example logs (paths relative to the project root) whose replay consults it."""
    out: dict[str, list[str]] = {}
    for path in sorted(EXAMPLES.rglob("*.json")):
        rel = str(path.relative_to(ROOT))
        for cid in clauses_of_log(path):
            out.setdefault(cid, []).append(rel)
    return out
