"""replay/site/compact.py: white space collapsed only where it renders alike, and only unused theme files removed."""

from __future__ import annotations

from pathlib import Path

from replay.site.compact import collapse, unused_theme_files


def test_white_space_is_collapsed_around_the_article_only_and_never_in_pre_code_or_scripts() -> None:
    page = ("<html>\n    <body>\n      <nav>\n        <a href='x'>\n          One\n        </a>\n      </nav>\n"
            "      <pre>  kept\n\n    as is</pre>\n      <code>a\n\n   b</code>\n"
            "      <script>var s = 'a\n\n    b';</script>\n"
            "<article>\n\n    <p>the   article\n\n     as written</p>\n</article>\n\n     <footer>\n   end\n </footer>")
    out = collapse(page)
    assert out == ("<html>\n<body>\n<nav>\n<a href='x'>\nOne\n</a>\n</nav>\n"
                   "<pre>  kept\n\n    as is</pre>\n<code>a\n\n   b</code>\n"
                   "<script>var s = 'a\n\n    b';</script>\n"
                   "<article>\n\n    <p>the   article\n\n     as written</p>\n</article>\n<footer>\nend\n</footer>")
    assert collapse("<p>\n\n  no article</p>") == "<p>\n\n  no article</p>"


def test_only_the_lunr_files_of_other_languages_and_the_source_maps_go(tmp_path: Path) -> None:
    js = tmp_path / "assets" / "javascripts"
    for name in ("bundle.min.js", "bundle.min.js.map", "workers/search.min.js", "workers/search.min.js.map",
                 "lunr/min/lunr.stemmer.support.min.js", "lunr/min/lunr.multi.min.js", "lunr/min/lunr.pl.min.js",
                 "lunr/min/lunr.ru.min.js", "lunr/tinyseg.js", "lunr/wordcut.js"):
        (js / name).parent.mkdir(parents=True, exist_ok=True)
        (js / name).write_text("x")
    css = tmp_path / "assets" / "stylesheets" / "main.min.css.map"
    css.parent.mkdir(parents=True)
    css.write_text("x")

    def gone(langs: list[str]) -> set[str]:
        return {p.relative_to(tmp_path).as_posix() for p in unused_theme_files(tmp_path, langs)}

    maps = {"assets/javascripts/bundle.min.js.map", "assets/javascripts/workers/search.min.js.map",
            "assets/stylesheets/main.min.css.map"}
    lunr = {f"assets/javascripts/lunr/{x}" for x in ("min/lunr.stemmer.support.min.js", "min/lunr.multi.min.js",
                                                      "min/lunr.pl.min.js", "min/lunr.ru.min.js", "tinyseg.js",
                                                      "wordcut.js")}
    assert gone(["en"]) == maps | lunr
    assert gone(["en", "ru"]) == maps | lunr - {"assets/javascripts/lunr/min/lunr.stemmer.support.min.js",
                                                "assets/javascripts/lunr/min/lunr.multi.min.js",
                                                "assets/javascripts/lunr/min/lunr.ru.min.js"}
