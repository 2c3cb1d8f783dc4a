"""The corpus: byte-for-byte sources, clause spans, the ID lock, schemas and the TEI export."""

from __future__ import annotations

import hashlib
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import replay
from replay.cli import app
from replay.corpus.checks import check_corpus
from replay.corpus.loader import corpus_dir, load
from replay.corpus.schema import FILES, schema_text
from replay.corpus.tei import TEI_NS, tei_document

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="module")
def corpus():
    return load()


def copy_corpus(tmp_path: Path) -> Path:
    dst = tmp_path / "corpus"
    shutil.copytree(corpus_dir(), dst)
    return dst


def test_sources_are_the_seeds_byte_for_byte(corpus):
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside this checkout")
    for text in corpus.texts.values():
        name = Path(text.file).name
        assert (corpus.root / text.file).read_bytes() == (SEEDS / name).read_bytes(), name


def test_recorded_checksums_and_sizes_match(corpus):
    for text in corpus.texts.values():
        raw = (corpus.root / text.file).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == text.sha256
        assert len(raw) == text.size


def test_a_changed_byte_is_reported(tmp_path):
    root = copy_corpus(tmp_path)
    src = next((root / "sources").glob("001_*.txt"))
    raw = bytearray(src.read_bytes())
    raw[20] ^= 0x01
    src.write_bytes(bytes(raw))
    assert any("SHA-256" in p.message for p in check_corpus(root))


def test_the_corpus_check_passes():
    problems = check_corpus()
    assert problems == [], "\n".join(map(str, problems))


def test_spans_and_the_gaps_between_them_reproduce_each_text_exactly(corpus):
    for tid, src in corpus.sources.items():
        pieces = sorted((s, e) for c in corpus.clause_files[tid].clauses for s, e in c.spans)
        rebuilt, pos = [], 0
        for s, e in pieces:
            gap = src[pos:s]
            assert not re.search(r"\w", gap), f"{tid}: words between clauses: {gap!r}"
            rebuilt += [gap, src[s:e]]
            pos = e
        assert not re.search(r"\w", src[pos:])
        rebuilt.append(src[pos:])
        assert "".join(rebuilt) == src


def test_clause_ids_are_unique_and_human_readable(corpus):
    ids = [c.id for cf in corpus.clause_files.values() for c in cf.clauses]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(pf|zk|ex|ns)-[1-9][0-9]*", i) for i in ids)


def test_a_duplicate_clause_id_is_refused(tmp_path):
    root = copy_corpus(tmp_path)
    path = root / "clauses" / "001.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: zk-3\n", "id: zk-2\n"), encoding="utf-8")
    problems = check_corpus(root)
    assert any("zk-2" in str(p) and "twice" in str(p) for p in problems)


def test_every_clause_is_in_the_lock_and_no_locked_id_has_moved(corpus):
    assert corpus.lock is not None
    assert set(corpus.clauses) <= set(corpus.lock.active)
    assert not [p for p in check_corpus() if p.file == "clause-ids.yaml"]


def _edit_clause(root: Path, text_id: str, clause_id: str, **changes) -> None:
    path = root / "clauses" / f"{text_id}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["clauses"] = [c for c in data["clauses"] if c["id"] != clause_id or changes]
    for c in data["clauses"]:
        if c["id"] == clause_id:
            c.update(changes)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_a_disappearing_id_is_reported(tmp_path):
    root = copy_corpus(tmp_path)
    _edit_clause(root, "000", "pf-23")
    assert any(p.entry == "pf-23" and "disappeared" in p.message for p in check_corpus(root))


def test_an_id_moved_to_other_text_is_reported(tmp_path):
    root = copy_corpus(tmp_path)
    src = load(root).sources["000"]
    start = src.index("To są karty podstawowe.")
    end = start + len("To są karty podstawowe.")
    # pf-3 and pf-4 swap places is impossible without overlap; move pf-23 onto pf-3's words instead
    _edit_clause(root, "000", "pf-3", spans=[[start, end - 1]], verbatim=src[start:end - 1])
    problems = check_corpus(root)
    assert any(p.entry == "pf-3" and "other text" in p.message for p in problems)


def test_published_schemas_match_the_models():
    for name, model in FILES.items():
        path = ROOT / "corpus" / "schema" / name
        assert path.read_text(encoding="utf-8") == schema_text(model), f"{name} is stale: run `replay corpus schema`"


def test_tei_export_is_well_formed_and_carries_every_layer(corpus, tmp_path):
    ns = {"tei": TEI_NS}
    xid = "{http://www.w3.org/XML/1998/namespace}id"
    for tid in corpus.texts:
        path = tmp_path / f"{tid}.xml"
        tei_document(corpus, tid).write(path, encoding="utf-8", xml_declaration=True)
        root = ET.parse(path).getroot()  # well-formed
        ids = {el.get(xid) for el in root.iter(f"{{{TEI_NS}}}seg") if el.get(xid)}
        assert ids == {c.id for c in corpus.clause_files[tid].clauses}
        sics = root.findall(".//tei:div[@type='edition']//tei:choice/tei:sic", ns)
        assert len(sics) == len(corpus.corrections(tid))
        translated = root.findall(".//tei:div[@type='translation']/tei:seg", ns)
        assert {s.get("corresp") for s in translated} == {f"#{c}" for c in ids}
        notes = {n.get(xid) for n in root.findall(".//tei:back//tei:note[@type='ambiguity']", ns)}
        assert notes == {a.id for a in corpus.ambiguities.values() if corpus.text_id_of_ambiguity(a) == tid}
        # the edition, with the sic readings, is the verbatim text again
        edition = root.find(".//tei:div[@type='edition']", ns)
        text = "".join(_sic_text(edition))
        assert " ".join(text.split()) == " ".join(corpus.sources[tid].split())


def _sic_text(el):
    if el.tag == f"{{{TEI_NS}}}corr":
        return
    if el.text:
        yield el.text
    for child in el:
        yield from _sic_text(child)
        if child.tail:
            yield child.tail


def test_corpus_check_command_reports_problems_one_per_line(tmp_path, monkeypatch):
    root = copy_corpus(tmp_path)
    path = root / "ambiguities" / "000.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("clauses: [pf-19]", "clauses: [pf-99]", 1), encoding="utf-8")
    monkeypatch.setenv("REPLAY_CORPUS", str(root))
    result = CliRunner().invoke(app, ["corpus", "check"])
    assert result.exit_code == 1
    assert "pf-99" in result.output and "Traceback" not in result.output


def test_a_yaml_syntax_error_is_one_clear_line(tmp_path, monkeypatch):
    root = copy_corpus(tmp_path)
    (root / "glossary" / "pl.yaml").write_text("terms: [\n  - id: x\n", encoding="utf-8")
    monkeypatch.setenv("REPLAY_CORPUS", str(root))
    result = CliRunner().invoke(app, ["corpus", "check"])
    assert result.exit_code == 1
    assert "pl.yaml" in result.output and "YAML" in result.output and "Traceback" not in result.output


def test_the_tei_header_names_the_edition_cited_and_what_may_be_done_with_each_part(corpus, tmp_path):
    """A scholar cites a state that exists: edition[@n] the version (released, or not yet) and the commit; the
    availability the apparatus's licence (with its legal code) and the source text's status from corpus/LICENSE."""
    from replay.corpus.licence import licence_text, release_date, source_status
    from replay.corpus.tei import Stamp

    ns = {"tei": TEI_NS}
    result = CliRunner().invoke(app, ["corpus", "export", "--format", "tei", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for tid in corpus.texts:
        header = ET.parse(tmp_path / f"{tid}.tei.xml").getroot().find("tei:teiHeader", ns)
        edition = header.find("tei:fileDesc/tei:editionStmt/tei:edition", ns)
        assert edition.get("n") == replay.__version__
        commit = edition.find("tei:idno[@type='git-commit']", ns)
        assert commit is not None and re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?", commit.text or ""), commit
        released = release_date(corpus, replay.__version__)
        assert (f"released {released}" if released else "not yet released") in "".join(edition.itertext())
        licences = header.findall("tei:fileDesc/tei:publicationStmt/tei:availability/tei:licence", ns)
        assert licences[0].get("target") == "https://creativecommons.org/licenses/by/4.0/legalcode"
        assert source_status(licence_text(corpus), tid) in licences[1].text
        assert "CC BY-SA 4.0" in licences[2].text
        # publicationStmt holds either paragraphs or publication parts, never both (TEI P5)
        assert header.find("tei:fileDesc/tei:publicationStmt/tei:p", ns) is None
    doc = tei_document(corpus, "001", Stamp("9.9.9", None, "2030-01-01")).getroot()
    edition = doc.find(".//tei:editionStmt/tei:edition", ns)
    assert edition.get("n") == "9.9.9" and "not yet released; commit not recorded, built" in "".join(edition.itertext())


def test_export_command_writes_one_document_per_text(tmp_path):
    result = CliRunner().invoke(app, ["corpus", "export", "--format", "tei", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["000.tei.xml", "001.tei.xml", "003.tei.xml"]
    bad = CliRunner().invoke(app, ["corpus", "export", "--format", "pdf"])
    assert bad.exit_code == 2


def test_a_glossary_match_inside_a_word_is_not_an_occurrence(tmp_path):
    """pl-rzad once listed pf-4, zk-5 … because "rząd" was found inside "porządku": matches start a word."""
    root = copy_corpus(tmp_path)
    path = root / "glossary" / "pl.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    term = next(t for t in data["terms"] if t["id"] == "pl-rzad")
    term["forms"][0]["occurs"] = ["pf-6", "pf-4"]  # pf-4 has only "w porządku rosnącym"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    problems = [p for p in check_corpus(root) if p.entry == "pl-rzad"]
    assert len(problems) == 1 and "does not occur in pf-4" in problems[0].message
    # a stem at the start of a word is still found ("kart" in "karty"), as every form of the glossary shows
    assert not [p for p in check_corpus(root) if p.entry == "pl-karta"]


def test_every_witness_quotation_names_a_defined_source_and_an_existing_clause(corpus):
    assert corpus.witnesses, "corpus/witnesses/ holds the English witnesses"
    for w in corpus.witnesses.values():
        for p in w.passages:
            assert p.clause in corpus.clauses and corpus.clauses[p.clause].game == w.game
            src = w.sources[p.source]
            assert src.url.startswith("http") and src.edition and src.section


def _edit_witness(root: Path, wid: str, edit) -> None:
    path = root / "witnesses" / f"{wid}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_a_witness_passage_with_an_unknown_source_or_clause_is_reported(tmp_path):
    root = copy_corpus(tmp_path)

    def edit(data):
        data["passages"][0]["source"] = "nowhere"
        data["passages"][1]["clause"] = "zk-99"
        data["passages"][2]["clause"] = "ns-1"  # a clause of another game

    _edit_witness(root, "cadogan-four-corners", edit)
    messages = [p.message for p in check_corpus(root) if p.file == "witnesses/cadogan-four-corners.yaml"]
    assert any("names source 'nowhere'" in m for m in messages)
    assert any("zk-99, which does not exist" in m for m in messages)
    assert any("ns-1 is a clause of napoleons-square" in m for m in messages)


def test_a_witness_passage_needs_a_quotation_or_says_why_not(tmp_path):
    root = copy_corpus(tmp_path)

    def edit(data):
        del data["passages"][0]["quote"]  # neither a quotation nor not_verified

    _edit_witness(root, "cadogan-four-corners", edit)
    problems = check_corpus(root)
    assert len(problems) == 1 and "quotation or says why not" in problems[0].message


@pytest.mark.parametrize("edit,fits", [
    ("spans: [[240, 358]]", "spans: [[241, 358]]"),  # shifted by one: the text is elsewhere in the source
    ("spans: [[240, 358]]", "spans: [[240, 300]]"),  # cut short
])
def test_a_wrong_span_names_its_line_both_texts_and_the_offsets_that_fit(tmp_path, monkeypatch, edit, fits):
    root = copy_corpus(tmp_path)
    path = root / "clauses" / "001.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), start=1) if ln.strip() == edit)
    path.write_text(text.replace(edit, fits, 1), encoding="utf-8")
    monkeypatch.setenv("REPLAY_CORPUS", str(root))
    result = CliRunner().invoke(app, ["corpus", "check"])
    assert result.exit_code == 1
    wrong = [ln for ln in result.output.splitlines() if "does not equal the text of its spans" in ln]
    assert len(wrong) == 1, result.output
    msg = wrong[0]
    assert msg.startswith(f"clauses/001.yaml:{line}: zk-5: ")
    source = (root / load(root).texts["001"].file).read_text(encoding="utf-8")
    start, end = (int(x) for x in re.findall(r"\d+", fits))
    assert repr(source[start:end][:20]) [:-1] in msg  # what the spans hold
    assert "'Na asy zbieramy" in msg  # what verbatim says
    assert "the verbatim text is at spans: [[240, 358]]" in msg  # where it would fit


def test_a_relatives_plays_as_names_our_variants_rulings_and_readings(tmp_path):
    """plays_as says under which of our readings the engine plays a relative's rules: each name must be ours."""
    import yaml

    root = copy_corpus(tmp_path)
    path = root / "games" / "zwarta-kolumna.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cadogan = next(r for r in data["relatives"] if r.get("plays_as", {}).get("variants"))
    cadogan["plays_as"]["variants"] = ["no-such-variant"]
    cadogan["plays_as"]["rulings"] = {"side-reach": "nowhere", "no-such-ruling": "x", "base-placement": "anywhere"}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    messages = [p.message for p in check_corpus(root) if p.file == "games/zwarta-kolumna.yaml"]
    assert any("'no-such-variant' is not a variant" in m for m in messages)
    assert any("'nowhere' is not a selectable reading of 'side-reach'" in m for m in messages)
    assert any("'no-such-ruling' is not a ruling" in m for m in messages)
    assert any("'base-placement' applies only with gotycki-zamek" in m for m in messages)


def test_every_playable_relative_builds_as_a_game():
    """A relative's plays_as that the table plays is a combination the engine can build."""
    from replay.games.catalog import create

    played = [(g.id, r.plays_as) for g in load().games.values() for r in g.relatives
              if r.plays_as and not r.plays_as.unplayable]
    assert {g for g, _ in played} >= {"napoleons-square", "zwarta-kolumna", "exiles"}
    for gid, p in played:
        create(gid, p.variants, dict(p.rulings))
