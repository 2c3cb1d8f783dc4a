#!/usr/bin/env python3
"""What does a game's Play page load, and how long from opening it to the first list of legal moves?

    .venv/bin/python benchmarks/bench_play_page.py                     # builds the site, 3 cold and 3 warm runs
    .venv/bin/python benchmarks/bench_play_page.py --site site --game exiles --runs 5

It serves a built site (``--site``; by default it builds one with ``mkdocs build`` into a temporary
folder) on 127.0.0.1 and opens the game's Play page in headless Chromium (Debian's ``/usr/bin/chromium``,
driven by Playwright, with the flags of the browser tests).  A *cold* run is a fresh browser profile
(nothing cached); a *warm* run opens the page again in the same profile.  For each it prints:

* the bytes the page loaded, from the responses (the runtime, the archive's own code and texts, the
  rest of the page and the theme), beside what the page says it loads;
* the time from opening the page to the first list of legal moves (wall clock in this process, and the
  page's own ``performance.now()`` at that moment), and the page's marks on the way: the runtime started,
  the archive's Python imported with its edition, the first deal drawn;
* beside it, in the same Chromium run and in profiles of their own, the **bare runtime**: a page with
  nothing but the site's Pyodide (``loadPyodide`` and one line of Python), cold and warm; and the ratios
  Play page / bare runtime and the bytes the Play page loads beyond the runtime's own (issue 33's goals:
  at most 1.5 and 1 MB).

Nothing here is a test: it prints figures, which depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("REPLAY_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


#: the bare runtime's page: the site's Pyodide started and one line of Python run, nothing else
BARE = """<!doctype html><html><head><meta charset="utf-8"><title>bare runtime</title></head><body>
<script type="module">
import {{ loadPyodide }} from "/{js}";
const py = await loadPyodide({{ indexURL: "/{folder}/" }});
py.runPython("1 + 1");
const p = document.createElement("p"); p.id = "ready"; document.body.append(p);
</script></body></html>"""
BARE_PATH = "/__bare_runtime__.html"


class _Quiet(SimpleHTTPRequestHandler):
    bare = b""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802 - the bare page served from memory, the site left as it is
        if self.path == BARE_PATH:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(self.bare)))
            self.end_headers()
            self.wfile.write(self.bare)
            return
        super().do_GET()


def build(out: Path) -> None:
    started = time.perf_counter()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(out)], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"mkdocs build failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    print(f"site built in {time.perf_counter() - started:.1f} s: {out}")


def kind(url: str) -> str:
    if "/assets/pyodide/" in url:
        return "runtime"
    if "/assets/play/" in url:
        return "archive"
    return "page and theme"


def bare_run(context: Any, url: str) -> dict[str, Any]:
    """The bare runtime's page opened in ``context``: wall clock to its one line run, and its bytes."""
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("requestfinished", lambda r: sizes.__setitem__("all", sizes.get("all", 0) + r.sizes()["responseBodySize"]))
    started = time.perf_counter()
    page.goto(url)
    page.locator("#ready").wait_for(state="attached", timeout=600_000)
    wall = time.perf_counter() - started
    page.close()
    return {"wall": wall, "bytes": sizes.get("all", 0)}


def one_run(context: Any, url: str) -> dict[str, Any]:
    page = context.new_page()
    sizes: dict[str, int] = {}
    outside: list[str] = []

    def finished(request: Any) -> None:
        if not request.url.startswith("http://127.0.0.1"):
            if not request.url.startswith(("blob:", "data:")):
                outside.append(request.url)
            return
        body = request.sizes()["responseBodySize"]
        sizes[kind(request.url)] = sizes.get(kind(request.url), 0) + body

    page.on("requestfinished", finished)
    started = time.perf_counter()
    page.goto(url)
    page.locator(".rp-legal li").first.wait_for(timeout=600_000)
    wall = time.perf_counter() - started
    inside = page.evaluate("performance.now()") / 1000
    marks = {m["name"].split(":")[1]: m["startTime"] / 1000 for m in
             page.evaluate("performance.getEntriesByType('mark').map(m => ({name: m.name, startTime: m.startTime}))")
             if m["name"].startswith("replay-play:")}
    stated = int(page.locator(".replay-play").get_attribute("data-bytes") or 0)
    page.close()
    return {"wall": wall, "page": inside, "marks": marks, "sizes": sizes, "stated": stated, "outside": outside}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    ap.add_argument("--game", default="zwarta-kolumna")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="replay-bench-play-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        js = sorted(site.glob("assets/pyodide/*/pyodide.mjs"))
        if not js:
            sys.exit(f"{site}: no assets/pyodide/*/pyodide.mjs (a site built without its Play pages' runtime)")
        rel = js[-1].relative_to(site).as_posix()
        _Quiet.bare = BARE.format(js=rel, folder=rel.rsplit("/", 1)[0]).encode()
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/play/{args.game}/?seed=7"
        bare_url = f"http://127.0.0.1:{httpd.server_address[1]}{BARE_PATH}"
        cold: list[dict[str, Any]] = []
        warm: list[dict[str, Any]] = []
        bare_cold: list[dict[str, Any]] = []
        bare_warm: list[dict[str, Any]] = []
        try:
            with sync_playwright() as p:
                for k in range(args.runs):
                    bare = p.chromium.launch_persistent_context(str(Path(tmp) / f"bare-{k}"), executable_path=CHROMIUM,
                                                                headless=True, args=ARGS,
                                                                viewport={"width": 1400, "height": 1000})
                    bare_cold.append(bare_run(bare, bare_url))
                    bare_warm.append(bare_run(bare, bare_url))
                    bare.close()
                    profile = Path(tmp) / f"profile-{k}"
                    context = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM,
                                                                   headless=True, args=ARGS,
                                                                   viewport={"width": 1400, "height": 1000})
                    cold.append(one_run(context, url))
                    warm.append(one_run(context, url))
                    context.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    print(f"the Play page of {args.game}, {args.runs} run{'s' if args.runs != 1 else ''} each, on "
          f"{os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f}):")
    for name, runs in (("cold (nothing cached)", cold), ("warm (opened again)", warm)):
        r = runs[0]
        total = sum(r["sizes"].values())
        parts = ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in sorted(r["sizes"].items()))
        walls = [x["wall"] for x in runs]
        insides = [x["page"] for x in runs]
        print(f"  {name}: loaded {total / 1e6:.2f} MB ({parts}); the page states {r['stated'] / 1e6:.2f} MB")
        print(f"    to the first legal-move list: median {statistics.median(walls):.2f} s wall "
              f"(best {min(walls):.2f}, worst {max(walls):.2f}); the page's own clock {statistics.median(insides):.2f} s")
        phases = {k: statistics.median(x["marks"].get(k, 0) for x in runs) for k in ("runtime", "engine", "first-list")}
        print(f"    of which (the page's clock, medians): the runtime started at {phases['runtime']:.2f} s, the archive's "
              f"Python imported and its edition installed at {phases['engine']:.2f} s, the first deal drawn at "
              f"{phases['first-list']:.2f} s")
        base = bare_cold if runs is cold else bare_warm
        b = statistics.median(x["wall"] for x in base)
        beyond = total - r["sizes"].get("runtime", 0)
        print(f"    the bare runtime (loadPyodide and one line), the same profile state: median {b:.2f} s, "
              f"{base[0]['bytes'] / 1e6:.2f} MB; the Play page / bare runtime: "
              f"{statistics.median(walls) / b:.2f} (goal at most 1.5); beyond the runtime's own bytes: "
              f"{beyond / 1e6:.2f} MB (goal at most 1 MB)")
        if any(x["outside"] for x in runs):
            print(f"    REQUESTS LEFT 127.0.0.1: {sorted({u for x in runs for u in x['outside']})}")


if __name__ == "__main__":
    main()
