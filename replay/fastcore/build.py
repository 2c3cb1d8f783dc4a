"""Compile the fast search core (a C library loaded with :mod:`ctypes`, no Python headers needed).

``pip install`` runs this through the build hook (``hatch_build.py``), which puts the library beside
the sources (in the wheel, so pip's list of files has it and ``pip uninstall`` removes it).  When no
library of these sources is there (a checkout whose C sources changed, a wheel built without a
compiler) :func:`replay.fastcore.library` builds one on first use into the user's cache folder
(:func:`cache_path`, ``~/.cache/replay/fastcore``; never into the installed package), once: a build
that fails is recorded there (:func:`failure`), and not tried again with the same compiler.
``python -m replay.fastcore.build`` compiles it by hand (:func:`main`).  The library's file is named after the
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


#: libraries of other sources kept in the cache folder (checkouts and worktrees of other commits share it)
KEEP_IN_CACHE = 8


def build(dest: Path, root: Path = HERE) -> Path:
    """Compile the library to ``dest`` (a file path), atomically; raises ``RuntimeError`` when it cannot.

    Beside the sources only this library is kept; in another folder (the cache) the :data:`KEEP_IN_CACHE`
    newest."""
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
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as e:
            raise RuntimeError(f"compiling the fast core with {cc} failed: {e}") from None
        if run.returncode != 0:
            said = run.stderr.strip() or f"{cc} exited with status {run.returncode}"
            raise RuntimeError(f"compiling the fast core with {cc} failed:\n{said}")
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    prune(dest.parent, keep=1 if dest.parent.resolve() == root.resolve() else KEEP_IN_CACHE)
    return dest


def prune(folder: Path, keep: int) -> None:
    """Remove from ``folder`` all but the ``keep`` newest libraries (and every record of a failed build)."""
    libs = sorted(folder.glob("_fastcore-*.so"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in libs[keep:]:
        old.unlink(missing_ok=True)
    for record in folder.glob("_fastcore-*.failed"):
        record.unlink(missing_ok=True)


# ------------------------------------------------------------------ the cache folder (first use)


def cache_path(root: Path = HERE) -> Path | None:
    """Where :func:`replay.fastcore.library` builds the library of these sources on first use: the
    user's cache folder (``REPLAY_CACHE_DIR``, else the platform's, as the corpus's cache), ``fastcore/``;
    None when caching is off (``REPLAY_CACHE_DIR=``: a build then lives in a temporary folder for one run)."""
    from replay.corpus.files import cache_dir

    where = cache_dir()
    return where / "fastcore" / library_path(root).name if where is not None else None


def candidates(root: Path = HERE) -> list[Path]:
    """The places a library of these sources may be, in the order they are looked at: beside the sources
    (built at install), then the cache folder (built on first use)."""
    cached = cache_path(root)
    return [library_path(root)] + ([cached] if cached is not None else [])


def found(root: Path = HERE) -> Path | None:
    """The first library of these sources that exists (:func:`candidates`), or None."""
    return next((p for p in candidates(root) if p.exists()), None)


def _compiler_mark() -> str:
    """Which compiler a build would use, as recorded with a failed build: ``CC``, its path and the file's
    size and time (another compiler installed in its place is tried anew)."""
    cc = compiler()
    if cc is None:
        return "none"
    try:
        st = os.stat(cc)
    except OSError:
        return cc
    return f"{os.environ.get('CC') or 'cc'} {cc} {st.st_size} {st.st_mtime_ns}"


def _record(root: Path) -> Path | None:
    cached = cache_path(root)
    return cached.with_suffix(".failed") if cached is not None else None


#: why the build of this run failed (one line), when it did and there is no cache folder to record it in
_FAILED: list[str] = []


def record_failure(reason: str, root: Path = HERE) -> None:
    """Keep why building failed (the compiler's first line of error), so that later runs neither try the same
    compiler again nor promise a fast core (:func:`failure`)."""
    line = next((x.strip() for x in reason.splitlines()[1:] if x.strip()), reason.splitlines()[0])
    _FAILED[:] = [line]
    record = _record(root)
    if record is None:
        return
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(f"{_compiler_mark()}\n{line}\n", encoding="utf-8")
    except OSError:
        pass


def failure(root: Path = HERE) -> str | None:
    """Why building the library of these sources with this compiler failed (one line), if it was tried."""
    if _FAILED:
        return _FAILED[0]
    record = _record(root)
    try:
        mark, line = record.read_text(encoding="utf-8").splitlines()[:2] if record is not None else ("", "")
    except (OSError, ValueError):
        return None
    return line if mark == _compiler_mark() else None


def probe() -> str | None:
    """Whether the compiler works: None when it compiles a one-line library (a few hundredths of a second),
    else why not, in one line.  For ``--version``, which must not build the core (seconds) to tell the truth."""
    cc = compiler()
    if cc is None:
        return "there is no C compiler"
    with tempfile.TemporaryDirectory(prefix="replay-cc-") as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text("int fc_probe(void) { return 0; }\n", encoding="utf-8")
        try:
            run = subprocess.run([cc, *FLAGS, str(src), "-o", str(Path(tmp) / "probe.so")], capture_output=True,
                                 text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            return f"the C compiler {cc} does not run: {e}"
        if run.returncode != 0:
            said = next((x.strip() for x in run.stderr.splitlines() if x.strip()), f"exit status {run.returncode}")
            return f"the C compiler {cc} does not work ({said})"
    return None


def status() -> str:
    """One line on whether this copy searches with the fast core, for ``replay --version``: read from the
    library file without building it, and without importing the engine (``--version`` stays fast).  Where no
    library is built yet, the compiler is tried on a one-line file, so that what is promised is true."""
    import ctypes

    from replay import settings

    if settings.get("REPLAY_NO_FASTCORE"):
        return "solver: Python search (REPLAY_NO_FASTCORE is set)"
    path = found()
    if path is not None:
        try:
            ctypes.CDLL(str(path))
        except OSError as e:
            return f"solver: Python search (the fast core {path.name} does not load: {e})"
        return "solver: fast core (C)"
    failed = failure()
    if failed is not None:
        return f"solver: Python search (building the fast core failed: {failed})"
    if compiler() is None:
        return "solver: Python search (no fast core: it was not built, and there is no C compiler to build it)"
    broken = probe()
    if broken is not None:
        return f"solver: Python search (no fast core: it was not built, and {broken})"
    where = cache_path()
    return ("solver: fast core (C; built on first use" + (f", into {where.parent}" if where is not None else "")
            + ")")


def main() -> int:
    """``python -m replay.fastcore.build``: build the library by hand (again, after a failed build: the record
    of the failure is dropped), into the cache folder, or beside the sources when caching is off (a checkout)."""
    dest = cache_path() or library_path()
    record = _record(HERE)
    if record is not None:
        record.unlink(missing_ok=True)
    try:
        print(build(dest))
    except RuntimeError as e:
        print(f"replay.fastcore.build: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
