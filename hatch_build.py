"""Build hook (hatchling): record the commit the wheel is built from, for ``replay --version``, and
compile the solver's fast core (``replay/fastcore``, a C library loaded with ctypes).

It writes the short hash (with ``-dirty`` when the code differs from it) to a file that the
wheel carries as ``replay/_build.txt``; outside a git checkout nothing is recorded.  The fast core is
compiled by ``replay/fastcore/build.py`` (``cc``); an editable install builds it beside its sources,
a wheel carries it and is tagged ``py3-none-<platform>``: the library is loaded with ctypes and
needs only the C library, so one wheel serves every Python 3 on its platform (``auditwheel repair``
turns the tag into a ``manylinux`` one for the package index; see the README's "Releasing").  When it cannot be compiled the install
goes on with a warning, and the solver searches in Python, with the same results, more slowly.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
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
        self._fast_core(version, build_data)
        commit = _git(self.root, "rev-parse", "--short=12", "HEAD")
        if not commit:
            return
        if _git(self.root, "status", "--porcelain", "--untracked-files=no", "--", "replay", "pyproject.toml"):
            commit += "-dirty"
        out = Path(tempfile.mkdtemp(prefix="replay-build-")) / "_build.txt"
        out.write_text(commit + "\n", encoding="utf-8")
        build_data["force_include"][str(out)] = "replay/_build.txt"

    def _fast_core(self, version: str, build_data: dict[str, Any]) -> None:
        path = Path(self.root) / "replay" / "fastcore" / "build.py"
        spec = importlib.util.spec_from_file_location("replay_fastcore_build", path)
        if spec is None or spec.loader is None:
            return
        build = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(build)
        target = build.library_path()
        try:
            if version == "editable":
                if not target.exists():
                    build.build(target)
                return
            out = Path(tempfile.mkdtemp(prefix="replay-fastcore-")) / target.name
            build.build(out)
        except (RuntimeError, OSError) as e:
            print(f"replay: the solver's fast core was not built ({e}); the solver will search in Python",
                  file=sys.stderr)
            return
        build_data["force_include"][str(out)] = f"replay/fastcore/{target.name}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{platform_tag()}"


def platform_tag() -> str:
    """This machine's platform tag as wheels spell it (``linux_x86_64``, ``macosx_11_0_arm64`` …):
    the C library depends on the platform, not on the Python version or its ABI."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")
