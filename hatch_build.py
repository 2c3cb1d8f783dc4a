"""Build hook (hatchling): record the commit the wheel is built from, for ``replay --version``.

It writes the short hash (with ``-dirty`` when the code differs from it) to a file that the
wheel carries as ``replay/_build.txt``; outside a git checkout nothing is recorded.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _git(root: str, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


class CommitHook(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        commit = _git(self.root, "rev-parse", "--short=12", "HEAD")
        if not commit:
            return
        if _git(self.root, "status", "--porcelain", "--untracked-files=no", "--", "replay", "pyproject.toml"):
            commit += "-dirty"
        out = Path(tempfile.mkdtemp(prefix="replay-build-")) / "_build.txt"
        out.write_text(commit + "\n", encoding="utf-8")
        build_data["force_include"][str(out)] = "replay/_build.txt"
