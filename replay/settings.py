"""The environment variables replay reads: what each means, and each read strictly.

Every one is listed here once (:data:`SETTINGS`); ``replay --help`` (its epilog) and the command-line
page (``docs/cli.md``) are written from this list, and the code reads them through :func:`get`.  A
value that cannot be read is a :class:`SettingError` naming the variable and what it takes (the
command line checks them all before any command runs, :func:`check_all`, and says it in one line),
never a value silently ignored.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

TRUE = ("1", "true", "yes", "on")
FALSE = ("", "0", "false", "no", "off")


class SettingError(ValueError):
    """An environment variable whose value cannot be read (one line)."""


def _flag(name: str, value: str) -> bool:
    v = value.strip().casefold()
    if v in TRUE:
        return True
    if v in FALSE:
        return False
    raise SettingError(f"{name}={value!r}: give 1 (on) or 0 (off)")


#: the largest memory bound read, in MiB (1 PiB): the fast core counts bytes in 64 signed bits, and 2^43 MiB
#: would wrap there (2^44 MiB to 0: a search that stops at once, where the Python one goes on)
MAX_MIB = 2**30


def _mib(name: str, value: str) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise SettingError(f"{name}={value!r}: give a whole number of MiB (e.g. 2048)") from None
    if n < 1:
        raise SettingError(f"{name}={value!r}: give at least 1 MiB")
    if n > MAX_MIB:
        raise SettingError(f"{name}={value!r}: give at most {MAX_MIB:,} MiB (1 PiB)")
    return n


def _existing(kind: str, test: Callable[[Path], bool]) -> Callable[[str, str], Path | None]:
    """A reader of a path that must be an existing ``kind`` (``test`` says whether it is); set and empty: as if
    not set."""
    def read(name: str, value: str) -> Path | None:
        if not value:
            return None
        path = Path(value)
        if not test(path):
            what = "does not exist" if not path.exists() else f"is not a {kind}"
            raise SettingError(f"{name}={value!r}: {what}")
        return path

    return read


_directory = _existing("directory", Path.is_dir)
_file = _existing("file", Path.is_file)


def _cache(name: str, value: str) -> Path | None:
    if not value:
        return None
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise SettingError(f"{name}={value!r}: is not a directory (empty: no cache)")
    return path


@dataclass(frozen=True)
class Setting:
    """One environment variable: its name, what it takes, what it does, and its reader."""

    name: str
    value: str  #: what it takes, in a few words
    help: str
    read: Callable[[str, str], object]


SETTINGS: tuple[Setting, ...] = (
    Setting("REPLAY_CORPUS", "DIR", "read the corpus from DIR instead of the one beside the code (a copy to "
            "work on: see docs/contributing.md)", _directory),
    Setting("REPLAY_CACHE_DIR", "DIR or empty", "keep the parsed corpus and its edition in DIR (default: the "
            "platform's cache directory, e.g. ~/.cache/replay); empty: no cache", _cache),
    Setting("REPLAY_NO_FASTCORE", "1 or 0", "1: the solver searches in Python, without its C fast core "
            "(the same answers, 35-90 times slower)", _flag),
    Setting("REPLAY_SOLVER_MEMORY", "MiB", "the most memory a search's positions may take, 1 MiB to 1 PiB "
            "(default: a quarter of the machine's, at most 4 GiB); past it the search stops with 'unknown'", _mib),
    Setting("REPLAY_PYODIDE_TARBALL", "FILE", "the site build takes the Play page's Pyodide from FILE, the npm "
            "package's tarball, instead of npm pack (an offline build; checked against the pinned SHA-512)", _file),
)
BY_NAME = {s.name: s for s in SETTINGS}


def get(name: str) -> object:
    """The value of ``name`` read by its reader, or None when it is not set; raises :class:`SettingError`."""
    raw = os.environ.get(name)
    if raw is None:
        return None
    return BY_NAME[name].read(name, raw)


def check_all() -> None:
    """Read every setting that is set (raises the first :class:`SettingError`)."""
    for s in SETTINGS:
        get(s.name)


def epilog() -> str:
    """The settings as the epilog of ``replay --help`` shows them."""
    lines = ["Environment variables:"]
    lines += [f"{s.name}={s.value}: {s.help}." for s in SETTINGS]
    return "\n\n".join(lines)


__all__ = ["SETTINGS", "Setting", "SettingError", "get", "check_all", "epilog"]
