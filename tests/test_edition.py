"""The edition (replay.engine.edition): the corpus as plain data, kept as strict versioned JSON, cached
by the SHA-256 of the corpus files, and installable in place of the default corpus's (issue 21)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from replay.corpus import edition as CE
from replay.corpus.loader import default_corpus, load
from replay.engine import edition as E
from replay.engine.errors import CorpusError
from replay.games import create, rulings_for


@pytest.fixture(scope="module")
def data() -> dict:
    return CE.edition_of(default_corpus()).to_json()


def test_the_json_reads_back_to_the_same_edition(data: dict) -> None:
    assert data["format"] == "replay-edition/1"
    text = json.dumps(data, ensure_ascii=False)
    back = E.Edition.from_json(json.loads(text))
    assert back.to_json() == data
    plan = next(iter(back.layouts.values()))
    assert isinstance(plan.piles, tuple) and all(isinstance(p.row, float) for p in plan.piles)


def test_it_holds_what_the_corpus_says(data: dict) -> None:
    corpus = default_corpus()
    e = E.Edition.from_json(data)
    assert set(e.layouts) == set(corpus.layouts) and set(e.clauses) == set(corpus.clauses)
    assert set(e.games) == set(corpus.games)
    for cid, c in corpus.clauses.items():
        t = e.clauses[cid]
        assert (t.original, t.translation, t.verbatim, t.normalized) == (corpus.diplomatic(cid), c.translation,
                                                                         c.verbatim, c.normalized)
        assert t.language == corpus.texts[corpus.text_of[cid]].language and t.game == c.game
    for spec in corpus.layouts.values():
        plan = e.layouts[spec.id]
        assert [(p.name, p.row, p.col, p.role, p.label) for p in plan.piles] == \
            [(p.name, p.row, p.col, p.role, p.label) for p in spec.piles]
        assert list(plan.deal) == spec.deal and {k: dict(v) for k, v in plan.arrangements.items()} == spec.arrangements
    # the record of changes (corpus/changes.yaml) as replay.corpus.history replays it: what validate names
    from replay.corpus.history import archive_version, rulings_of

    assert e.archive == archive_version(corpus)
    recorded = rulings_of(corpus)
    assert {(g, r) for g, rs in e.history.items() for r in rs} == set(recorded)
    for (game, name), h in recorded.items():
        mine = e.history_of(game, name)
        assert mine is not None
        assert (mine.introduced, mine.before, mine.default_since, mine.default_since_commit) == \
            (h.introduced.version, h.before, h.default_since.version, h.default_since.commit)
        assert [(x.reading, x.until) for x in mine.earlier_defaults] == [(r, m.version) for r, m in h.earlier_defaults]
    assert e.history_of("exiles", "no-such-ruling") is None


def _place(data: dict, edit) -> str:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(data)
    edit(bad)
    with pytest.raises(CorpusError) as err:
        E.Edition.from_json(bad)
    message = str(err.value)
    assert "\n" not in message
    return message


def test_reading_is_strict_and_names_the_place(data: dict) -> None:
    lid = next(iter(data["layouts"]))
    cid = next(iter(data["clauses"]))
    game = next(iter(data["rulings"]))
    ruling = next(iter(data["rulings"][game]))

    def unknown(d: dict) -> None:
        d["layouts"][lid]["piles"][2]["colour"] = "red"

    def missing(d: dict) -> None:
        del d["clauses"][cid]["translation"]

    def wrong(d: dict) -> None:
        d["layouts"][lid]["piles"][1]["row"] = "1"

    def wrong_list(d: dict) -> None:
        d["rulings"][game][ruling]["readings"] = "a"

    def misfiled(d: dict) -> None:
        d["clauses"]["zz-1"] = d["clauses"].pop(cid)

    assert _place(data, unknown).startswith(f"edition.layouts.{lid}.piles[2].colour: unknown key")
    assert _place(data, missing) == f"edition.clauses.{cid}.translation: missing key"
    assert _place(data, wrong) == f"edition.layouts.{lid}.piles[1].row: expected a number, not a string"
    assert _place(data, wrong_list) == f"edition.rulings.{game}.{ruling}.readings: expected a list, not a string"
    assert _place(data, misfiled) == f"edition.clauses.zz-1.id: {cid!r} is filed under 'zz-1'"
    assert _place(data, lambda d: d.update(format="replay-edition/2")).startswith("edition.format: expected")
    assert _place(data, lambda d: d.update(extra=1)).startswith("edition.extra: unknown key")
    assert _place(data, lambda d: d.pop("games")) == "edition.games: missing key"


def test_an_installed_edition_is_the_one_the_games_take(data: dict) -> None:
    changed = copy.deepcopy(data)
    zk = changed["rulings"]["zwarta-kolumna"]
    name = next(iter(zk))
    zk[name]["default"] = [r for r in zk[name]["readings"] if r != zk[name]["default"]][0]
    edition = E.Edition.from_json(changed)
    try:
        E.use(edition)
        assert CE.default_edition() is edition
        assert rulings_for("zwarta-kolumna")[name].default == zk[name]["default"]
        assert create("zwarta-kolumna").rulings[name] == zk[name]["default"]
    finally:
        E.use(None)
    assert CE.default_edition() is not edition
    assert rulings_for("zwarta-kolumna")[name].default == data["rulings"]["zwarta-kolumna"][name]["default"]
    assert create("zwarta-kolumna", edition=edition).rulings[name] == zk[name]["default"]  # or given to one game


def test_the_cached_edition_follows_the_corpus_files(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "corpus"
    shutil.copytree(default_corpus().root, root)
    monkeypatch.setenv("REPLAY_CORPUS", str(root))
    monkeypatch.setenv("REPLAY_CACHE_DIR", str(tmp_path / "cache"))
    corpus = load(root)
    cid = next(iter(corpus.clauses))  # its text's file is edited below
    try:
        CE._default.cache_clear()
        default_corpus.cache_clear()
        first = CE.default_edition()
        cached = list((tmp_path / "cache" / "edition").glob("*.json"))
        assert len(cached) == 1
        CE._default.cache_clear()
        again = CE.default_edition()  # from the cache file
        assert again is not first and again.to_json() == first.to_json()
        clauses = root / "clauses" / f"{corpus.text_of[cid]}.yaml"
        text = clauses.read_text(encoding="utf-8")
        clauses.write_text(text.replace("translation: ", "translation: Edited. ", 1), encoding="utf-8")
        CE._default.cache_clear()
        default_corpus.cache_clear()
        edited = CE.default_edition()
        assert len(list((tmp_path / "cache" / "edition").glob("*.json"))) == 2  # another key
        assert any(c.translation.startswith("Edited. ") for c in edited.clauses.values())
    finally:
        CE._default.cache_clear()
        default_corpus.cache_clear()
