"""Ctrl-C at any moment of a command ends it quietly with 130 (issue 23 §3): while the app loads (the
first tenth of a second, where the imports are), and while a command runs that does not take Ctrl-C
itself.  What comes before replay's own code (the interpreter's start, and the `import re` of the
console script pip writes) is not replay's and can still show Python's own traceback: a traceback
through a file of the replay package is a failure.  Each test waits for what the program says (its import
lines, its first report) before it sends Ctrl-C, never for a time: the suite runs on a loaded machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import replay

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = str(Path(replay.__file__).resolve().parent)


def _script() -> str:
    exe = Path(sys.executable).parent / "replay"
    if not exe.exists():
        pytest.skip("the replay console script is not installed beside this Python")
    return str(exe)


#: each import the interpreter makes is said on standard error as it ends (``python -X importtime``): the test
#: sends Ctrl-C after the Nth of them, so that it waits for what the program says, never for a time
IMPORT_TIMES = {"PYTHONPROFILEIMPORTTIME": "1", "PYTHONUNBUFFERED": "1"}


def _module(line: str) -> str | None:
    """The module an ``import time:`` line names (None for the header and for every other line)."""
    if not line.startswith("import time:") or "imported package" in line:
        return None
    return line.rsplit("|", 1)[-1].strip()


def _spawn(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([_script(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                            env={**os.environ, **IMPORT_TIMES})


def _imports_of_the_app(p: subprocess.Popen[bytes], stop_after: int | None = None) -> int:
    """Read the import lines ``p`` says up to the end of ``import replay.cli`` (the console script's import;
    ``main()`` runs next), then count the imports after it; stop reading after ``stop_after`` of them.  How
    many were counted (fewer: the program ended first)."""
    assert p.stderr is not None
    started, n = False, 0
    for raw in p.stderr:
        name = _module(raw.decode("utf-8", "replace"))
        if name is None:
            continue
        if started:
            n += 1
            if n == stop_after:
                break
        elif name == "replay.cli":
            started = True
    return n


def _said(err: bytes) -> str:
    """What the program said on standard error, without the interpreter's import lines."""
    return "\n".join(ln for ln in err.decode("utf-8", "replace").splitlines() if _module(ln) is None
                     and not ln.startswith("import time:"))


def _no_frame_of_replay(text: str) -> None:
    frames = [ln for ln in text.splitlines() if ln.lstrip().startswith('File "')]
    assert not any(PACKAGE in f or "replay/cli" in f for f in frames), text[-2000:]


def test_ctrl_c_while_the_app_loads_is_quiet_and_130():
    """Ctrl-C after each of some fifteen points of the app's loading, spread over every import ``main()``
    makes (a first run counts them): quiet, exit 130, or 0 where the command had already ended."""
    games = str(ROOT / "examples" / "games")
    probe = _spawn("validate", games, cwd=ROOT)
    total = _imports_of_the_app(probe)
    probe.communicate(timeout=300)
    assert probe.returncode == 0 and total > 50, total  # the app's imports are said and counted
    points = sorted({*range(1, total, max(1, total // 15)), total})
    for n in points:
        p = _spawn("validate", games, cwd=ROOT)
        _imports_of_the_app(p, stop_after=n)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=300)
        text = _said(err)
        _no_frame_of_replay(text)
        if n < total:  # still loading when Ctrl-C came
            assert p.returncode == 130 and text.strip() == "", (n, p.returncode, text[-2000:])  # the ^C line ended
        else:  # after the last import: the command may have ended first
            assert p.returncode in (0, 130) and (p.returncode == 0 or text.strip() == ""), (p.returncode, text)


def test_ctrl_c_in_a_long_command_is_quiet_and_130(tmp_path):
    """`replay validate --all-readings` does not take Ctrl-C itself: the entry point does.  Ctrl-C comes once
    the first log's report is out (about a tenth of the run)."""
    p = _spawn("validate", "--all-readings", str(ROOT / "examples" / "games"), cwd=tmp_path)
    assert p.stdout is not None
    first = p.stdout.readline()
    assert first.strip(), "the command ended before its first report"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=300)
    text = _said(err)
    assert p.returncode == 130, (p.returncode, text[-2000:])
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-2000:]
