"""Compile the fast search core (a C library loaded with :mod:`ctypes`, no Python headers needed).

``pip install`` runs this through the build hook (``hatch_build.py``); in a source checkout
:func:`replay.fastcore.library` runs it again when the sources have changed since the library was
built.  ``python -m replay.fastcore.build`` compiles it by hand.  The library's file is named after the
SHA-256 of its sources (:func:`library_path`), so a stale build is never loaded.

Every ``games/<game>.c`` is compiled in, and listed to ``kernels.c`` by ``-DFC_KERNELS=X(<game>)…``
(the file defines ``fc_kernel_<game>``).  The compiler is ``$CC``, else ``cc``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLAGS = ("-O2", "-std=c11", "-shared", "-fPIC", "-Wall", "-Wno-unused-function")


def sources(root: Path = HERE) -> list[Path]:
    """The C sources, in a fixed order: the core, then one file per game."""
    return sorted(root.glob("*.c")) + sorted((root / "games").glob("*.c"))


def source_hash(root: Path = HERE) -> str:
    """SHA-256 of the sources and the header (names and bytes), the mark of a build."""
    h = hashlib.sha256()
    for p in [root / "core.h", *sources(root)]:
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def library_path(root: Path = HERE) -> Path:
    """Where the library built from these sources lies: ``_fastcore-<hash>.so`` beside them."""
    return root / f"_fastcore-{source_hash(root)[:16]}.so"


def compiler() -> str | None:
    cc = os.environ.get("CC") or "cc"
    return shutil.which(cc)


def build(dest: Path, root: Path = HERE) -> Path:
    """Compile the library to ``dest`` (a file path), atomically; raises ``RuntimeError`` when it cannot."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (set CC or install gcc): the solver runs without its fast core")
    games = [p.stem for p in sorted((root / "games").glob("*.c"))]
    defines = [f"-DFC_KERNELS={''.join(f'X({g})' for g in games)}", f'-DFC_SOURCE_HASH="{source_hash(root)}"']
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".fastcore-", suffix=".so", dir=dest.parent)
    os.close(fd)
    cmd = [cc, *FLAGS, *defines, "-I", str(root), *map(str, sources(root)), "-o", tmp, "-lm"]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            raise RuntimeError(f"compiling the fast core failed:\n{run.stderr.strip()}")
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    for old in dest.parent.glob("_fastcore-*.so"):  # libraries of other sources
        if old != dest:
            old.unlink(missing_ok=True)
    return dest


def status() -> str:
    """One line on whether this copy searches with the fast core, for ``replay --version``: read from the
    library file without building it, and without importing the engine (``--version`` stays fast)."""
    import ctypes

    from replay import settings

    if settings.get("REPLAY_NO_FASTCORE"):
        return "solver: Python search (REPLAY_NO_FASTCORE is set)"
    path = library_path()
    if path.exists():
        try:
            ctypes.CDLL(str(path))
        except OSError as e:
            return f"solver: Python search (the fast core {path.name} does not load: {e})"
        return "solver: fast core (C)"
    if compiler() is None:
        return "solver: Python search (no fast core: it was not built, and there is no C compiler to build it)"
    return "solver: fast core (C; built on first use from these sources)"


if __name__ == "__main__":
    try:
        print(build(library_path()))
    except RuntimeError as e:
        print(f"replay.fastcore.build: {e}", file=sys.stderr)
        sys.exit(1)
