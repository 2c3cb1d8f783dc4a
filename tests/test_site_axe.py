"""axe-core on every kind of page of the built site, in the light and the dark colour scheme (issue 31).

Headless Chromium (Debian's ``chromium``, driven by Playwright, as in tests/test_browser.py) opens one page
of each kind on the site that ``tests/test_site.py`` builds, served on 127.0.0.1, at 1400 px with the
browser asking for the light or the dark scheme (``prefers-color-scheme``, which the site's palette
follows), and at 390 px (a phone: touch, a mobile viewport; light, since the colours are the desktop's but
what fits and scrolls is not), waits for what the page says when it is ready (the site's script marks
``<html data-replay="ready">``; the viewer shows its move counter, the Play page its list of legal moves),
injects axe-core and runs it on the whole page (every rule; in the dark scheme the rules of colour,
:data:`COLOUR_RULES`, the only ones a scheme can change).  No violation of impact ``serious`` or ``critical`` may be
found, nor one of the rules mended here whose impact is less (``landmark-unique``); the failure lists each
rule, its nodes and axe's summary of what is wrong.  The links of running text must be underlined (axe takes
any difference of style for one, even a thickness set on no underline: the test looks for the line).

axe-core is pinned from npm as the Play page's Pyodide is (``replay/site/axe-core.json``: version and
SHA-512 of the tarball, fetched with ``npm pack``, checked and kept in the cache: :mod:`replay.site.axe`);
it is injected into the pages by the test and never served by the site.  Every request is routed: one that
would leave 127.0.0.1 is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_browser import TIMEOUT, browser, chromium, server  # noqa: F401 - the shared fixtures
from tests.test_site import built_site  # noqa: F401 - the session's build

pytestmark = pytest.mark.browser

LOAD = 240_000  # ms: the Play page's runtime on its first start on a busy machine

#: one page of each kind: (name, path in the site, a selector that appears when the page is ready); the
#: seven of issue 31, a highlighted source file and the theme's 404 page
PAGES = [
    ("home", "", None),
    ("text", "texts/003/", None),
    ("game", "games/exiles/", None),
    ("register", "ambiguities/", ".amb-count"),
    ("viewer", "examples/exiles/base/won-2/", ".replay-viewer .stepper output"),
    ("play", "play/exiles/", ".rp-legal li"),
    ("stats", "stats/", None),
    ("source", "source/replay/games/exiles.py/", None),
    ("404", "404.html", None),
]

#: Material's name of each scheme, as the page sets it on <body data-md-color-scheme>
SCHEMES = {"light": "default", "dark": "slate"}

#: (case, scheme, viewport width): each page in both schemes on a desktop, and on a phone
VIEWS = [("light", "light", 1400), ("dark", "dark", 1400), ("phone", "light", 390)]

#: the cases ("<page>-<case>") whose remaining violations are known and being mended elsewhere: the rule ids
#: and where they come from.  Such a case is an expected failure only when every violation found is of these
#: rules (any other fails it), and strict: once they pass, the mark must go.  None today (the Play page's
#: piles and the viewer on a phone were the last, mended with the Play page's hint).
PENDING: dict[str, tuple[tuple[str, ...], str]] = {}


class Pending(AssertionError):
    """Only violations of a case's pending rules (:data:`PENDING`) were found."""

#: the links of running text (paragraphs, list items, table cells …) shown without an underline
NOT_UNDERLINED = """() => [...document.querySelectorAll(
    ".md-content :is(p, li, dd, td, th, figcaption, blockquote) a[href]:not(.headerlink):not(.md-button)")]
  .filter(a => a.getClientRects().length && !getComputedStyle(a).textDecorationLine.includes("underline"))
  .map(a => a.outerHTML.slice(0, 120))"""

SERIOUS = ("serious", "critical")
#: rules of a lesser impact that were mended on these pages and are held too
HELD = ("landmark-unique",)


#: the rules whose verdict can differ between the two schemes of one page: the schemes differ only in the
#: palette's colours (Material's ``data-md-color-scheme`` swaps CSS custom properties; the document, its
#: landmarks, names and layout are the same), so the dark case runs these and the light case of the same
#: page, at the same width, runs every rule
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def run_axe(page: Any, source: str, only: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """axe's violations on the page as it stands, on the whole document: every rule axe runs by default, or
    the rules ``only``."""
    page.add_script_tag(content=source)
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": list(only)}
    result = page.evaluate("options => axe.run(document, options)", options)
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


def open_page(browser: Any, server: str, path: str, ready: str | None, scheme: str,  # noqa: F811
              width: int = 1400) -> Any:
    """A new page in the scheme ``scheme`` and a window ``width`` px wide, at ``path``, once it is ready;
    requests off the host are refused."""
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 1000}, is_mobile=phone,
                                  has_touch=phone, color_scheme=scheme)
    context.set_default_timeout(TIMEOUT)
    origin = server.rstrip("/")
    left: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith((origin + "/", "blob:", "data:")):
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
    page.locator("html[data-replay=ready]").wait_for(state="attached")  # the site's script has run
    if ready:
        page.locator(ready).first.wait_for(timeout=LOAD)
    return page


def _cases() -> list[Any]:
    cases = []
    for name, path, ready in PAGES:
        for case, scheme, width in VIEWS:
            key = f"{name}-{case}"
            marks = []
            if key in PENDING:
                rules, why = PENDING[key]
                marks.append(pytest.mark.xfail(strict=True, raises=Pending, reason=f"{', '.join(rules)} ({why})"))
            cases.append(pytest.param(path, ready, scheme, width, id=key, marks=marks))
    return cases


@pytest.mark.parametrize(("path", "ready", "scheme", "width"), _cases())
def test_no_serious_axe_violation(request: pytest.FixtureRequest, browser: Any, server: str,  # noqa: F811
                                  axe_source: str, path: str, ready: str | None, scheme: str, width: int) -> None:
    pending = PENDING.get(request.node.callspec.id, ((), ""))[0]
    page = open_page(browser, server, path, ready, scheme, width)
    try:
        assert page.evaluate("() => document.body.dataset.mdColorScheme") == SCHEMES[scheme]
        found = serious(run_axe(page, axe_source, COLOUR_RULES if scheme == "dark" else ()))
        plain = page.evaluate(NOT_UNDERLINED)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        assert not page.left, page.left  # type: ignore[attr-defined]
    finally:
        page.context.close()
    where = f"{path or 'home'} ({scheme}, {width} px)"
    assert not plain, f"{where}: {len(plain)} links in running text without an underline: {plain[:5]}"
    others = [v for v in found if v["id"] not in pending]
    assert not others, f"{where}: serious or critical axe violations\n" + report(others)
    if found:
        raise Pending(f"{where}: the pending violations\n" + report(found))


def test_axe_core_is_the_pinned_package() -> None:
    """The script the test injects is the pinned version's (its banner), had through the checked tarball."""
    from replay.site.axe import axe_source, pin

    p = pin()
    assert p.package == "axe-core" and p.integrity.startswith("sha512-")
    assert axe_source().startswith(f"/*! axe v{p.version}")
