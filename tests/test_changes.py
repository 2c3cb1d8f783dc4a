"""A log means the same thing tomorrow (issue 22 §4): the record of changes (corpus/changes.yaml) accounts for every
ruling, reading and default of the register; validate says which readings it applied by default to a log that leaves
a ruling out, and since which version; CHANGES.md and the site's page are written from the record."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from typer.testing import CliRunner

import replay
from replay.cli import app
from replay.corpus.checks import check_corpus
from replay.corpus.files import corpus_dir
from replay.corpus.history import archive_version, problems, rulings_of
from replay.corpus.loader import load
from replay.log.validate import check_bytes
from replay.site.changes import CHANGES_FILE, changes_file

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def copy_corpus(tmp_path: Path) -> Path:
    dst = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), dst)
    return dst


def edit_yaml(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_the_record_accounts_for_every_ruling_reading_and_default_of_the_register():
    corpus = load()
    assert problems(corpus) == []
    history = rulings_of(corpus)
    base = history[("zwarta-kolumna", "base-timing")]
    assert (base.introduced.version, base.introduced.commit, base.before) == ("0.1.0", "0175740", "as-playable")
    found = history[("exiles", "foundations")]
    assert found.default == "withdrawn-first" and found.earlier_defaults[-1][0] == "aces-and-kings"
    assert found.default_since.version == "0.2.0"


def test_a_default_changed_in_the_register_and_not_recorded_is_an_error(tmp_path):
    root = copy_corpus(tmp_path)

    def swap(data):
        entry = next(e for e in data["entries"] if e["id"] == "amb-zk-reach")
        entry["default"] = "adjacent"

    edit_yaml(root / "ambiguities" / "001.yaml", swap)
    messages = [p.message for p in check_corpus(root) if p.file == "changes.yaml"]
    assert len(messages) == 1 and "side-reach of zwarta-kolumna" in messages[0]
    assert "record the change of default" in messages[0]


def test_an_unrecorded_reading_a_wrong_before_and_an_unknown_ruling_are_errors(tmp_path):
    root = copy_corpus(tmp_path)

    def drop(data):
        v = data["versions"][-1]["changes"]
        v[:] = [c for c in v if not (c["kind"] == "reading" and c.get("reading") == "withdrawn-first")]
        default = next(c for c in v if c["kind"] == "default" and c["ruling"] == "foundations")
        default["before"] = "eight-aces"
        v.append({"kind": "reading", "game": "exiles", "ruling": "no-such-ruling", "reading": "x", "reason": "y"})

    edit_yaml(root / "changes.yaml", drop)
    messages = [p.message for p in check_corpus(root) if p.file == "changes.yaml"]
    assert any("the default before was 'aces-and-kings', not 'eight-aces'" in m for m in messages)
    assert any("'withdrawn-first' is not a reading of the ruling" in m for m in messages)
    assert any("no-such-ruling: no such ruling has been introduced" in m for m in messages)
    assert any("not recorded: withdrawn-first" in m for m in messages)


def test_the_archive_version_is_the_version_replay_reports():
    assert archive_version() == replay.__version__


def _without(path: str, *names: str) -> bytes:
    d = json.loads((ROOT / path).read_bytes())
    for n in names:
        del d["rulings"][n]
    return json.dumps(d).encode()


def test_validate_names_the_readings_it_applied_by_default_and_from_which_version():
    """A cztery-kąty log written before base-timing existed leaves it out: valid, read with the default
    on-dealing of archive 0.2.0, a ruling since 0.1.0, before which the engine played as-playable."""
    data = _without("examples/games/zwarta-kolumna/cztery-katy/lost-seed-1.json", "base-timing")
    report = check_bytes(data, "old.json")
    assert report.ok and report.archive == replay.__version__
    assert report.defaulted == [{"ruling": "base-timing", "reading": "on-dealing", "default_since": "0.1.0",
                                 "default_since_commit": "0175740", "ruling_since": "0.1.0",
                                 "before_the_ruling": "as-playable"}]
    text = runner.invoke(app, ["validate", "-"], input=data)
    assert text.exit_code == 0
    assert (f"read by default under archive {replay.__version__}, the log naming no reading: base-timing=on-dealing "
            "(a ruling since 0.1.0; before it, as-playable)") in text.stdout
    doc = json.loads(runner.invoke(app, ["validate", "--format", "json", "-"], input=data).stdout)
    log = doc["logs"][0]
    assert log["archive"] == replay.__version__ and log["defaulted"][0]["reading"] == "on-dealing"
    # a log naming every ruling that applies gets no such line, and an empty list
    whole = (ROOT / "examples/games/zwarta-kolumna/cztery-katy/lost-seed-1.json").read_bytes()
    assert check_bytes(whole).defaulted == []
    assert "read by default" not in runner.invoke(app, ["validate", "-"], input=whole).stdout


def test_validate_reads_the_history_from_the_edition():
    """The notes come from the edition (plain data, cached as JSON; no corpus models): the record of an installed
    edition is the one validate names."""
    from dataclasses import replace

    from replay.corpus.edition import default_edition
    from replay.engine import edition as E

    e = default_edition()
    zk = dict(e.history["zwarta-kolumna"])
    zk["base-timing"] = replace(zk["base-timing"], default_since="9.9.9", default_since_commit=None)
    E.use(replace(e, archive="9.9.9", history={**e.history, "zwarta-kolumna": zk}))
    try:
        report = check_bytes(_without("examples/games/zwarta-kolumna/cztery-katy/lost-seed-1.json", "base-timing"))
    finally:
        E.use(None)
    assert report.ok and report.archive == "9.9.9"
    assert report.defaulted == [{"ruling": "base-timing", "reading": "on-dealing", "default_since": "9.9.9",
                                 "ruling_since": "0.1.0", "before_the_ruling": "as-playable"}]


def test_a_changed_default_that_changes_the_verdict_says_why():
    """An exiles log that left foundations out was valid when the default was aces-and-kings; read by 0.2.0 its deck
    of 104 cards no longer fits, and the report says which default it applied and what it was before."""
    from replay.games import create
    from replay.log.play import dumps, new_log

    old = create("exiles", rulings={"foundations": "aces-and-kings"})  # what 0.1.0 read by default
    d = new_log(old, old.deck_from_seed(5), [{"type": "deal"}])
    del d["rulings"]["foundations"]
    data = dumps(d).encode()
    assert check_bytes(dumps(new_log(old, old.deck_from_seed(5), [{"type": "deal"}])).encode()).ok
    report = check_bytes(data, "exiles.json")
    assert report.verdict == "malformed" and "96" in report.first.message
    note = next(n for n in report.defaulted if n["ruling"] == "foundations")
    assert note["reading"] == "withdrawn-first" and note["default_since"] == "0.2.0"
    assert note["earlier_defaults"] == [{"reading": "aces-and-kings", "until": "0.2.0"}]
    out = runner.invoke(app, ["validate", "-"], input=data).stdout
    assert "foundations=withdrawn-first (the default since 0.2.0; before, aces-and-kings)" in out


def test_changes_md_is_written_from_the_record():
    assert CHANGES_FILE.read_text(encoding="utf-8") == changes_file(load()), \
        "CHANGES.md is stale: run .venv/bin/python -m replay.site.changes"
    text = CHANGES_FILE.read_text(encoding="utf-8")
    assert "## 0.2.0" in text and "`aces-and-kings` → `withdrawn-first`" in text
    assert "new ruling `base-timing`" in text and "The rulings of the first edition (24)" in text


def test_the_apparatus_reversals_are_listed_with_their_version_and_an_unknown_citation_is_an_error(tmp_path):
    """CHANGES.md lists, beside the rule changes, what the apparatus withdrew or corrected (the lost figure of 000,
    Leoni's Own, Babette, the correction at 822), each with what it said before and what stands now."""
    text = CHANGES_FILE.read_text(encoding="utf-8")
    v020 = text[text.index("## 0.2.0"):text.index("## 0.1.0")]
    assert "The apparatus corrected in 0.2.0 (4):" in v020
    for subject in ("Text 000, provenance: the lost figure", "Text 003, provenance: the exiles game",
                    "The “garden” game", "the correction at offset 822"):
        line = next(ln for ln in v020.splitlines() if subject in ln)
        assert "Before:" in line and "Now:" in line and "(commit " in line
    root = copy_corpus(tmp_path)
    edit_yaml(root / "changes.yaml", lambda d: d["versions"][-1]["apparatus"][0]["cites"].append("pf-99"))
    messages = [p.message for p in check_corpus(root) if p.file == "changes.yaml"]
    assert messages == ["apparatus 'Text 000, provenance: the lost figure' cites 'pf-99', which is no text, clause or "
                        "register entry"]
