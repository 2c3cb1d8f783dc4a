"""The Play pages in the built site, and the runtime they load: pinned, checked, kept.

* every game has its page, listed in the navigation, the home page, Start here and the README point to
  them, and each carries the footer's version;
* each page names files that the site holds, and states the bytes they are;
* only the Play pages load the runtime or the page's script;
* every selectable reading of every ruling, on the game pages and in the register, links to its
  game's Play page with that reading (and the variant it needs) preselected;
* the runtime is Pyodide at the pinned version: a tarball whose hash is not the pinned one is refused,
  and a kept file that changed is not used.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from replay.corpus.loader import default_corpus
from replay.site import runtime
from replay.site.play import bundle
from tests.test_site import built_site  # noqa: F401 - the session's build

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["printex-frame", "zwarta-kolumna", "exiles", "napoleons-square"]


def widget(site: Path, gid: str) -> dict[str, str]:
    html = (site / "play" / gid / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<div class="replay-play" ([^>]*)>', html)
    assert m, gid
    return {k: unescape(v) for k, v in re.findall(r'data-([a-z]+)="([^"]*)"', m.group(1))}


def test_every_game_has_a_play_page_that_names_what_it_loads(built_site: Path) -> None:  # noqa: F811
    p = runtime.pin()
    for gid in GAMES:
        w = widget(built_site, gid)
        here = built_site / "play" / gid
        runtime_dir = (here / w["runtime"]).resolve()
        files = [runtime_dir / name for name in p.files]
        own = [(here / w[k]).resolve() for k in ("bundle", "edition")]
        html = (here / "index.html").read_text(encoding="utf-8")
        scripts = [(here / s).resolve() for s in re.findall(r'<script type="module" src="([^"]+)"', html)]
        styles = [(here / s).resolve() for s in re.findall(r'<link rel="stylesheet" href="(\.\./\.\./assets/play/[^"]+)"',
                                                            html)]
        assert len(scripts) == 1 and len(styles) == 1
        stated = sum(f.stat().st_size for f in files + own + scripts + styles)
        assert int(w["bytes"]) == stated and w["version"] == p.version and w["game"] == gid
        assert f"replay play {gid} -s SEED -o FILE" in html
        assert (own[0]).read_bytes() == bundle()
        assert json.loads(own[1].read_bytes())["format"] == "replay-edition/1"
    index = (built_site / "play" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{gid}/"' in index for gid in GAMES)


def test_only_the_play_pages_load_the_runtime(built_site: Path) -> None:  # noqa: F811
    for html_file in built_site.rglob("*.html"):
        rel = html_file.relative_to(built_site).as_posix()
        text = html_file.read_text(encoding="utf-8")
        loads = bool(re.search(r'<script[^>]+assets/play/play-', text))
        assert loads == (rel.startswith("play/") and rel != "play/index.html"), rel
        assert "pyodide.mjs" not in text or loads or "/reference/" in f"/{rel}" or "/source/" in f"/{rel}", rel


def test_every_ruling_reading_links_to_its_play_page(built_site: Path) -> None:  # noqa: F811
    corpus = default_corpus()
    want = {(a.ruling, r.id) for a in corpus.ambiguities.values() if a.ruling for r in a.readings if r.selectable}
    for where in ["ambiguities/index.html", *(f"games/{g}/index.html" for g in GAMES)]:
        html = (built_site / where).read_text(encoding="utf-8")
        found = set()
        for href in re.findall(r'href="([^"]*play/[a-z-]+/\?[^"]*)"', html):
            q = parse_qs(urlsplit(unescape(href)).query)
            name, _, reading = q["ruling"][0].partition("=")
            amb = next(a for a in corpus.ambiguities.values() if a.ruling == name)
            assert q.get("variant", []) == amb.variants[:1], href
            found.add((name, reading))
        games = {g for g in GAMES if where.startswith(f"games/{g}/")}
        expected = {x for x in want if not games or any(
            corpus.clauses[c].game in games for a in corpus.ambiguities.values() if a.ruling == x[0] for c in a.clauses)}
        assert found == expected, where
        assert html.count("play under this reading") >= len(expected), where


def test_the_readme_the_home_page_and_start_here_point_to_the_play_pages(built_site: Path) -> None:  # noqa: F811
    assert "play/" in (ROOT / "README.md").read_text(encoding="utf-8")
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'href="play/"' in home
    start = (built_site / "start" / "index.html").read_text(encoding="utf-8")
    assert 'href="../play/"' in start and "being built" not in start  # main's placeholder, now the page


def test_every_play_page_carries_the_footer_version(built_site: Path) -> None:  # noqa: F811
    for page in ["play/index.html", *(f"play/{g}/index.html" for g in GAMES)]:
        html = (built_site / page).read_text(encoding="utf-8")
        m = re.search(r'<div class="md-copyright__highlight">\s*(.*?)\s*</div>', html, re.S)
        assert m and re.search(r"replay version \d+\.\d+\.\d+ \(\d{4}-\d\d-\d\d", m.group(1)), page


# --------------------------------------------------------------------------- the runtime


def fake_tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_a_tarball_is_taken_only_with_the_pinned_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lock = json.dumps({"info": {"version": "0"}, "packages": {"numpy": {"file_name": "numpy.whl"}}}).encode()
    files = {"pyodide.mjs": b"m", "pyodide.asm.js": b"a", "pyodide.asm.wasm": b"\0asm", "python_stdlib.zip": b"z",
             "pyodide-lock.json": lock}
    tarball = fake_tarball(files)
    pin = runtime.Pin("pyodide", "0.0.0", runtime.integrity_of(tarball), "MPL-2.0", tuple(files))
    path = tmp_path / "p.tgz"
    path.write_bytes(tarball)
    monkeypatch.setenv("REPLAY_PYODIDE_TARBALL", str(path))
    unpacked = runtime._unpacked(runtime._tarball(pin), pin)
    assert json.loads(unpacked["pyodide-lock.json"]) == {"info": {"version": "0"}, "packages": {}}  # loads none
    assert unpacked["pyodide.asm.wasm"] == b"\0asm"
    path.write_bytes(tarball[:-1] + bytes([tarball[-1] ^ 1]))
    with pytest.raises(runtime.Unavailable, match="not the pinned"):
        runtime._tarball(pin)
    with pytest.raises(runtime.Unavailable, match="lacks"):
        runtime._unpacked(tarball, runtime.Pin("pyodide", "0.0.0", pin.integrity, "MPL-2.0", ("missing.js",)))


def test_a_kept_file_that_changed_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"pyodide.mjs": b"m", "pyodide.asm.wasm": b"\0asm"}
    pin = runtime.Pin("pyodide", "0.0.0", runtime.pin().integrity, "MPL-2.0", tuple(files))
    monkeypatch.setattr(runtime, "pin", lambda: pin)
    where = tmp_path / "kept"
    runtime._keep(where, files)
    assert runtime._cached(where, pin) == files
    record = json.loads((where / "sha256.json").read_text())
    assert record["files"]["pyodide.mjs"] == hashlib.sha256(b"m").hexdigest()
    (where / "pyodide.asm.wasm").write_bytes(b"\0asn")
    assert runtime._cached(where, pin) is None


def test_a_runtime_the_build_cannot_have_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """npm missing, or a tarball not the pinned one: the site build stops with the reason in one line."""
    from mkdocs.exceptions import PluginError

    from replay.site import build, hooks

    def no_runtime(d: object) -> None:
        raise runtime.Unavailable("the Play page needs pyodide@0 from the npm registry, and npm is not installed")

    monkeypatch.setattr(build, "generate", no_runtime)
    with pytest.raises(PluginError, match=r"^replay site: the Play page needs pyodide@0 .* npm is not installed$"):
        hooks.on_files(None, {"config_file_path": str(ROOT / "mkdocs.yml"), "site_url": None})  # type: ignore[arg-type]
