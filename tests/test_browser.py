"""A real browser on the built site: clause -> function -> clause for every game, search in every language.

Headless Chromium (Debian's ``chromium``, driven by Playwright) opens the site that
``tests/test_site.py`` builds, served over HTTP on 127.0.0.1.  Screenshots go to
``tests/artifacts/`` (ignored by git).  Without a Chromium the test fails and says how to
install one, unless ``REPLAY_NO_BROWSER=1`` is set (then it is skipped).
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from replay.corpus.loader import default_corpus
from replay.engine import registry
from replay.games import catalog
from tests.test_site import built_site  # noqa: F401 - the session's build, shared with test_site.py

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 20_000  # ms

#: (language, query, page the query must find, what the texts must hold for the query to make sense);
#: a phrase in quotes must be found whole (Material turns it into required words)
SEARCHES = [
    ("polish", "koszulką", "games/zwarta-kolumna/", "koszulką"),
    ("russian-pre-1918", "мѣсто", "games/exiles/", "мѣсто"),
    ("russian-ocr", "мђсто", "games/exiles/", "мђсто"),
    ("russian-modern", "место", "games/exiles/", "место"),
    ("english", "exile", "games/exiles/", "exile"),
    ("polish-phrase", '"koszulką do dołu"', "games/printex-frame/", "koszulką do dołu"),
    ("russian-phrase", '"свободное мѣсто"', "games/napoleons-square/", "свободное мѣсто"),
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("REPLAY_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium",
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        if os.environ.get("REPLAY_NO_BROWSER") == "1":
            pytest.skip("REPLAY_NO_BROWSER=1: the browser test is skipped")
        pytest.fail("Chromium is missing: install Debian's package (`apt-get install -y chromium`, which "
                    "./scripts/test does when run as root) or set REPLAY_NO_BROWSER=1 to skip this test")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("the playwright package is missing: pip install -e '.[test]'")
    return path


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    """Headless Chromium for a module's tests (each opens its own contexts and pages)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def server(built_site: Path) -> Iterator[str]:  # noqa: F811
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser_page(chromium: str, server: str, tmp_path_factory: pytest.TempPathFactory):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        try:
            yield page
        finally:
            context.close()


def _path(url: str) -> str:
    return urlsplit(url).path


def _follow(page, xpath: str, url: str) -> None:  # type: ignore[no-untyped-def]
    """Click the first link the XPath finds and wait for the browser to reach ``url`` (a glob)."""
    link = page.locator(f"xpath={xpath}").first
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_url(url)


def _shows(page, anchor: str, shot: str) -> None:  # type: ignore[no-untyped-def]
    """The element with id ``anchor`` appears and is visible; the page is saved as screenshot ``shot``."""
    element = page.locator(f"[id='{anchor}']")
    element.wait_for()
    assert element.is_visible()
    page.screenshot(path=str(ARTIFACTS / shot))


def _clause_to_follow(game: str) -> tuple[str, registry.Implementation]:
    """The first clause of the main game (a level-3 heading) that a function implements."""
    catalog()
    corpus = default_corpus()
    by_clause = registry.by_clause()
    for clause in corpus.clauses_of(game):
        if clause.variant is None and by_clause.get(clause.id):
            return clause.id, by_clause[clause.id][0]
    raise AssertionError(f"no clause of {game} has an implementing function")


@pytest.mark.parametrize("game", ["printex-frame", "zwarta-kolumna", "exiles", "napoleons-square"])
def test_clause_to_function_and_back(browser_page, server: str, game: str) -> None:
    page = browser_page
    cid, impl = _clause_to_follow(game)
    page.goto(f"{server}games/{game}/#{cid}")
    _shows(page, cid, f"{game}-1-clause-{cid}.png")

    _follow(page, f"//*[@id='{cid}']/following-sibling::p[strong[normalize-space()='Implemented by']][1]"
                  f"/following-sibling::ul[1]//a[contains(@href, '#{impl.name}')]", f"**/#{impl.name}")
    assert _path(page.url).endswith("/reference/" + "/".join(impl.module.split(".")[1:]) + "/")
    _shows(page, impl.name, f"{game}-2-function-{impl.name.rsplit('.', 1)[-1]}.png")

    _follow(page, f"//*[@id='{impl.name}']/ancestor::div[contains(@class, 'doc-object')][1]"
                  f"//a[contains(@href, '#{cid}')]", f"**/games/{game}/#{cid}")
    assert urlsplit(page.url).fragment == cid
    _shows(page, cid, f"{game}-3-back-to-{cid}.png")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("language,query,expected,word", SEARCHES, ids=[s[0] for s in SEARCHES])
def test_search_in_each_language(browser_page, server: str, language: str, query: str, expected: str,
                                 word: str) -> None:
    corpus = default_corpus()
    texts = " ".join(" ".join([c.verbatim, corpus.diplomatic(cid), c.normalized or "", c.translation])
                     for cid, c in corpus.clauses.items()).lower()
    assert word in texts, f"the corpus no longer holds {word!r}: choose another query for {language}"
    page = browser_page
    page.goto(server)
    box = page.locator("input.md-search__input")
    box.click()
    # the search index loads in a worker: type once it is ready, as a person would
    page.wait_for_function("() => { const m = document.querySelector('.md-search-result__meta');"
                           " return m && m.textContent.trim() && !/initializ/i.test(m.textContent); }")
    box.fill(query)
    # Material searches on key-up; a Cyrillic word typed on a Russian keyboard sends key-ups, which
    # Playwright's text insertion does not, so end the typing with a key
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for()
    hrefs = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    page.screenshot(path=str(ARTIFACTS / f"search-{language}.png"))
    paths = [_path(h) for h in hrefs]
    assert any(p.endswith("/" + expected) for p in paths), f"{query!r} found {paths[:10]}"
    page.keyboard.press("Escape")


def test_register_sorts_by_status_and_by_text(browser_page, server: str) -> None:
    page = browser_page
    page.goto(f"{server}ambiguities/")
    table = page.locator(".sortable table").first
    headers = table.locator("thead th")
    names = [h.strip() for h in headers.all_inner_texts()]
    col = {n.split()[0]: i for i, n in enumerate(names)}
    for column in ("Status", "Text"):
        headers.nth(col[column]).click()
        values = table.locator(f"tbody tr td:nth-child({col[column] + 1})").all_inner_texts()
        assert values == sorted(values, key=str.casefold), f"not sorted by {column}"
        headers.nth(col[column]).click()
        values = table.locator(f"tbody tr td:nth-child({col[column] + 1})").all_inner_texts()
        assert values == sorted(values, key=str.casefold, reverse=True), f"not sorted by {column}, descending"
    page.screenshot(path=str(ARTIFACTS / "register-sorted.png"))


def test_an_example_game_steps_through(browser_page, server: str) -> None:
    from replay.site.data import ROOT, find_examples

    examples = [e for e in find_examples(ROOT) if isinstance(e.data, dict) and e.data.get("moves")]
    if not examples:
        pytest.skip("no example logs")
    e = examples[0]
    page = browser_page
    page.goto(f"{server}{e.page[:-3]}/")
    moves = page.locator(".game-steps .step").count() - 1  # the start, then one step per move replayed
    assert moves >= 1
    status = page.locator(".stepper output")
    assert status.inner_text() == "start"
    page.locator(".stepper button[data-go=next]").click()
    assert status.inner_text() == f"move 1 of {moves}"
    assert page.locator(".step.current").is_visible()
    assert page.locator(".replay-viewer .rv-table svg").get_attribute("aria-label") == "the table after move 1"
    assert not page.locator(".step[data-step='0']").is_visible()
    if moves > 1:
        page.keyboard.press("ArrowRight")
        assert status.inner_text() == f"move 2 of {moves}"
    page.locator(".stepper button[data-go=last]").click()
    assert status.inner_text() == f"move {moves} of {moves}"
    assert urlsplit(page.url).fragment == f"move-{moves}"
    page.screenshot(path=str(ARTIFACTS / "example-stepper.png"))
