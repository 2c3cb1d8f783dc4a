"""What the site build keeps between builds (issue 33) is what it would compute, and is recomputed when its
inputs change: the example viewers and the signatures mkdocstrings formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.site.data import SiteData, find_examples
from replay.site.examples import cached_viewer, replay_example

ROOT = Path(__file__).resolve().parents[1]


def test_a_cached_viewer_is_the_one_drawn_and_a_changed_input_draws_anew(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.view.render import viewer_html

    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path))
    d = SiteData.collect(ROOT)
    e = next(x for x in find_examples(ROOT) if x.rel.endswith("zwarta-kolumna/base/lost-seed-1.json"))
    r = replay_example(d, e)
    fresh = viewer_html(r.view, "../..", log_href="../lost-seed-1.json")
    assert cached_viewer(d, r, "../..", "../lost-seed-1.json") == fresh
    [kept] = list((tmp_path / "site-viewer").iterdir())
    assert kept.read_text(encoding="utf-8") == fresh
    kept.write_text("read from the cache", encoding="utf-8")  # the second call reads the file
    assert cached_viewer(d, r, "../..", "../lost-seed-1.json") == "read from the cache"
    # another address, another code or corpus: drawn anew
    assert cached_viewer(d, r, "../../..", "../lost-seed-1.json") != "read from the cache"
    d.__dict__["fingerprint"] = "0" * 64
    assert cached_viewer(d, r, "../..", "../lost-seed-1.json") == fresh
    assert len(list((tmp_path / "site-viewer").iterdir())) == 3


def test_the_code_fingerprint_follows_the_corpus(tmp_path: Path) -> None:
    import shutil

    from replay.site.data import code_fingerprint

    corpus = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", corpus)
    before = code_fingerprint(corpus)
    assert code_fingerprint(corpus) == before
    (corpus / "texts" / "000.yaml").write_text((corpus / "texts" / "000.yaml").read_text() + "\n# changed\n")
    assert code_fingerprint(corpus) != before


def test_signatures_are_formatted_once_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rendering = pytest.importorskip("mkdocstrings_handlers.python._internal.rendering")
    from replay.site import compact

    calls: list[str] = []

    def fake_formatter() -> object:
        def fmt(code: str, n: int) -> str:
            calls.append(code)
            return f"formatted({n}): {code}"
        return fmt

    monkeypatch.setattr(rendering, "_get_formatter", fake_formatter)
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path))
    assert compact.cache_signatures()
    assert compact.cache_signatures()  # once only
    fmt = rendering._get_formatter()
    assert fmt("def f(a, b)", 60) == "formatted(60): def f(a, b)"
    assert fmt("def f(a, b)", 60) == "formatted(60): def f(a, b)"
    assert fmt("def f(a, b)", 80) == "formatted(80): def f(a, b)"
    assert calls == ["def f(a, b)", "def f(a, b)"]  # the second call of each was read back
