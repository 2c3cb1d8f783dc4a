"""The fast search core: a C library (``_fastcore.so``, built at install) that searches the games
whose modules declare a kernel, many times faster than the Python search and with the same result.

A game module opts in with ``SEARCH['fast_core']``, a :class:`~replay.engine.kernel.FastCore`: the
kernel's name (a ``games/<name>.c`` here), a function giving the game instance's options as integers,
and a function encoding ``Table.vars`` as bytes (None when a position's state cannot be encoded: the
search then runs in Python).  The generic parts (the layout, the piles, the search) are encoded here;
nothing here names a game or looks up a game module: every function takes the declaration as an
argument, or reads the one the game instance carries (``Game.search``, filled by the catalog), and
the solver hands the declaration over.

The Python engine stays the authority.  ``tests/test_fastcore.py`` holds each kernel to the rule
functions on random walks of every reading (the same legal moves in the same order, the same table
after every move) and the C search to :func:`replay.solver.search.solve` (the same verdict, nodes,
positions and line on the same budget); every won line is replayed through ``Table.apply`` before
it is reported, whichever search found it.  When the library is missing or cannot be built the
solver runs in Python, with the same results, more slowly.
"""

from __future__ import annotations

import ctypes
import os
import struct
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain
from pathlib import Path
from typing import Any, Callable

from replay import settings
from replay.engine.game import Game, Move, Table
from replay.engine.kernel import TYPE_CODE, TYPES, VARS_BYTES, FastCore
from replay.engine.layout import FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE

HERE = Path(__file__).resolve().parent
MAXC, CARDS, VARS, MAXMOVES, MAXOPT = 64, 104, VARS_BYTES, 1024, 512
#: a move of a recorded log as fc_check_line reads it (bridge.c's fc_logmove): type, source, destination,
#: count and the card named (-1: none)
LOGMOVE = struct.Struct("<BbbBh")
ROLE_CODE = {TABLEAU: 0, FOUNDATION: 1, STOCK: 2, WASTE: 3, RESERVE: 4}


class FcMove(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint8), ("src", ctypes.c_int8), ("dst", ctypes.c_int8), ("count", ctypes.c_uint8)]


class FcState(ctypes.Structure):
    _fields_ = [("off", ctypes.c_uint8 * (MAXC + 1)), ("cards", ctypes.c_uint8 * CARDS),
                ("fsuit", ctypes.c_int8 * MAXC), ("passes", ctypes.c_uint8), ("rounds", ctypes.c_uint8),
                ("vlen", ctypes.c_uint16), ("vars", ctypes.c_uint8 * VARS)]


class FcGame(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int), ("stock", ctypes.c_int), ("nfound", ctypes.c_int),
                ("found", ctypes.c_uint8 * MAXC), ("role", ctypes.c_uint8 * MAXC),
                ("fbase", ctypes.c_int8 * MAXC), ("fdir", ctypes.c_int8 * MAXC),
                ("nopt", ctypes.c_int), ("opt", ctypes.c_int32 * MAXOPT)]


class FcProfile(ctypes.Structure):
    _fields_ = [("nsame_tableau", ctypes.c_int), ("same_tableau", ctypes.c_uint8 * MAXC),
                ("ngroups", ctypes.c_int), ("group_len", ctypes.c_uint8 * MAXC),
                ("groups", (ctypes.c_uint8 * MAXC) * MAXC), ("rounds_cap", ctypes.c_int),
                ("use_safe", ctypes.c_int), ("use_lost", ctypes.c_int)]


class FcResult(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("stopped_by", ctypes.c_int), ("best_home", ctypes.c_int),
                ("error", ctypes.c_int), ("nodes", ctypes.c_int64), ("positions", ctypes.c_int64),
                ("pruned", ctypes.c_int64), ("nline", ctypes.c_int), ("nbest", ctypes.c_int),
                ("line", ctypes.POINTER(FcMove)), ("best_line", ctypes.POINTER(FcMove))]


#: the search's clock callback: (nodes, best cards home) -> 0 go on, else the reason to stop
TICK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int64, ctypes.c_int)


@lru_cache(maxsize=1)
def library() -> ctypes.CDLL | None:
    """The compiled core (None when it is missing and cannot be built: the solver then runs in Python).

    The library's file is named after the hash of its sources (:func:`replay.fastcore.build.library_path`),
    so a library built from other sources is never loaded.  It is looked for beside the sources (built at
    install) and in the user's cache folder; when neither has it (a source checkout being edited, a wheel
    built without a compiler) it is built on first use into the cache folder, never into the installed
    package (``pip uninstall`` would leave it behind), and a build that fails is recorded and not tried again
    with the same compiler (:func:`replay.fastcore.build.failure`).  ``REPLAY_NO_FASTCORE=1`` turns the core
    off (for comparisons and for the tests of the Python search).
    """
    if settings.get("REPLAY_NO_FASTCORE"):
        return None
    from replay.fastcore import build

    path = build.found()
    if path is None:
        if build.failure() is not None:
            return None
        path = build.cache_path() or _scratch() / build.library_path().name
        try:
            build.build(path)
        except (RuntimeError, OSError) as e:
            build.record_failure(str(e))
            return None
    elif path != build.library_path():
        _touch(path)  # the cache keeps the libraries used last
    return _load(path)


def _scratch() -> Path:
    """A folder for one run's library when caching is off (``REPLAY_CACHE_DIR=``), removed at exit."""
    import atexit
    import shutil
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="replay-fastcore-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    return where


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _load(path: Path) -> ctypes.CDLL | None:
    try:
        lib = ctypes.CDLL(str(path))
    except OSError:
        return None
    lib.fc_source_hash.restype = ctypes.c_char_p
    lib.fc_legal_moves.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState),
                                   ctypes.POINTER(FcMove)]
    lib.fc_apply_move.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState),
                                  ctypes.POINTER(FcMove)]
    lib.fc_is_safe.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState),
                               ctypes.POINTER(FcMove)]
    lib.fc_is_lost.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState)]
    lib.fc_has_kernel.argtypes = [ctypes.c_char_p]
    lib.fc_has_frees.argtypes = [ctypes.c_char_p]
    lib.fc_frees.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState), ctypes.c_int]
    lib.fc_solve.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcProfile),
                             ctypes.POINTER(FcState), ctypes.c_int64, ctypes.c_int64, TICK, ctypes.POINTER(FcResult)]
    lib.fc_free_result.argtypes = [ctypes.POINTER(FcResult)]
    # the nested searches (nested.c; their parameters' mirror is replay.fastcore.nested.FcNestedParams)
    lib.fc_nested.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcProfile),
                              ctypes.POINTER(FcState), ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, TICK,
                              ctypes.POINTER(FcResult)]
    lib.fc_sizeof_nested_params.restype = ctypes.c_size_t
    # the checked replay of a recorded line (bridge.c; replay.log.fast packs its moves)
    lib.fc_check_line.argtypes = [ctypes.c_char_p, ctypes.POINTER(FcGame), ctypes.POINTER(FcState), ctypes.c_char_p,
                                  ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    lib.fc_sizeof_logmove.restype = ctypes.c_size_t
    if lib.fc_sizeof_logmove() != LOGMOVE.size:
        return None
    for name, mirror in (("state", FcState), ("game", FcGame), ("profile", FcProfile), ("result", FcResult)):
        f = getattr(lib, f"fc_sizeof_{name}")
        f.restype = ctypes.c_size_t
        if f() != ctypes.sizeof(mirror):  # the ctypes mirror and the C header disagree: do not use it
            return None
    return lib


def spec_of(game: Game, spec: FastCore | None = None) -> FastCore | None:
    """``spec`` (default: the one the game declares, ``game.search['fast_core']``) when the library
    carries its kernel and the kernel takes this form of the game; else None."""
    spec = spec if spec is not None else declared(game)
    return spec if spec is not None and library() is not None and _prepared(game, spec) is not None else None


def declared(game: Game) -> FastCore | None:
    """The fast core the game instance declares (its module's ``SEARCH['fast_core']``), or None."""
    return game.search.get("fast_core")


@lru_cache(maxsize=64)
def _prepared(game: Game, spec: FastCore) -> FcGame | None:
    """The layout and options of ``game`` encoded for ``spec``'s kernel, once per game instance (None
    when the library lacks the kernel, or the kernel refuses the form).
    The encoded game is only read by the C search, never changed."""
    lib = library()
    if lib is None or not lib.fc_has_kernel(spec.kernel.encode()):
        return None
    try:
        return encode_game(game, spec)
    except NotImplementedError:  # a form the kernel does not (yet) mirror: the Python search takes it
        return None


def encode_game(game: Game, spec: FastCore) -> FcGame:
    """The layout and the options of ``game`` as the kernel reads them."""
    g = FcGame()
    n = len(game.roles)
    if n > MAXC:
        raise ValueError(f"{game.id}: {n} containers, the fast core takes {MAXC}")
    g.n = n
    g.stock = game.stock if game.stock is not None else -1
    g.nfound = len(game.foundations)
    for k, f in enumerate(game.foundations):
        g.found[k] = f
    for i, r in enumerate(game.roles):
        g.role[i] = ROLE_CODE[r]
        g.fbase[i] = game.fbase[i]
        g.fdir[i] = game.fdir[i]
    opts = spec.options(game)
    if len(opts) > MAXOPT:
        raise ValueError(f"{game.id}: {len(opts)} options, the fast core takes {MAXOPT}")
    g.nopt = len(opts)
    for i, v in enumerate(opts):
        g.opt[i] = v
    return g


def encode_table(t: Table, spec: FastCore) -> FcState | None:
    """``t`` as an :class:`FcState` (None when its game state cannot be encoded)."""
    v = spec.vars(t)
    if v is None or len(v) > VARS or t.passes > 255 or t.rounds > 255:
        return None
    s = FcState()
    piles = t.piles
    off = list(accumulate(map(len, piles), initial=0))
    at = off[-1]
    s.off[:len(off)] = off
    s.off[len(off):] = [at] * (MAXC + 1 - len(off))
    s.cards[:at] = list(chain.from_iterable(piles))
    s.fsuit[:len(t.fsuit)] = t.fsuit
    s.passes, s.rounds = t.passes, t.rounds
    s.vlen = len(v)
    ctypes.memmove(s.vars, v, len(v))
    return s


def decode_piles(s: FcState, n: int) -> list[list[int]]:
    """The piles of ``s`` (bottom card first), as ``Table.piles`` holds them."""
    return [list(s.cards[s.off[i]:s.off[i + 1]]) for i in range(n)]


def state_vars(s: FcState) -> bytes:
    return bytes(s.vars[:s.vlen])


def to_move(m: FcMove) -> Move:
    return Move(TYPES[m.type], m.src, m.dst, count=m.count)


def from_move(m: Move) -> FcMove:
    return FcMove(TYPE_CODE[m.type], m.src, m.dst, m.count)


def check_line(game: Game, spec: FastCore, t: Table, packed: bytes, n: int) -> tuple[int, int, int] | None:
    """The kernel's checked replay of ``n`` moves (``packed`` by :data:`LOGMOVE`) from table ``t`` (left
    unchanged): (moves carried out, legal moves of the last position, its cards home); the first is ``n``
    when every move was among the kernel's legal moves and named the card it moves, else the index of the
    first that was not.  None when the kernel cannot take this table or a position it reached (the engine
    then replays).  It only accepts: a refusal is the engine's to find and word."""
    lib = library()
    g = _prepared(game, spec)
    if lib is None or g is None:
        return None
    s = encode_table(t, spec)
    if s is None:
        return None
    nlegal, home = ctypes.c_int(), ctypes.c_int()
    done = lib.fc_check_line(spec.kernel.encode(), ctypes.byref(g), ctypes.byref(s), packed, n,
                             ctypes.byref(nlegal), ctypes.byref(home))
    if done < 0:
        return None
    return done, nlegal.value, home.value


@dataclass
class Found:
    """What the C search found (the fields of :class:`replay.solver.search.Result` it fills)."""

    status: str
    stopped_by: str | None
    nodes: int
    positions: int
    pruned: int
    best_home: int
    line: list[Move]
    best_line: list[Move]


STATUS = ("won", "unwinnable", "unknown")
STOPPED = {0: None, 1: "nodes", 3: "memory"}  # 2: the reason the tick gave (seconds, interrupted)


def memory_bound() -> int:
    """The most memory the C search's positions (its table of positions seen and the stack of its line)
    may take, in bytes: a quarter of the machine's
    memory, at most 4 GiB (``REPLAY_SOLVER_MEMORY``, in MiB, sets another).  Past it the search stops
    with ``unknown`` (``stopped_by`` memory), as when a budget runs out: a search without a node budget
    cannot exhaust the machine."""
    given = settings.get("REPLAY_SOLVER_MEMORY")  # a SettingError when it is not a number of MiB
    if isinstance(given, int):
        return given * 2**20
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 16 * 2**30
    return min(4 * 2**30, total // 4)


def encode_profile(game: Game, same_tableau: tuple[int, ...], same_foundations: tuple[tuple[int, ...], ...],
                   rounds_cap: int | None, use_safe: bool, use_lost: bool) -> FcProfile:
    p = FcProfile()
    p.nsame_tableau = len(same_tableau)
    for j, i in enumerate(same_tableau):
        p.same_tableau[j] = i
    p.ngroups = len(same_foundations)
    for gi, grp in enumerate(same_foundations):
        p.group_len[gi] = len(grp)
        for j, f in enumerate(grp):
            p.groups[gi][j] = f
    p.rounds_cap = -1 if rounds_cap is None else rounds_cap
    p.use_safe, p.use_lost = int(use_safe), int(use_lost)
    return p


def search(game: Game, spec: FastCore, root: FcState, profile: FcProfile, max_nodes: int | None,
           tick: Callable[[int, int], str | None] | None) -> Found | None:
    """Run the C search from ``root`` (None when it cannot: the caller searches in Python).

    ``tick(nodes, best_home)`` is called every 16 positions, as the Python search looks at its clock;
    a reason it returns (``"seconds"``, ``"interrupted"``) ends the search with that ``stopped_by``.
    """
    lib = library()
    if lib is None:
        return None
    prepared = _prepared(game, spec)
    if prepared is None:
        return None
    return run_search(lambda cb, res: lib.fc_solve(
        spec.kernel.encode(), ctypes.byref(prepared), ctypes.byref(profile), ctypes.byref(root),
        -1 if max_nodes is None else max_nodes, memory_bound(), cb, ctypes.byref(res)), tick)


def run_search(call: Callable[[Any, FcResult], int], tick: Callable[[int, int], str | None] | None) -> Found | None:
    """Run a C search (``call(tick_callback, result)``, returning its rc) and read its result, for either search
    (``fc_solve``, ``fc_nested``): None when it could not run (the caller searches in Python).

    ``tick(positions, best_home)``, when given, is the searches' clock callback: a reason it returns
    (``"seconds"``, ``"interrupted"``) ends the search with that ``stopped_by``, and an exception it raises
    (KeyboardInterrupt and the like) is raised here once the search has stopped.
    """
    lib = library()
    assert lib is not None
    reasons: list[str] = []
    errors: list[BaseException] = []

    def on_tick(nodes: int, best: int) -> int:
        try:
            why = tick(nodes, best) if tick is not None else None
        except BaseException as e:  # KeyboardInterrupt and the like: stop, and raise it after
            reasons.append("error")
            errors.append(e)
            return 2
        if why:
            reasons.append(why)
            return 2
        return 0

    cb = TICK(on_tick) if tick is not None else TICK()
    res = FcResult()
    rc = call(cb, res)
    if errors:
        lib.fc_free_result(ctypes.byref(res))
        raise errors[0]
    if rc != 0:
        return None
    try:
        line = _moves(res.line, res.nline)
        best = line if res.status == 0 else _moves(res.best_line, res.nbest)
    finally:
        lib.fc_free_result(ctypes.byref(res))
    stopped = reasons[-1] if res.stopped_by == 2 else STOPPED.get(res.stopped_by)
    return Found(STATUS[res.status], stopped, res.nodes, res.positions, res.pruned, res.best_home, line, best)


def _moves(ptr: Any, n: int) -> list[Move]:
    """``n`` moves from a C array (read as bytes at once: a line may hold hundreds of thousands)."""
    if n == 0:
        return []
    raw = ctypes.string_at(ptr, n * ctypes.sizeof(FcMove))
    made: dict[bytes, Move] = {}  # moves are immutable: one object per distinct move
    out = []
    for i in range(0, len(raw), 4):
        code = raw[i:i + 4]
        m = made.get(code)
        if m is None:
            src, dst = code[1], code[2]
            m = made[code] = Move(TYPES[code[0]], src - 256 if src > 127 else src, dst - 256 if dst > 127 else dst,
                                  count=code[3])
        out.append(m)
    return out


class Kernel:
    """One game instance's kernel, called move by move (for the tests: the search runs whole in C)."""

    def __init__(self, game: Game, spec: FastCore | None = None) -> None:
        spec = spec or spec_of(game)
        if spec is None:
            raise LookupError(f"{game.id}: no fast core")
        lib = library()
        assert lib is not None
        self.lib, self.spec, self.game = lib, spec, game
        self.name = spec.kernel.encode()
        self.g = encode_game(game, spec)
        self._moves = (FcMove * MAXMOVES)()

    def state(self, t: Table) -> FcState | None:
        return encode_table(t, self.spec)

    def legal(self, s: FcState) -> list[Move]:
        k = self.lib.fc_legal_moves(self.name, ctypes.byref(self.g), ctypes.byref(s), self._moves)
        return [to_move(self._moves[i]) for i in range(k)]

    def apply(self, s: FcState, m: Move) -> None:
        fm = from_move(m)
        self.lib.fc_apply_move(self.name, ctypes.byref(self.g), ctypes.byref(s), ctypes.byref(fm))

    def safe(self, s: FcState, m: Move) -> bool:
        fm = from_move(m)
        return bool(self.lib.fc_is_safe(self.name, ctypes.byref(self.g), ctypes.byref(s), ctypes.byref(fm)))

    def lost(self, s: FcState) -> bool:
        return bool(self.lib.fc_is_lost(self.name, ctypes.byref(self.g), ctypes.byref(s)))

    def frees(self, s: FcState, src: int) -> bool:
        """The kernel's ``frees``: whether a legal move takes the top card of ``src`` to a foundation."""
        return bool(self.lib.fc_frees(self.name, ctypes.byref(self.g), ctypes.byref(s), src))

    @property
    def has_frees(self) -> bool:
        return bool(self.lib.fc_has_frees(self.name))

    def piles(self, s: FcState) -> list[list[int]]:
        return decode_piles(s, len(self.game.roles))


__all__ = ["FastCore", "Kernel", "Found", "search", "run_search", "encode_profile", "library", "spec_of", "encode_game", "encode_table", "decode_piles",
           "state_vars", "to_move", "from_move", "FcState", "FcGame", "FcMove"]
