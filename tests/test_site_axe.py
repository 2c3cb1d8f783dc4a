"""axe-core on every kind of page of the built site, in the light and the dark colour scheme (issue 31).

Headless Chromium (Debian's ``chromium``, driven by Playwright, as in tests/test_browser.py) opens one page
of each kind on the site that ``tests/test_site.py`` builds, served on 127.0.0.1, with the browser asking
for the light or the dark scheme (``prefers-color-scheme``, which the site's palette follows), waits for
what the page says when it is ready (the viewer's move counter, the Play page's list of legal moves),
injects axe-core and runs it on the whole page.  No violation of impact ``serious`` or ``critical`` may be
found, nor one of the rules mended here whose impact is less (``landmark-unique``); the failure lists each
rule, its nodes and axe's summary of what is wrong.

axe-core is pinned from npm as the Play page's Pyodide is (``replay/site/axe-core.json``: version and
SHA-512 of the tarball, fetched with ``npm pack``, checked and kept in the cache: :mod:`replay.site.axe`);
it is injected into the pages by the test and never served by the site.  Every request is routed: one that
would leave 127.0.0.1 is refused.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.test_browser import ARGS, TIMEOUT, chromium, server  # noqa: F401 - the shared fixtures
from tests.test_site import built_site  # noqa: F401 - the session's build

pytestmark = pytest.mark.browser

LOAD = 240_000  # ms: the Play page's runtime on its first start on a busy machine

#: one page of each kind: (name, path in the site, a selector that appears when the page is ready)
PAGES = [
    ("home", "", None),
    ("text", "texts/003/", None),
    ("game", "games/exiles/", None),
    ("register", "ambiguities/", ".amb-count"),
    ("viewer", "examples/exiles/base/won-2/", ".replay-viewer .stepper output"),
    ("play", "play/exiles/", ".rp-legal li"),
    ("stats", "stats/", None),
]

#: Material's name of each scheme, as the page sets it on <body data-md-color-scheme>
SCHEMES = {"light": "default", "dark": "slate"}

#: the page kinds whose remaining violations come from markup and scripts another branch is mending
#: (the Play page and the viewer: replay/web, replay/view, replay/site/play.py), by their rule ids;
#: strict, so the mark must go once they pass
PENDING: dict[str, str] = {
    "play": "label-content-name-mismatch (the piles' accessible names, replay/web: branch h-play)",
}

SERIOUS = ("serious", "critical")
#: rules of a lesser impact that were mended on these pages and are held too
HELD = ("landmark-unique",)


def run_axe(page: Any, source: str) -> list[dict[str, Any]]:
    """axe's violations on the page as it stands (every rule axe runs by default, on the whole document)."""
    page.add_script_tag(content=source)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return list(result["violations"])


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations the test holds: the serious and critical ones, and the rules of :data:`HELD`."""
    return [v for v in violations if v.get("impact") in SERIOUS or v["id"] in HELD]


def report(violations: list[dict[str, Any]], nodes: int = 5) -> str:
    """One paragraph a rule: its id, impact and number of nodes, then the first nodes and what is wrong."""
    out = []
    for v in violations:
        out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}")
        for n in v["nodes"][:nodes]:
            summary = " ".join((n.get("failureSummary") or "").split())
            out.append(f"    {' > '.join(map(str, n['target']))}: {summary[:300]}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def axe_source() -> str:
    from replay.site.axe import axe_source as source
    from replay.site.runtime import Unavailable

    try:
        return source()
    except Unavailable as e:
        pytest.fail(f"axe-core: {e}")


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:  # noqa: F811
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Any, server: str, path: str, ready: str | None, scheme: str) -> Any:  # noqa: F811
    """A new page in the scheme ``scheme``, at ``path``, once it is ready; requests off the host are refused."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    context.set_default_timeout(TIMEOUT)
    origin = server.rstrip("/")
    left: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(origin + "/") or url.startswith(("blob:", "data:")):
            r.continue_()
        else:
            left.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors, page.left = errors, left  # type: ignore[attr-defined]
    page.goto(server + path)
    page.wait_for_load_state("load")
    if ready:
        page.locator(ready).first.wait_for(timeout=LOAD)
    return page


def _cases() -> list[Any]:
    cases = []
    for name, path, ready in PAGES:
        for scheme in SCHEMES:
            marks = [pytest.mark.xfail(strict=True, reason=PENDING[name])] if name in PENDING else []
            cases.append(pytest.param(path, ready, scheme, id=f"{name}-{scheme}", marks=marks))
    return cases


@pytest.mark.parametrize(("path", "ready", "scheme"), _cases())
def test_no_serious_axe_violation(browser: Any, server: str, axe_source: str,  # noqa: F811
                                  path: str, ready: str | None, scheme: str) -> None:
    page = open_page(browser, server, path, ready, scheme)
    try:
        assert page.evaluate("() => document.body.dataset.mdColorScheme") == SCHEMES[scheme]
        found = serious(run_axe(page, axe_source))
        assert not found, f"{path or 'home'} ({scheme}): serious or critical axe violations\n" + report(found)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        assert not page.left, page.left  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_axe_core_is_the_pinned_package() -> None:
    """The script the test injects is the pinned version's (its banner), had through the checked tarball."""
    from replay.site.axe import axe_source, pin

    p = pin()
    assert p.package == "axe-core" and p.integrity.startswith("sha512-")
    assert axe_source().startswith(f"/*! axe v{p.version}")
