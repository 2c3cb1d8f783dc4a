"""``replay stats --scheduler``: a bad address, a peer that is not a dask scheduler and a scheduler lost
mid-run are one line and exit 2 within a stated time; a worker lost mid-run is recomputed with the same
results (issue 23 §3).  Real dask processes on 127.0.0.1, run as a user runs them."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
from typer.testing import CliRunner

from replay.cli import app
from replay.solver import stats as S

runner = CliRunner()
STATS = ["stats", "exiles", "--no-greedy", "--seed", "7"]


def one_line(result_stderr: str) -> str:
    """The one error line (the progress lines a run writes to a standard error that is not a terminal aside)."""
    lines = [x for x in result_stderr.splitlines() if x.strip() and not re.fullmatch(r"\S+: \d+/\d+ deals, .*", x)]
    assert len(lines) == 1 and lines[0].startswith("replay: "), result_stderr
    assert "Traceback" not in result_stderr
    return lines[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("address", ["garbage", "", "tcp://", "tcp://127.0.0.1"])
def test_an_address_that_is_not_one_is_one_line(address):
    r = runner.invoke(app, [*STATS, "--deals", "2", "--nodes", "100", "--scheduler", address])
    assert r.exit_code == 2, r.output
    assert "not a scheduler address (give tcp://HOST:PORT)" in one_line(r.stderr)


def _serve(behaviour: str) -> tuple[str, threading.Event]:
    """A TCP peer on 127.0.0.1 that is not a dask scheduler: it accepts and says nothing ("silent"), or
    answers in HTTP ("http")."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    stop = threading.Event()
    held: list[socket.socket] = []

    def loop() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            held.append(c)
            if behaviour == "http":
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        for c in held:
            c.close()
        srv.close()

    threading.Thread(target=loop, daemon=True).start()
    return f"tcp://127.0.0.1:{srv.getsockname()[1]}", stop


@pytest.mark.parametrize("behaviour", ["silent", "http"])
def test_a_peer_that_is_not_a_scheduler_is_one_line_within_the_timeout(monkeypatch, behaviour):
    monkeypatch.setattr(S, "SCHEDULER_TIMEOUT", 2)
    address, stop = _serve(behaviour)
    try:
        t0 = time.monotonic()
        r = runner.invoke(app, [*STATS, "--deals", "2", "--nodes", "100", "--scheduler", address])
        took = time.monotonic() - t0
    finally:
        stop.set()
    assert r.exit_code == 2, r.output
    line = one_line(r.stderr)
    assert address in line and ("within 2 s" in line if behaviour == "silent" else "not a dask scheduler" in line)
    assert took < 2 + 10, took  # the stated timeout, and some slack for a loaded machine


def _dask(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as fh:
        return subprocess.Popen([sys.executable, "-m", *args], stdout=fh, stderr=subprocess.STDOUT,
                                env={**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"})


@pytest.fixture()
def scheduler(tmp_path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    proc = _dask("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
                 log=tmp_path / "scheduler.log")
    deadline = time.monotonic() + 60
    while True:  # until it answers as a scheduler
        try:
            S.check_scheduler(address, timeout=2)
            break
        except S.SchedulerError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("the dask scheduler did not start: " + (tmp_path / "scheduler.log").read_text()[-2000:])
            time.sleep(0.3)
    yield address, proc, tmp_path
    proc.kill()
    proc.wait()


def _workers(address: str, n: int, tmp: Path) -> list[subprocess.Popen[bytes]]:
    return [_dask("distributed.cli.dask_worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                  "--name", f"w{i}", log=tmp / f"worker{i}.log") for i in range(n)]


def _replay(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "replay", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout=30) as c:
        c.wait_for_workers(n, timeout=60)


def test_a_scheduler_lost_mid_run_is_one_line_and_exit_2(scheduler):
    address, proc, tmp = scheduler
    workers = _workers(address, 1, tmp)
    try:
        _wait_for_workers(address, 1)
        run = _replay(*STATS, "--deals", "2000", "--nodes", "200000", "--scheduler", address)
        assert run.stderr is not None
        seen = []
        for line in run.stderr:  # the progress lines: the run is under way once the first deals are done
            seen.append(line)
            if re.fullmatch(r"\S+: [1-9]\d*/2000 deals, .*\n", line):
                break
        else:
            pytest.fail("the run ended before any deal was done: " + "".join(seen)[-2000:])
        proc.kill()
        out, err = run.communicate(timeout=180)
    finally:
        for w in workers:
            w.kill()
    assert run.returncode == 2, out + "".join(seen) + err
    assert "the scheduler was lost during the run" in one_line(err), err


def test_a_worker_lost_mid_run_is_recomputed_with_the_same_results(scheduler, tmp_path):
    address, _, tmp = scheduler
    args = [*STATS, "--deals", "16", "--nodes", "100000"]
    plain = tmp_path / "one.json"
    assert runner.invoke(app, [*args, "-j", "1", "--out", str(plain)]).exit_code == 0
    workers = _workers(address, 2, tmp)
    try:
        _wait_for_workers(address, 2)
        spread = tmp_path / "dask.json"
        run = _replay(*args, "--scheduler", address, "--out", str(spread))
        time.sleep(1.5)
        workers[0].kill()  # one worker dies mid-run: its tasks go to the other
        out, err = run.communicate(timeout=300)
    finally:
        for w in workers:
            w.kill()
    assert run.returncode == 0, out + err
    a, b = json.loads(plain.read_text()), json.loads(spread.read_text())
    assert a["solver"]["results"] == b["solver"]["results"]
    assert a["solver"]["mean_nodes"] == b["solver"]["mean_nodes"]
