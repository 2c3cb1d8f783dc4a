"""Which code made a result: ``git describe`` of the working tree, else the package version."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


@lru_cache(maxsize=1)
def code_version() -> str:
    """``git describe --always`` of HEAD, with ``-dirty`` when the code differs from it (uncommitted changes
    under ``replay/`` or to ``pyproject.toml``; documents and data do not count), e.g. ``0d5e4a6-dirty``;
    ``replay <version>`` outside a checkout."""
    described = _git("describe", "--always")
    if described:
        changed = _git("status", "--porcelain", "--untracked-files=no", "--", "replay", "pyproject.toml")
        return described + ("-dirty" if changed else "")
    try:
        from importlib.metadata import version

        return f"replay {version('patience-replay')}"
    except Exception:  # noqa: BLE001 - not installed
        return "unknown"


@lru_cache(maxsize=1)
def commit() -> str | None:
    """The full hash of HEAD, when in a git checkout."""
    return _git("rev-parse", "HEAD")


@lru_cache(maxsize=1)
def build_commit() -> str | None:
    """The short hash of the commit the code comes from: as recorded in the wheel at build time
    (``replay/_build.txt``, written by ``hatch_build.py``); else from git in a checkout; else None."""
    recorded = Path(__file__).resolve().parents[1] / "_build.txt"
    try:
        return recorded.read_text(encoding="utf-8").strip() or None
    except OSError:
        pass
    if not (_ROOT / "pyproject.toml").exists():  # installed without a record: git would answer for another tree
        return None
    in_git = _git("rev-parse", "--short=12", "HEAD")
    if in_git and _git("status", "--porcelain", "--untracked-files=no", "--", "replay", "pyproject.toml"):
        in_git += "-dirty"
    return in_git
