"""The Play page's Python runtime: Pyodide from the npm registry, at a pinned version, checked against its hash.

``pyodide.json`` (beside this module) pins the npm package, its version, the SHA-512 of its tarball
(npm's ``integrity`` string, as the registry and a ``package-lock.json`` give it) and the files of it the
page loads.  :func:`runtime_files` returns those files: from the cache when they were fetched before
(each checked against the hashes recorded when they were unpacked), else fetched with npm's own client
(``npm pack``, which reads the registry npm is configured for), the tarball checked against the pinned
hash, unpacked and kept in the cache.  A build with a warm cache needs no network, and nothing else is
ever fetched: the page loads these files from the site itself.

The cache is ``pyodide/`` in the corpus's cache directory (:func:`replay.corpus.files.cache_dir`;
``REPLAY_CACHE_DIR`` moves it, empty for a temporary one per build).  ``REPLAY_PYODIDE_TARBALL`` names
a tarball already on disk (an offline build); it is checked against the same hash.

:func:`fetched` does the same for any package pinned so: the accessibility test's axe-core
(``axe-core.json``, :mod:`replay.site.axe`) is had the same way, kept in its own folder of the cache.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from replay import settings

PIN_FILE = Path(__file__).with_name("pyodide.json")


class Unavailable(Exception):
    """The runtime could not be had: one line saying why and what to do."""


@dataclass(frozen=True)
class Pin:
    package: str
    version: str
    integrity: str  #: ``sha512-`` and the base64 of the tarball's SHA-512
    license: str
    files: tuple[str, ...]

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


def pin(file: Path = PIN_FILE) -> Pin:
    """The pinned runtime (``pyodide.json``), or the package pinned by another such file."""
    d = json.loads(file.read_text(encoding="utf-8"))
    return Pin(d["package"], d["version"], d["integrity"], d["license"], tuple(d["files"]))


def integrity_of(data: bytes) -> str:
    """npm's integrity string of ``data`` (``sha512-`` and base64)."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


@lru_cache(maxsize=1)
def runtime_files() -> dict[str, bytes]:
    """The pinned runtime's files the page loads, by name (see the module); raises :class:`Unavailable`."""
    return fetched(PIN_FILE, "pyodide", "REPLAY_PYODIDE_TARBALL")


def fetched(pin_file: Path, cache: str, setting: str | None = None) -> dict[str, bytes]:
    """The files of the package that ``pin_file`` pins, by name: from the folder ``cache`` of the cache when
    they were kept there, else fetched with ``npm pack`` (or read from the tarball the setting ``setting``
    names), checked against the pinned hash and kept; raises :class:`Unavailable`."""
    p = pin(pin_file)
    where = _cache(cache) / f"{p.package}-{p.version}-{hashlib.sha256(p.integrity.encode()).hexdigest()[:12]}"
    files = _cached(where, p)
    if files is None:
        files = _unpacked(_tarball(p, setting, pin_file), p)
        _keep(where, files, p.integrity)
    return files


def _cache(name: str = "pyodide") -> Path:
    from replay.corpus.files import cache_dir

    base = cache_dir()
    if base is None:
        return Path(tempfile.mkdtemp(prefix=f"replay-{name}-"))
    return base / name


def _cached(where: Path, p: Pin) -> dict[str, bytes] | None:
    """The files kept in ``where``, each as its recorded hash says it was unpacked (else None: fetch again)."""
    try:
        record = json.loads((where / "sha256.json").read_text(encoding="utf-8"))
        if record.get("integrity") != p.integrity or sorted(record.get("files", {})) != sorted(p.files):
            return None
        files = {name: (where / name).read_bytes() for name in p.files}
    except (OSError, ValueError):
        return None
    if any(hashlib.sha256(data).hexdigest() != record["files"][name] for name, data in files.items()):
        return None
    return files


def _keep(where: Path, files: dict[str, bytes], integrity: str | None = None) -> None:
    """Keep the files in ``where`` with their hashes (written whole or not at all; a failure is not an error)."""
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=where.name + ".", dir=where.parent))
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        record = {"integrity": integrity or pin().integrity, "files": {n: hashlib.sha256(d).hexdigest() for n, d in files.items()}}
        (tmp / "sha256.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        if where.exists():
            shutil.rmtree(where, ignore_errors=True)
        os.replace(tmp, where)
    except OSError:
        pass


def _tarball(p: Pin, setting: str | None = "REPLAY_PYODIDE_TARBALL", pin_file: Path = PIN_FILE) -> bytes:
    """The package's tarball, checked against the pinned hash: from the file the setting ``setting`` names
    (``REPLAY_PYODIDE_TARBALL``), else ``npm pack``."""
    try:
        given = settings.get(setting) if setting else None
    except settings.SettingError as e:
        raise Unavailable(str(e)) from None
    if isinstance(given, Path):
        try:
            data = given.read_bytes()
        except OSError as e:
            raise Unavailable(f"{setting}={given}: cannot read: {e.strerror or e}") from None
        return _checked(data, p, str(given), pin_file)
    npm = shutil.which("npm")
    if npm is None:
        who = "the Play page" if pin_file == PIN_FILE else pin_file.name
        instead = f", or set {setting} to its tarball" if setting else ""
        raise Unavailable(f"{who} needs {p.spec} from the npm registry, and npm is not installed "
                            f"(install Node.js and npm{instead})")
    with tempfile.TemporaryDirectory(prefix="replay-npm-pack-") as tmp:
        env = {**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false",
               "npm_config_audit": "false", "npm_config_loglevel": "error"}
        try:
            done = subprocess.run([npm, "pack", p.spec, "--pack-destination", tmp, "--json", "--ignore-scripts"],
                                  cwd=tmp, capture_output=True, text=True, timeout=600, env=env)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise Unavailable(f"npm pack {p.spec} failed: {e}") from None
        if done.returncode != 0:
            why = " ".join((done.stderr or done.stdout).split())[-400:]
            raise Unavailable(f"npm pack {p.spec} failed (exit {done.returncode}): {why}")
        try:
            name = json.loads(done.stdout)[0]["filename"]
            data = (Path(tmp) / name).read_bytes()
        except (OSError, ValueError, KeyError, IndexError) as e:
            raise Unavailable(f"npm pack {p.spec}: no tarball where npm said ({e})") from None
    return _checked(data, p, f"npm pack {p.spec}", pin_file)


def _checked(data: bytes, p: Pin, where: str, pin_file: Path = PIN_FILE) -> bytes:
    got = integrity_of(data)
    if got != p.integrity:
        raise Unavailable(f"{where}: the tarball's hash is {got}, not the pinned {p.integrity} "
                            f"({pin_file.name}): refused")
    return data


def _unpacked(tarball: bytes, p: Pin) -> dict[str, bytes]:
    """The pinned files out of the tarball (npm's: every file under ``package/``); the lock file without its
    packages (the page loads none: nothing may be fetched from the package index)."""
    import io

    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in p.files:
            try:
                member = tar.getmember(f"package/{name}")
            except KeyError:
                raise Unavailable(f"{p.spec} has no {name}: the pin lists a file the package lacks") from None
            f = tar.extractfile(member)
            if f is None:
                raise Unavailable(f"{p.spec}: {name} is not a file")
            out[name] = f.read()
    if "pyodide-lock.json" in out:
        lock: dict[str, Any] = json.loads(out["pyodide-lock.json"])
        out["pyodide-lock.json"] = (json.dumps({"info": lock["info"], "packages": {}}, indent=2) + "\n").encode()
    return out


__all__ = ["Pin", "Unavailable", "fetched", "integrity_of", "pin", "runtime_files"]
