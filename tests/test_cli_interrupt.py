"""Ctrl-C at any moment of a command ends it quietly with 130 (issue 23 §3): while the app loads (the
first tenth of a second, where the imports are), and while a command runs that does not take Ctrl-C
itself.  What comes before replay's own code (the interpreter's start, and the `import re` of the
console script pip writes) is not replay's and can still show Python's own traceback: a traceback
through a file of the replay package is a failure."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
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


def test_ctrl_c_while_the_app_loads_or_runs_is_quiet_and_130():
    script = _script()
    quiet, early = 0, 0
    for k in range(30):
        p = subprocess.Popen([script, "validate", str(ROOT / "examples" / "games")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT)
        time.sleep(0.01 * k)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        text = err.decode("utf-8", "replace")
        frames = [ln for ln in text.splitlines() if ln.lstrip().startswith('File "')]
        # no frame of replay's own code (the interpreter's start-up may name the package's path as an import
        # path it was examining when Ctrl-C came: that is before replay's code ran)
        assert not any(PACKAGE in f or "replay/cli" in f for f in frames), (0.01 * k, p.returncode, text[-2000:])
        if p.returncode == 130:
            assert text.strip() == "", text  # nothing but the end of the ^C line
            quiet += 1
        elif "Traceback" in text or p.returncode == -signal.SIGINT or \
                (p.returncode == 1 and text.strip() == "KeyboardInterrupt"):
            early += 1  # before replay's code ran (the interpreter's start-up, pip's wrapper: a bare line, exit 1)
        else:
            assert p.returncode == 0, (p.returncode, text)  # it had finished
    assert quiet >= 10, (quiet, early)


def test_ctrl_c_in_a_long_command_is_quiet_and_130(tmp_path):
    """`replay validate --all-readings` does not take Ctrl-C itself: the entry point does."""
    script = _script()
    p = subprocess.Popen([script, "validate", "--all-readings", str(ROOT / "examples" / "games")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    text = err.decode("utf-8", "replace")
    assert p.returncode == 130, (p.returncode, text[-2000:])
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-2000:]
