"""Writing files safely: every command that writes a file goes through :func:`write_text`.

Two promises (docs/log-format.md, "Files the commands write"):

* **No file is lost.**  The new content goes to a temporary file in the target's own directory,
  is flushed to the disk (``fsync``), and is then renamed over the target (``os.replace``,
  atomic on POSIX).  A writer killed at any moment leaves either the old file, whole, or the
  new one, whole; at worst a stray ``.NAME.*.tmp`` beside it, never a truncated target.
* **No file is overwritten by surprise.**  :func:`check_target` refuses a target that is an input
  of the same command, a directory, or in a directory that does not exist; and an existing file
  unless the user said ``--force`` or the command's purpose is to update that very file
  (``coverage --update``, ``corpus lock``).  Commands call it *before* their work (a search, a
  table run), so that a bad output path costs nothing.  A link is judged by the path it resolves to
  (a link to nowhere needs its target's directory, as a plain path does).  An existing character
  device or FIFO (``-o /dev/null``, a named pipe) is written *into*, as curl and tar do; no file
  replaces one.

A refusal is a :class:`WriteRefused` whose message names the file (and the flag, when one would
help); the commands print it as one line and exit 2.

A writer that must not replace what another process wrote in the meantime (``replay play``, which
checks that its log has not changed since it last read or wrote it) holds :func:`locked` from the
check to the rename: two such writers of one file take turns, so the second one sees the first one's
file, never the old one.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator


class WriteRefused(Exception):
    """A file the command will not write, and why (one line naming the file)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _special(path: Path) -> str | None:
    """What ``path`` is when it exists and is neither a regular file nor a directory (a link is
    followed): a device, a FIFO or a socket would be replaced by a regular file by the atomic rename,
    so no writer renames over one, ``--force`` or not (a writer may write *into* a stream, :func:`_stream`)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISCHR(mode):
        return "a device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _stream(path: Path) -> bool:
    """Whether ``path`` (a link followed) is an existing character device or FIFO: a file a command writes
    *into* (``-o /dev/null``, ``-o /dev/stdout``, a named pipe), as curl and tar do, replacing nothing.  A
    block device (a disk) and a socket are not: no log is written into those."""
    return _special(path) in ("a device", "a FIFO")


def check_target(path: str | os.PathLike[str], *, inputs: Iterable[str | os.PathLike[str]] = (),
                 force: bool = False, update: bool = False, flag: str = "--force",
                 make_parents: bool = False, streams: bool = True) -> Path:
    """Raise :class:`WriteRefused` unless ``path`` may be written; returns it as a :class:`Path`.

    ``inputs`` are the files the command reads (never overwritten, even with ``force``);
    ``update`` says that replacing ``path`` is the command's purpose; ``flag`` is the option
    that allows overwriting; ``make_parents`` lets a command create the directory of a path
    it owns (its default output), where a path the user typed must name an existing directory.
    ``streams`` lets the command write into an existing character device or FIFO (:func:`_stream`; no
    ``--force`` needed: nothing is replaced); a command that reads its file back (``replay play``) says
    False.  The rules apply to the path a link resolves to: a link to nowhere is a new file in the link's
    target directory, which must exist as a plain path's must.
    """
    target = Path(path)
    for i in inputs:
        if _same(target, Path(i)):
            raise WriteRefused(f"refusing to overwrite {target}: it is an input of this command")
    if target.is_dir():
        raise WriteRefused(f"cannot write {target}: it is a directory")
    kind = _special(target)
    if kind and streams and _stream(target):
        if not os.access(target, os.W_OK):
            raise WriteRefused(f"cannot write {target}: it is {kind} this user may not write to")
        return target
    if kind:
        raise WriteRefused(f"cannot write {target}: it is {kind}, not a regular file")
    real = Path(os.path.realpath(target))
    parent = real.parent if target.is_symlink() else target.parent
    where = f"the directory {parent}" + (" (where the link points)" if target.is_symlink() else "")
    if not parent.is_dir():
        if not make_parents:
            what = "is not a directory" if parent.exists() else "does not exist"
            raise WriteRefused(f"cannot write {target}: {where} {what}")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise WriteRefused(f"cannot write {target}: {where} is not writable")
    if (target.exists() or target.is_symlink()) and not (force or update):
        raise WriteRefused(f"{target} exists; give {flag} to overwrite it")
    return target


def probe_write(path: str | os.PathLike[str]) -> None:
    """Raise :class:`WriteRefused` unless :func:`atomic_write` could replace ``path`` now: a temporary file
    can be made beside it (and is removed at once), and an existing file is not read-only.  For a command
    that writes its file later (``replay play``, after the first move), so that it says so before any work."""
    target = Path(os.path.realpath(path))
    if target.exists() and not os.access(target, os.W_OK):
        raise WriteRefused(f"cannot write {path}: it is read-only")
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise WriteRefused(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(tmp)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temporary file, fsync, rename); raises OSError.

    A symbolic link is followed: the file it points to is replaced, the link stays.  The new
    file keeps the old one's permission bits (a new file gets the usual ``0666 & ~umask``).
    An existing character device or FIFO (``/dev/null``, a named pipe) is written into, not replaced.
    """
    target = Path(os.path.realpath(path))
    if _stream(target):  # a device or a FIFO is written into, never replaced (check_target allows it)
        _write_into(target, data)
        return
    kind = _special(target)
    if kind:  # the rename would put a regular file in place of a block device or a socket
        raise OSError(f"{target} is {kind}, not a regular file")
    tmp = _stage(target, data)
    try:
        os.replace(tmp, target)
    except BaseException:
        _discard(tmp)
        raise
    _fsync_dir(target.parent)  # make the rename itself durable


def _write_into(target: Path, data: bytes) -> None:
    """Write ``data`` into an existing device or FIFO (a FIFO waits for its reader); raises OSError."""
    fd = os.open(target, os.O_WRONLY)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _stage(target: Path, data: bytes) -> str:
    """``data`` in a temporary file beside ``target`` (flushed to the disk, with the mode ``target`` has or a
    new file would get); its path.  Raises OSError, leaving no temporary file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        _discard(tmp)
        raise
    return tmp


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_text(path: str | os.PathLike[str], text: str, *, inputs: Iterable[str | os.PathLike[str]] = (),
               force: bool = False, update: bool = False, flag: str = "--force", make_parents: bool = False) -> Path:
    """Check ``path`` (:func:`check_target`) and write ``text`` to it as UTF-8, atomically.

    Raises :class:`WriteRefused` for a refused target, and for an I/O error (as one line
    naming the file).
    """
    target = check_target(path, inputs=inputs, force=force, update=update, flag=flag, make_parents=make_parents)
    try:
        atomic_write(target, text.encode("utf-8"))
    except OSError as e:
        raise WriteRefused(f"cannot write {target}: {e.strerror or e}") from None
    return target


def write_texts(files: Iterable[tuple[str | os.PathLike[str], str]], *, update: bool = False,
                force: bool = False, make_parents: bool = False) -> list[Path]:
    """Write several files that belong together (a snapshot and its index): every target is checked
    first, every new content is written to its temporary file and flushed to the disk, and only then
    are the files renamed over their targets, one after the other.  A writer killed while writing leaves
    every old file whole; only a kill between two renames (a few microseconds) could leave them out of
    step.  Raises :class:`WriteRefused` as :func:`write_text` does."""
    items = [(check_target(p, update=update, force=force, make_parents=make_parents, streams=False), t)
             for p, t in files]
    staged: list[tuple[str, Path]] = []
    try:
        for target, text in items:
            real = Path(os.path.realpath(target))
            kind = _special(real)
            if kind:
                raise WriteRefused(f"cannot write {target}: it is {kind}, not a regular file")
            staged.append((_stage(real, text.encode("utf-8")), real))
        for tmp, real in staged:
            os.replace(tmp, real)
    except OSError as e:
        raise WriteRefused(f"cannot write {getattr(e, 'filename', None) or items[0][0]}: {e.strerror or e}") from None
    finally:
        for tmp, _ in staged:
            if os.path.exists(tmp):
                _discard(tmp)
    for parent in dict.fromkeys(real.parent for _, real in staged):
        _fsync_dir(parent)
    return [t for t, _ in items]


@contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive lock for writing ``path`` while the block runs (waiting for another holder to end).

    The lock is on the directory that holds the file (a link followed), not on the file: the atomic rename
    puts a new file in the old one's place, and a lock on the old one would not hold the next writer back.
    Every writer that checks and then renames under it takes its turn (``flock``, released when the block
    ends or the process dies); a writer that takes no lock (an editor) is not held back.  Raises OSError
    when the directory cannot be opened."""
    import fcntl

    fd = os.open(os.path.dirname(os.path.realpath(path)) or ".", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    try:
        dfd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


__all__ = ["WriteRefused", "atomic_write", "check_target", "locked", "probe_write", "write_text", "write_texts"]
