"""Layout geometry: piles with names and grid positions, and the relations between them.

"Same row", "same column", "adjacent" and "corner" are computed from the grid
positions of a :class:`~replay.engine.edition.LayoutPlan`, never listed per pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.engine.cards import ACE, KING, SUITS
from replay.engine.edition import LayoutPlan
from replay.engine.errors import UnknownName

TABLEAU, FOUNDATION, STOCK, WASTE, RESERVE = "tableau", "foundation", "stock", "waste", "reserve"


@dataclass(frozen=True)
class Layout:
    """A resolved layout: every container (pile, foundation, stock, …) has an index."""

    spec: LayoutPlan
    names: tuple[str, ...]
    roles: tuple[str, ...]
    rows: tuple[float, ...]
    cols: tuple[float, ...]
    labels: tuple[str | None, ...]

    @classmethod
    def from_spec(cls, spec: LayoutPlan) -> Layout:
        piles: list[tuple[str, str, float, float, str | None]] = [(p.name, p.role, p.row, p.col, p.label)
                                                                    for p in spec.piles]
        piles += [(f.name, FOUNDATION, f.row, f.col, None) for f in spec.foundations]
        names, roles, rows, cols, labels = zip(*piles)
        return cls(spec, names, roles, rows, cols, labels)

    # ------------------------------------------------------------------ lookup

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(self.names)})

    def index(self, name: str) -> int:
        try:
            return self._index[name]  # type: ignore[attr-defined]
        except KeyError:
            raise UnknownName("pile", name, list(self.names)) from None

    def has(self, name: str) -> bool:
        return name in self._index  # type: ignore[attr-defined]

    def of_role(self, role: str) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.roles) if r == role)

    @property
    def tableau(self) -> tuple[int, ...]:
        return self.of_role(TABLEAU)

    @property
    def foundations(self) -> tuple[int, ...]:
        return self.of_role(FOUNDATION)

    def single(self, role: str) -> int:
        """The one container of ``role`` (stock, waste, reserve)."""
        found = self.of_role(role)
        if len(found) != 1:
            raise ValueError(f"layout {self.spec.id} has {len(found)} containers of role {role}")
        return found[0]

    def order(self, which: str) -> tuple[int, ...]:
        """Pile indices in the order of the first deal, later deals or gathering."""
        seq = {"deal": self.spec.deal,
               "later_deal": self.spec.later_deal or self.spec.deal,
               "gather": self.spec.gather or self.spec.deal}[which]
        return tuple(self.index(n) for n in seq)

    # ---------------------------------------------------------------- geometry

    def same_row(self, a: int, b: int) -> bool:
        return self.rows[a] == self.rows[b]

    def same_column(self, a: int, b: int) -> bool:
        return self.cols[a] == self.cols[b]

    def in_line(self, a: int, b: int) -> bool:
        """Same row or same column."""
        return self.rows[a] == self.rows[b] or self.cols[a] == self.cols[b]

    def adjacent(self, a: int, b: int) -> bool:
        """Orthogonal neighbours on the grid (one step in row or column)."""
        return abs(self.rows[a] - self.rows[b]) + abs(self.cols[a] - self.cols[b]) == 1

    def corners(self) -> frozenset[int]:
        """Tableau piles at the corners of the tableau's bounding box."""
        tab = self.tableau
        top, bottom = min(self.rows[i] for i in tab), max(self.rows[i] for i in tab)
        left, right = min(self.cols[i] for i in tab), max(self.cols[i] for i in tab)
        return frozenset(i for i in tab if self.rows[i] in (top, bottom) and self.cols[i] in (left, right))

    # ------------------------------------------------------------- foundations

    def base_rank(self, f: int) -> int:
        """Rank a foundation starts from: ace (builds up) or king (builds down)."""
        spec = self.spec.foundations[f - len(self.spec.piles)]
        return ACE if spec.base == "A" else KING

    def direction(self, f: int) -> int:
        return 1 if self.base_rank(f) == ACE else -1

    def arrangement(self, name: str) -> dict[int, int]:
        """Foundation index -> suit index for the named arrangement."""
        if name not in self.spec.arrangements:
            raise UnknownName("foundation arrangement", name, sorted(self.spec.arrangements))
        return {self.index(f): SUITS.index(s) for f, s in self.spec.arrangements[name].items()}
