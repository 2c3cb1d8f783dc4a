"""`replay solve` in a terminal (a pseudo-terminal, as a person runs it): progress, and Ctrl-C."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time


def _read_until(fd: int, want: bytes, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while want not in out and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def test_progress_shows_and_ctrl_c_ends_the_search_with_its_best_so_far():
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in the pseudo-terminal
        os.execv(sys.executable, [sys.executable, "-m", "replay", "solve", "zwarta-kolumna", "--seed", "3",
                                  "--nodes", "0"])
    try:
        seen = _read_until(fd, b"(Ctrl-C stops)", 60)
        assert b"searching:" in seen and b"positions" in seen and b"cards home" in seen, seen
        assert re.search(rb"\d:\d\d:\d\d", seen) and b"\x1b[2K" in seen, seen  # rich's line: elapsed, the line erased
        os.write(fd, b"\x03")  # Ctrl-C, typed
        seen += _read_until(fd, b"interrupted", 30)
        seen += _read_until(fd, b"\n", 5)
        _, status = os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.close(fd)
    text = seen.decode(errors="replace")
    assert re.search(r"unknown: interrupted; at best \d+ of 104 cards home in [\d,]+ positions \(", text), text
    assert "Traceback" not in text
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130
