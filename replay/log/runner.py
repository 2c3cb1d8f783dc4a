"""Validate many logs: collect the files, spread them over the cores, keep the output in order."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from replay.log.models import MAX_BYTES
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
        path = Path(p)
        if path.is_dir():
            found = sorted(str(f) for f in path.rglob("*.json") if f.is_file())
            if not found:
                errors.append(_io_error(p, "no *.json files in this directory"))
            files.extend(found)
        elif path.exists():
            files.append(p)
        else:
            errors.append(_io_error(p, "no such file or directory"))
    return files, errors


def _io_error(name: str, message: str) -> Report:
    r = Report(file=name)
    r.add(Problem("io-error", message))
    return r


def read_stdin() -> bytes:
    return sys.stdin.buffer.read(MAX_BYTES + 1)


def _one(args: tuple[str, Options]) -> Report:
    path, opts = args
    return check_file(path, lenient=opts.lenient, until=opts.until)


def _warm() -> None:
    """Load the corpus and the game modules once, before the workers fork."""
    from replay.corpus.loader import default_corpus
    from replay.games.catalog import catalog

    default_corpus()
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
