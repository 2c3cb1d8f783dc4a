"""Two `replay play` sessions on one log saving at the same instant (issue 32): one saves, the other is
refused in one line; neither says "the log is saved" of a change the file does not hold.

The race is made on purpose, not hoped for: each session runs under a harness (:data:`HARNESS`) that
holds it between writing its new file and renaming it over the log, until the other session has come
as far, or is waiting for the lock.  Without a lock from the check to the rename both sessions pass
their check on the old file, and the second rename silently drops the first session's change (as
11 of 15 unhelped trials did); with it, the second session's check sees the first one's file.
The harness waits for what the other process has done (a file it touches), never for a time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: runs `replay play` (argv) in this process, with the pause between the staging and the rename
HARNESS = textwrap.dedent('''
    import fcntl, os, sys, time
    from pathlib import Path

    gate, me, other = Path(os.environ["RACE_DIR"]), os.environ["RACE_ME"], os.environ["RACE_OTHER"]
    import replay.fsio as fsio

    real_stage, real_flock = fsio._stage, fcntl.flock

    def flock(fd, op):  # the other session may be held here while this one holds the lock
        if op & fcntl.LOCK_EX:
            (gate / f"locking-{me}").touch()
        return real_flock(fd, op)

    def stage(target, data):
        tmp = real_stage(target, data)
        (gate / f"staged-{me}").touch()
        for _ in range(60_000):  # the other session staged too, or waits for the lock (a bound: 10 minutes)
            if (gate / f"staged-{other}").exists() or (gate / f"locking-{other}").exists():
                break
            time.sleep(0.01)
        return tmp

    fcntl.flock, fsio._stage = flock, stage
    from replay.cli import main
    sys.argv = ["replay", *sys.argv[1:]]
    main()
''')


def _log(tmp_path: Path) -> Path:
    d = json.loads((ROOT / "examples" / "games" / "exiles" / "base" / "lost-seed-1.json").read_bytes())
    d["moves"] = d["moves"][:4]  # the one legal move next: a deal
    d.pop("result", None)
    path = tmp_path / "e.json"
    path.write_text(json.dumps(d, indent=1), encoding="utf-8")
    return path


def _session(tmp_path: Path, me: str, other: str) -> subprocess.Popen[str]:
    env = dict(os.environ, RACE_DIR=str(tmp_path), RACE_ME=me, RACE_OTHER=other, PYTHONUNBUFFERED="1",
               COLUMNS="120")
    return subprocess.Popen([sys.executable, "-c", HARNESS, "play", "e.json"], cwd=tmp_path, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _drawn(proc: subprocess.Popen[str]) -> list[str]:
    """The lines the session prints up to its first question (the table and the moves): it has read the log."""
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("type a number"):
            return seen
    raise AssertionError(f"the session ended before its first question: {''.join(seen)}{proc.stderr.read()}")


def test_two_sessions_saving_at_the_same_instant_lose_no_change_silently(tmp_path):
    log = _log(tmp_path)
    a, b = _session(tmp_path, "a", "b"), _session(tmp_path, "b", "a")
    _drawn(a), _drawn(b)  # both have read the log as it is now
    out: dict[str, tuple[str, str]] = {}

    def finish(name: str, proc: subprocess.Popen[str], line: str) -> None:
        rest, err = proc.communicate(line, timeout=600)
        out[name] = (rest, err)

    threads = [threading.Thread(target=finish, args=("a", a, "1\n")),  # the deal
               threading.Thread(target=finish, args=("b", b, "note from b\n"))]  # a comment on move 4
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (tmp_path / "staged-a").exists() or (tmp_path / "staged-b").exists()  # the harness held a rename
    saved = {name for name, p in (("a", a), ("b", b)) if p.returncode == 0 and "the log is saved" in out[name][0]}
    moves = json.loads(log.read_text(encoding="utf-8"))["moves"]
    held = {"a": len(moves) == 5 and moves[4] == {"type": "deal"},
            "b": moves[3].get("comment") == "from b"}
    assert all(held[name] for name in saved), (saved, moves[3:], out)  # no session says saved what is lost
    assert len(saved) == 1, out  # one saves, the other is refused
    loser = ({"a", "b"} - saved).pop()
    proc = a if loser == "a" else b
    err = [x for x in out[loser][1].splitlines() if x.strip()]
    assert proc.returncode == 2 and len(err) == 1, out[loser]
    assert err[0].startswith("replay: e.json has changed since this session last read or wrote it"), err
