"""The fast core's nested searches (``nested.c``: NMCS and NRPA over a game's kernel), called from Python.

:mod:`replay.solver.nested` is the entry point (it chooses the method, its parameters and the budget,
and falls back to its own Python search of the same algorithm when this cannot run); this module only
encodes the parameters and runs the C search.
"""

from __future__ import annotations

import ctypes
from typing import Callable

from replay.engine.game import Game
from replay.fastcore import FastCore, FcProfile, FcState, Found, _prepared, library, memory_bound, run_search

#: the methods nested.c knows, by the code it reads
METHOD_CODE = {"nmcs": 0, "nrpa": 1}


class FcNestedParams(ctypes.Structure):
    """nested.c's ``fc_nested_params``."""

    _fields_ = [("method", ctypes.c_int), ("level", ctypes.c_int), ("iterations", ctypes.c_int),
                ("max_len", ctypes.c_int), ("width", ctypes.c_int), ("p_found", ctypes.c_uint32),
                ("bias", ctypes.c_double), ("alpha", ctypes.c_double), ("seed", ctypes.c_uint64)]


def encode_params(method: str, level: int, iterations: int, max_len: int, width: int, p_found: int, bias: float,
                  alpha: float, seed: int) -> FcNestedParams:
    """The parameters as nested.c reads them (``p_found`` in units of 2**-32, ``seed`` taken modulo 2**64)."""
    return FcNestedParams(METHOD_CODE[method], level, iterations, max_len, width, p_found, bias, alpha,
                          seed % 2**64)


def search(game: Game, spec: FastCore, root: FcState, profile: FcProfile, params: FcNestedParams,
           max_positions: int | None, tick: Callable[[int, int], str | None] | None) -> Found | None:
    """Run the nested search from ``root`` (None when it cannot: the caller searches in Python).

    ``tick(positions, best_home)`` is called every 256 positions; a reason it returns (``"seconds"``,
    ``"interrupted"``) ends the search with that ``stopped_by``, and an exception it raises is raised
    here once the search has stopped.
    """
    lib = library()
    if lib is None or lib.fc_sizeof_nested_params() != ctypes.sizeof(FcNestedParams):
        return None
    prepared = _prepared(game, spec)
    if prepared is None:
        return None
    return run_search(lambda cb, res: lib.fc_nested(
        spec.kernel.encode(), ctypes.byref(prepared), ctypes.byref(profile), ctypes.byref(root), ctypes.byref(params),
        -1 if max_positions is None else max_positions, memory_bound(), cb, ctypes.byref(res)), tick)


__all__ = ["FcNestedParams", "METHOD_CODE", "encode_params", "search"]
