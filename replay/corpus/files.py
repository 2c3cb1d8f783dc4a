"""Where the corpus and the cache of its parsed files are, and the hash of the corpus's files.

Kept apart from :mod:`replay.corpus.loader` (pydantic, PyYAML) so that a start with a warm cache
(:func:`replay.corpus.edition.default_edition`) finds them without importing either.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from replay import settings
from replay.engine.errors import CorpusError


def corpus_dir() -> Path:
    given = settings.get("REPLAY_CORPUS")  # a SettingError when it is not a directory
    if isinstance(given, Path):
        return given
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "corpus", here.parents[1] / "_corpus"):
        if (candidate / "texts").is_dir():
            return candidate
    raise CorpusError("cannot find the corpus directory (set REPLAY_CORPUS)")


def cache_dir() -> Path | None:
    """Where parsed corpus files are kept between runs, or None when caching is off.

    ``REPLAY_CACHE_DIR`` names the directory (empty: no cache); otherwise the platform's user cache
    directory (platformdirs): ``$XDG_CACHE_HOME/replay`` or ``~/.cache/replay`` on Linux,
    ``~/Library/Caches/replay`` on macOS, ``%LOCALAPPDATA%\\replay\\Cache`` on Windows.
    """
    if "REPLAY_CACHE_DIR" in os.environ:
        given = settings.get("REPLAY_CACHE_DIR")
        return given if isinstance(given, Path) else None
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("replay", appauthor=False))


def files_hash(root: Path, salt: bytes = b"", skip: tuple[str, ...] = ()) -> str:
    """SHA-256 of ``salt`` and every file under ``root`` (names and bytes, in name order: the order of their
    paths' parts, as ``sorted(root.rglob("*"))`` has them), but those in a directory named in ``skip`` or
    whose name ends with one of its entries (``("__pycache__", ".pyc")``: a package's sources, not what
    importing it writes).

    Every start of a command that plays a game computes it (the key of the cached edition), so the tree is
    walked with :func:`os.scandir` rather than :mod:`pathlib` (a third of the time), the same files in the
    same order: every file below ``root`` or a symbolic link to one, directories entered unless they are
    symbolic links.
    """
    h = hashlib.sha256(salt)
    for parts in sorted(_files(str(root), ())):
        if skip and (parts[-1].endswith(skip) or any(p in skip for p in parts[:-1])):
            continue
        path = os.path.join(root, *parts)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as e:
            raise CorpusError(f"{path}: cannot read: {e.strerror or e}") from None
        h.update("/".join(parts).encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _files(top: str, parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The files below ``top`` as the parts of their paths relative to the root (``parts`` leads to ``top``)."""
    found: list[tuple[str, ...]] = []
    with os.scandir(top) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                found.extend(_files(entry.path, (*parts, entry.name)))
            elif entry.is_file():
                found.append((*parts, entry.name))
    return found
