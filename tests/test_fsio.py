"""Commands that write files: atomic (a writer killed mid-write leaves the old file whole), and never
overwriting an input, nor an existing file without --force (issue #13 §2)."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.fsio import WriteRefused, atomic_write, check_target, write_text, write_texts

ROOT = Path(__file__).resolve().parents[1]
WON_SEED = 1  # exiles: won in a few hundred nodes
runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def refused(result, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.output
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("replay: "), result.stderr
    for w in words:
        assert w in lines[0], lines[0]


# --------------------------------------------------------------------------- killed mid-write

#: Run in a child process: every file opened for writing writes half of its first chunk, flushes it
#: to the disk, says PAUSED and waits to be killed.  Path.write_text and os.fdopen both open through
#: io.open, so an in-place writer and the atomic one are caught at the same point: after the open.
CHILD = textwrap.dedent('''
    import io, os, sys, time
    real_open = io.open

    class Paused:
        def __init__(self, f):
            self.f = f
        def write(self, data):
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            os.fsync(self.f.fileno())
            sys.stdout.write("PAUSED\\n")
            sys.stdout.flush()
            time.sleep(120)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.f.close()
        def __getattr__(self, name):
            return getattr(self.f, name)

    opened = [0]
    pause_at = int(os.environ.get("PAUSE_AT_WRITE", "1"))  # pause at the Nth file opened for writing

    def pausing_open(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax+"):
            opened[0] += 1
            if opened[0] == pause_at:
                return Paused(f)
        return f

    setup = sys.argv[1]
    args = sys.argv[2:]
    if setup == "naive":  # the harness's own check: an in-place writer is caught truncating
        import pathlib
        io.open = pausing_open
        pathlib.Path(args[0]).write_text(args[1] * 5000)
    else:
        if setup.startswith("snapshot="):
            import pathlib
            import replay.trace.coverage as cov
            import replay.trace.testindex as ti
            import replay.cli.trace  # noqa: F401
            snapshot, _, index = setup.split("=", 1)[1].partition(",")
            cov.SNAPSHOT = pathlib.Path(snapshot)
            if index:
                ti.INDEX = pathlib.Path(index)
        from replay.cli import app
        io.open = pausing_open
        app(args, prog_name="replay")
''')


def kill_mid_write(setup: str, *args: str, pause_at: int = 1) -> None:
    p = subprocess.Popen([sys.executable, "-c", CHILD, setup, *args], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env={**os.environ, "PAUSE_AT_WRITE": str(pause_at)})
    try:
        assert p.stdout is not None
        for line in p.stdout:  # the command's own output, then the pause
            if line == "PAUSED\n":
                break
        else:
            raise AssertionError(f"the writer never paused: {p.stderr.read() if p.stderr else ''}")
        os.kill(p.pid, signal.SIGKILL)
    finally:
        p.wait(timeout=60)
    assert p.returncode == -signal.SIGKILL


def test_the_harness_catches_an_in_place_writer(tmp_path):
    target = tmp_path / "old.txt"
    target.write_text("old content\n")
    kill_mid_write("naive", str(target), "new ")
    assert target.read_text() != "old content\n"  # truncated, then half written: what must never happen


@pytest.fixture()
def stats_data(tmp_path):  # type: ignore[no-untyped-def]
    src = ROOT / "data" / "stats" / "results.json"
    data = tmp_path / "results.json"
    data.write_bytes(src.read_bytes())
    return data


WRITERS = ["solve --out", "stats --page --out", "stats --json", "coverage --update"]


@pytest.mark.parametrize("writer", WRITERS)
def test_a_writer_killed_mid_write_leaves_the_old_file_whole(tmp_path, stats_data, writer):
    target = tmp_path / "target.out"
    old = b'{"old": "content that must survive"}\n'
    target.write_bytes(old)
    if writer == "solve --out":
        kill_mid_write("-", "solve", "exiles", "--seed", str(WON_SEED), "--nodes", "5000", "--out", str(target),
                       "--force")
    elif writer == "stats --page --out":
        kill_mid_write("-", "stats", "--page", str(stats_data), "--out", str(target), "--force")
    elif writer == "stats --json":
        kill_mid_write("-", "stats", "exiles", "--deals", "1", "--nodes", "20", "--workers", "1", "--no-greedy",
                       "--json", str(target), "--force")
    else:
        kill_mid_write(f"snapshot={target}", "coverage", "--update")
    assert target.read_bytes() == old
    strays = [p.name for p in tmp_path.iterdir() if p.name.startswith(".target.out.")]
    assert len(strays) <= 1  # the killed writer's temporary file, beside the target, never in its place


# --------------------------------------------------------------------------- the helper


def test_coverage_update_killed_between_its_two_files_leaves_both_old(tmp_path):
    """`coverage --update` writes data/coverage.json and data/testindex.json: killed while writing the second,
    the first must not have been replaced yet (the two are staged, then renamed together)."""
    snapshot, index = tmp_path / "coverage.json", tmp_path / "testindex.json"
    snapshot.write_text("old snapshot\n")
    index.write_text("old index\n")
    kill_mid_write(f"snapshot={snapshot},{index}", "coverage", "--update", pause_at=2)
    assert snapshot.read_text() == "old snapshot\n" and index.read_text() == "old index\n"


def test_write_texts_writes_every_file_or_refuses_before_writing_any(tmp_path):
    from replay.fsio import write_texts

    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a")
    with pytest.raises(WriteRefused, match="exists"):
        write_texts([(b, "new b"), (a, "new a")])
    assert not b.exists() and a.read_text() == "old a"  # checked first: nothing written
    assert write_texts([(a, "new a"), (b, "new b")], force=True) == [a, b]
    assert (a.read_text(), b.read_text()) == ("new a", "new b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_atomic_write_replaces_and_keeps_the_mode(tmp_path):
    p = tmp_path / "f.txt"
    p.write_text("old")
    os.chmod(p, 0o640)
    atomic_write(p, b"new")
    assert p.read_bytes() == b"new" and (p.stat().st_mode & 0o777) == 0o640
    assert [x.name for x in tmp_path.iterdir()] == ["f.txt"]


def test_atomic_write_through_a_symlink_replaces_the_file_it_names(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert link.is_symlink() and real.read_text() == "new"


def test_check_target_policy(tmp_path):
    inp = tmp_path / "in.json"
    inp.write_text("{}")
    with pytest.raises(WriteRefused, match="input of this command"):
        check_target(inp, inputs=[inp], force=True)
    with pytest.raises(WriteRefused, match="input of this command"):
        check_target(tmp_path / "." / "in.json", inputs=[str(inp)], update=True)
    with pytest.raises(WriteRefused, match=r"in\.json exists; give --force to overwrite it"):
        check_target(inp)
    assert check_target(inp, force=True) == inp and check_target(inp, update=True) == inp
    with pytest.raises(WriteRefused, match="it is a directory"):
        check_target(tmp_path, force=True)
    with pytest.raises(WriteRefused, match="does not exist"):
        check_target(tmp_path / "no" / "such" / "x.json")
    assert not (tmp_path / "no").exists()
    write_text(tmp_path / "mine" / "x.json", "ok", make_parents=True)
    assert (tmp_path / "mine" / "x.json").read_text() == "ok"


def _special_files(tmp_path: Path) -> list[tuple[Path, str]]:
    """A FIFO, and a character device where this user may make one (``mknod c 1 3``, /dev/null's numbers)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = [(fifo, "a FIFO")]
    dev = tmp_path / "null"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pass
    else:
        out.append((dev, "a device"))
    return out


def _reading(path: Path) -> tuple[threading.Thread, list[bytes]]:
    """A reader of the FIFO ``path`` in a thread (a writer's open waits for one): what it read, once joined."""
    got: list[bytes] = []
    t = threading.Thread(target=lambda: got.append(path.read_bytes()), daemon=True)
    t.start()
    return t, got


def test_a_device_or_a_fifo_is_written_into_and_never_replaced_by_a_regular_file(tmp_path):
    """Issue 32: ``-o /dev/null`` and a named pipe are written into, as curl and tar do; none is replaced."""
    for path, kind in _special_files(tmp_path):
        assert check_target(path) == path  # no --force: writing into a stream replaces nothing
        with pytest.raises(WriteRefused, match=f"it is {kind}, not a regular file"):
            check_target(path, force=True, streams=False)  # a writer that reads its file back
        reader, got = _reading(path) if kind == "a FIFO" else (None, [])
        atomic_write(path, b"into it")
        if reader is not None:
            reader.join(timeout=60)
            assert got == [b"into it"]
        link = tmp_path / f"link-to-{path.name}"
        link.symlink_to(path)
        assert check_target(link) == link
        with pytest.raises(WriteRefused, match="not a regular file"):
            write_texts([(link, "x")], force=True)  # files that belong together are regular files
        assert not stat.S_ISREG(os.stat(path).st_mode) and link.is_symlink()
        assert not [x for x in tmp_path.iterdir() if x.name.endswith(".tmp")]


def test_deal_and_solve_write_into_dev_null_and_a_fifo(tmp_path):
    r = run("deal", "exiles", "-s", "1", "-o", os.devnull)
    assert r.exit_code == 0, r.output
    r = run("solve", "--game", "exiles", "--seed", str(WON_SEED), "-o", os.devnull)
    assert r.exit_code == 0 and "log written to /dev/null" in r.stderr, r.output
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader, got = _reading(fifo)
    r = run("deal", "exiles", "-s", "1", "-o", str(fifo))
    reader.join(timeout=60)
    assert r.exit_code == 0 and json.loads(got[0])["game"] == "exiles"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_play_refuses_a_device_in_one_line(tmp_path):
    """`replay play` reads its log back before every save: a device is no log, and is not replaced."""
    refused(run("play", "exiles", "-s", "1", "-o", os.devnull), os.devnull, "a device, not a regular file")


def test_a_link_to_nowhere_needs_its_targets_directory_as_a_plain_path_does(tmp_path):
    """Issue 32: ``-o LINK --force`` through a dangling link made the missing folders of its target, where a
    plain missing folder is refused: one rule, applied to the resolved path."""
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "no" / "such" / "x.json")
    refused(run("deal", "exiles", "-s", "1", "-o", str(link), "--force"), str(link),
            f"the directory {tmp_path / 'no' / 'such'} (where the link points) does not exist")
    assert not (tmp_path / "no").exists()
    refused(run("deal", "exiles", "-s", "1", "-o", str(tmp_path / "no" / "x.json")), "does not exist")
    (tmp_path / "no" / "such").mkdir(parents=True)  # the target's folder exists: the link is followed
    r = run("deal", "exiles", "-s", "1", "-o", str(link), "--force")
    assert r.exit_code == 0 and link.is_symlink() and json.loads((tmp_path / "no" / "such" / "x.json").read_text())


# --------------------------------------------------------------------------- the commands


def test_stats_page_refuses_to_overwrite_its_data_file(stats_data):
    before = stats_data.read_bytes()
    refused(run("stats", "--page", str(stats_data), "--out", str(stats_data), "--force"), str(stats_data),
            "input of this command")
    assert stats_data.read_bytes() == before


def test_stats_page_refuses_an_existing_file_without_force(tmp_path, stats_data):
    page = tmp_path / "stats.md"
    page.write_text("mine")
    refused(run("stats", "--page", str(stats_data), "--out", str(page)), str(page), "--force")
    assert page.read_text() == "mine"
    r = run("stats", "--page", str(stats_data), "--out", str(page), "--force")
    assert r.exit_code == 0, r.output
    assert page.read_text().startswith("#") and "mine" not in page.read_text()


def test_stats_page_of_a_missing_file_says_so_without_errno(tmp_path):
    r = run("stats", "--page", str(tmp_path / "missing.json"))
    refused(r, "missing.json", "no such file")
    assert "Errno" not in r.stderr


def test_stats_checks_the_json_path_before_the_run(tmp_path):
    r = run("stats", "exiles", "--deals", "1", "--nodes", "20", "--json", str(tmp_path / "nodir" / "x.json"))
    refused(r, "does not exist")
    assert "Win rates" not in r.stdout  # refused before playing a deal


def test_solve_refuses_to_overwrite_its_log_and_keeps_the_players_meta(tmp_path):
    deal = json.loads(run("deal", "exiles", "--seed", str(WON_SEED)).stdout)
    deal["meta"] = {"player": "Anna", "date": "1911-03-02", "notes": "by candlelight"}
    src = tmp_path / "d.json"
    src.write_text(json.dumps(deal))
    before = src.read_bytes()
    refused(run("solve", str(src), "--nodes", "5000", "--out", str(src), "--force"), "input of this command")
    assert src.read_bytes() == before
    out = tmp_path / "won.json"
    r = run("solve", str(src), "--nodes", "5000", "--out", str(out))
    assert r.exit_code == 0, r.output
    meta = json.loads(out.read_text())["meta"]
    assert {k: meta[k] for k in ("player", "date", "notes")} == deal["meta"]
    assert meta["solver"]["source"] == "replay solve, from d.json" and meta["solver"]["nodes"] > 0
    refused(run("solve", str(src), "--nodes", "5000", "--out", str(out)), "won.json exists", "--force")


def test_solve_checks_the_output_path_before_the_search(tmp_path):
    r = run("solve", "exiles", "--seed", "7", "--nodes", "0", "--out", str(tmp_path / "no" / "dir" / "x.json"))
    refused(r, "does not exist")  # at once: --nodes 0 would search without limit
    assert not (tmp_path / "no").exists()
    refused(run("solve", "exiles", "--seed", "7", "--nodes", "0", "--out", str(tmp_path)), "it is a directory")


@pytest.mark.parametrize("seed", [str(2**64), str(2**64 + 5)])
def test_seeds_past_64_bits_are_refused(seed):
    refused(run("solve", "exiles", "--seed", seed), "2^64")
    r = run("deal", "exiles", "--seed", seed)
    assert r.exit_code == 2 and "2^64" in r.stderr and not r.stdout
