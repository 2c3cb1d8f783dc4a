"""Validate many logs: collect the files, spread them over the cores, keep the output in order."""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass
from typing import Callable, Iterator

from replay.log.format import MAX_BYTES
from replay.log.names import shown
from replay.log.report import Problem, Report
from replay.log.validate import check_bytes, check_file

STDIN = "-"
#: below this many files one process is faster than starting workers
PARALLEL_FROM = 8


@dataclass(frozen=True)
class Options:
    lenient: bool = False
    until: int | None = None


def collect(paths: list[str]) -> tuple[list[str], list[Report]]:
    """The files to check (directories give every ``*.json`` below them, sorted) and the paths that fail.

    ``-`` stands for standard input and may be given once.
    """
    files: list[str] = []
    errors: list[Report] = []
    for p in paths:
        if p == STDIN:
            files.append(STDIN)
            continue
        try:
            st = os.stat(p)
        except OSError as e:
            broken = e.errno == errno.ENOENT and os.path.islink(p)
            errors.append(_io_error(p, "a symbolic link to nothing (" + os.readlink(p) + ")" if broken
                                    else _reason(e)))
            continue
        if stat.S_ISDIR(st.st_mode):
            found, unreadable = _walk(p)
            errors.extend(unreadable)
            if not found and not unreadable:
                errors.append(_io_error(p, "no *.json files in this directory"))
            files.extend(found)
        else:
            files.append(p)
    return files, errors


def _reason(e: OSError) -> str:
    """``no such file or directory``, ``too many levels of symbolic links``, ``permission denied`` …"""
    text = e.strerror or str(e)
    return text[:1].lower() + text[1:]


def _walk(top: str) -> tuple[list[str], list[Report]]:
    """Every ``*.json`` file below ``top`` (sorted), and a report for each place that cannot be read:
    a directory that cannot be listed, a ``*.json`` name that leads nowhere (a symlink loop …)."""
    found: list[str] = []
    bad: list[Report] = []

    def unreadable(e: OSError) -> None:
        bad.append(_io_error(e.filename or top, f"cannot read this directory: {_reason(e)}"))

    for root, _dirs, names in os.walk(top, onerror=unreadable):
        for n in names:
            if not n.endswith(".json"):
                continue
            f = os.path.join(root, n)
            try:
                if stat.S_ISREG(os.stat(f).st_mode):
                    found.append(f)
            except OSError as e:
                bad.append(_io_error(f, _reason(e)))
    found.sort()
    bad.sort(key=lambda r: r.file)
    return found, bad


def _io_error(name: str, message: str) -> Report:
    r = Report(file=shown(name))
    r.add(Problem("io-error", message))
    return r


def read_stdin() -> bytes:
    return sys.stdin.buffer.read(MAX_BYTES + 1)


def _one(args: tuple[str, Options]) -> Report:
    path, opts = args
    return check_file(path, lenient=opts.lenient, until=opts.until)


def _warm() -> None:
    """Load the edition and the game modules once, before the workers fork."""
    from replay.corpus.edition import default_edition
    from replay.games.catalog import catalog

    default_edition()
    catalog()


def run(files: list[str], opts: Options, jobs: int | None = None,
        on_done: Callable[[Report], None] | None = None) -> Iterator[Report]:
    """Reports in the order of ``files``; several processes when there are many files."""
    jobs = jobs or os.cpu_count() or 1
    disk = [f for f in files if f != STDIN]
    if STDIN in files:
        stdin_report = check_bytes(read_stdin(), "<stdin>", lenient=opts.lenient, until=opts.until)
    if jobs > 1 and len(disk) >= PARALLEL_FROM:
        from concurrent.futures import ProcessPoolExecutor  # here: one log need not load multiprocessing

        _warm()
        chunk = max(1, min(64, len(disk) // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=min(jobs, len(disk))) as pool:
            results = pool.map(_one, ((f, opts) for f in disk), chunksize=chunk)
            yield from _merge(files, results, stdin_report if STDIN in files else None, on_done)
    else:
        results = (_one((f, opts)) for f in disk)
        yield from _merge(files, results, stdin_report if STDIN in files else None, on_done)


def _merge(files: list[str], results: Iterator[Report], stdin_report: Report | None,
           on_done: Callable[[Report], None] | None) -> Iterator[Report]:
    for f in files:
        r = stdin_report if f == STDIN else next(results)
        assert r is not None
        if on_done:
            on_done(r)
        yield r
