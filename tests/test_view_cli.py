"""`replay view` and `replay analyse` on the command line, run as a person runs them (the console entry point).

The browser half of the viewer (keys, the table at a step, the violation marker, no network)
is in tests/test_view_browser.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.log.describe import clause_text
from replay.log.validate import check_bytes
from replay.solver.search import UNWINNABLE, WON, Budget, solve

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "examples" / "games"
BROKEN = ROOT / "examples" / "broken"
READINGS = ROOT / "examples" / "readings"
#: a lost exiles game whose verdicts the solver settles quickly with a small budget
EXILES_LOST = GAMES / "exiles" / "base" / "lost-seed-1.json"
ZK_LOST = GAMES / "zwarta-kolumna" / "base" / "lost-seed-1.json"


def replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "replay", *args], input=stdin.decode() if stdin else None,
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def one_line_error(r: subprocess.CompletedProcess[str], code: int) -> str:
    assert r.returncode == code, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def copy(src: Path, tmp: Path) -> Path:
    dst = tmp / src.name
    shutil.copyfile(src, dst)
    return dst


# --------------------------------------------------------------------------- view


def test_view_writes_one_self_contained_file_beside_the_log(tmp_path: Path) -> None:
    log = copy(ZK_LOST, tmp_path)
    r = replay("view", str(log))
    assert r.returncode == 0, r.stderr
    page = log.with_suffix(".html")
    assert f"wrote {page}" in r.stderr
    text = page.read_text(encoding="utf-8")
    moves = json.loads(log.read_bytes())["moves"]
    assert text.count('<section class="step"') == len(moves) + 1
    # nothing to fetch: no external script, style, image or font, and a policy that forbids it
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)=", text)
    assert "url(http" not in text and "@import" not in text
    assert "default-src 'none'" in text
    assert not [u for u in re.findall(r"https?://[^\s\"'<)]+", text) if "w3.org/2000/svg" not in u]
    assert [f for f in os.listdir(tmp_path) if f.endswith(".tmp")] == []


def test_view_never_overwrites_without_force_and_never_the_log(tmp_path: Path) -> None:
    log = copy(ZK_LOST, tmp_path)
    out = tmp_path / "game.html"
    out.write_text("mine", encoding="utf-8")
    line = one_line_error(replay("view", str(log), "-o", str(out)), 2)
    assert "--force" in line and out.read_text(encoding="utf-8") == "mine"
    assert replay("view", str(log), "-o", str(out), "--force").returncode == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    before = log.read_bytes()
    line = one_line_error(replay("view", str(log), "-o", str(log), "--force"), 2)
    assert "it is an input of this command" in line and log.read_bytes() == before
    line = one_line_error(replay("view", str(log), "-o", str(tmp_path / "no" / "such" / "dir.html")), 2)
    assert "does not exist" in line
    # the --analysis file is an input too: never overwritten, even with --force
    analysis = tmp_path / "a.json"
    assert replay("analyse", str(log), "--nodes", "10", "-o", str(analysis)).returncode == 0
    kept = analysis.read_bytes()
    line = one_line_error(replay("view", str(log), "--analysis", str(analysis), "-o", str(analysis), "--force"), 2)
    assert "it is an input of this command" in line and analysis.read_bytes() == kept


@pytest.mark.parametrize("path,code", [
    (BROKEN / "truncated.json", 1),
    (BROKEN / "zk-unknown-game.json", 1),
    (BROKEN / "not-an-object.json", 1),
    (BROKEN / "latin-1.json", 1),
    (ROOT / "no-such-log.json", 2),
])
def test_view_rejects_bad_input_in_one_line(tmp_path: Path, path: Path, code: int) -> None:
    line = one_line_error(replay("view", str(path), "-o", str(tmp_path / "x.html")), code)
    assert path.name in line
    assert not (tmp_path / "x.html").exists()


def test_view_reads_standard_input_only_with_an_output(tmp_path: Path) -> None:
    assert "-o" in one_line_error(replay("view", "-", stdin=ZK_LOST.read_bytes()), 2)
    out = tmp_path / "stdin.html"
    assert replay("view", "-", "-o", str(out), stdin=ZK_LOST.read_bytes()).returncode == 0
    assert out.is_file()


def test_view_marks_the_refused_move_with_its_clause(tmp_path: Path) -> None:
    log = BROKEN / "zk-illegal-zk-8.json"
    report = check_bytes(log.read_bytes(), str(log))
    p = report.first
    assert p is not None and p.clause and p.move is not None
    out = tmp_path / "broken.html"
    r = replay("view", str(log), "-o", str(out), "--rules-url", "https://rules.example/replay/")
    assert r.returncode == 0, r.stderr
    assert f"move {p.move + 1} ($.moves[{p.move}]) is refused ({p.clause})" in r.stderr
    text = out.read_text(encoding="utf-8")
    original, translation, _, _ = clause_text(p.clause)
    from html import escape

    violation = text[text.index('<div class="rv-violation"'):]
    violation = violation[: violation.index("</div>")]
    assert escape(original or "") in violation and escape(translation or "") in violation
    game = report.game
    assert f'href="https://rules.example/replay/games/{game}/#{p.clause}"' in violation
    assert f'<section class="step refused" data-step="{p.move + 1}"' in text


def test_view_shows_a_moves_comment_and_tolerates_its_absence(tmp_path: Path) -> None:
    data = json.loads(ZK_LOST.read_bytes())
    data["moves"][1]["comment"] = "I should have kept the <queen> for later"
    log = tmp_path / "commented.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "commented.html"
    assert replay("view", str(log), "-o", str(out)).returncode == 0
    text = out.read_text(encoding="utf-8")
    shown = "I should have kept the &lt;queen&gt; for later"
    assert text.count(shown) == 2  # in the move list and in the step
    assert text.count('class="rv-note"') == 1 and text.count('class="rv-comment"') == 1
    step = text[text.index('<section class="step" data-step="2"'):]
    assert shown in step[: step.index("</section>")]


def test_view_all_readings_names_the_sets_the_log_is_legal_under(tmp_path: Path) -> None:
    from replay.log.readings import analyse

    log = READINGS / "zk-side-reach-row.json"
    a = analyse(log.read_bytes(), str(log))
    out = tmp_path / "readings.html"
    assert replay("view", str(log), "-o", str(out), "--all-readings").returncode == 0
    text = out.read_text(encoding="utf-8")
    assert f"Legal under <b>{len(a.legal)}</b> of {len(a.trials)} reading sets" in text
    assert text.count('<tr class="legal">') == len(a.legal)
    assert text.count('<tr class="not-legal">') == len(a.trials) - len(a.legal)


@pytest.mark.parametrize("log", sorted(GAMES.glob("*/*/*.json")) + sorted(BROKEN.glob("*-illegal-*.json")),
                         ids=lambda p: "/".join(p.parts[-3:]))
def test_every_example_is_viewed(log: Path) -> None:
    from replay.view.model import replay_log
    from replay.view.render import standalone_page

    v = replay_log(log.read_bytes(), str(log))
    page = standalone_page(v, None)
    report = check_bytes(log.read_bytes(), str(log))
    replayed = report.replayed if report.first is None or report.first.move is None else report.first.move
    assert len(v.steps) == replayed + 1
    assert page.count('<section class="step') == replayed + 1 + (v.refused is not None)
    assert (v.refused is not None) == (report.verdict == "illegal" and report.first is not None
                                       and report.first.move is not None)


# --------------------------------------------------------------------------- analyse


def _analysis(log: Path, tmp: Path, *extra: str) -> dict:
    out = tmp / (log.stem + ".analysis.json")
    r = replay("analyse", str(log), "--nodes", "200", "-o", str(out), "--force", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_analyse_is_deterministic_with_a_node_budget(tmp_path: Path) -> None:
    a = replay("analyse", str(EXILES_LOST), "--nodes", "200", "--format", "json")
    b = replay("analyse", str(EXILES_LOST), "--nodes", "200", "--format", "json")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert doc["deterministic"] is True and doc["budget"] == {"nodes": 200, "seconds": None, "method": "portfolio"}
    assert doc["log_sha256"] == hashlib.sha256(EXILES_LOST.read_bytes()).hexdigest()


def test_analyse_infers_soundly_and_names_the_losing_move(tmp_path: Path) -> None:
    from replay.solver.analyse import analysis_of

    raw = EXILES_LOST.read_bytes()
    doc, positions = analysis_of(raw, str(EXILES_LOST), Budget(nodes=1000))  # enough to settle the end
    data = json.loads(raw)
    n = len(data["moves"])
    assert [p["position"] for p in doc["positions"]] == list(range(n + 1))
    assert doc["searched"] + doc["inferred"] == n + 1
    assert doc["inferred"] > doc["searched"]  # monotonicity saved most of the searches
    # every winnable position, searched or inferred, has a line that the validator accepts as a win
    for p in positions:
        if p.status == WON:
            won = dict(data, moves=data["moves"][: p.position] + p.entries, result="won")
            report = check_bytes(json.dumps(won).encode(), "line")
            assert report.verdict == "valid" and report.outcome == "won", (p.position, report.first)
            assert len(p.line) == len(p.entries)
    # an inferred loss follows a searched one, earlier in the log; and the search agrees where it can tell
    from replay.log.validate import instance, parse, replay_to

    log = parse(raw)
    for p in positions:
        if p.status == UNWINNABLE and p.how == "inferred":
            assert p.source is not None and p.source < p.position
            assert positions[p.source].status == UNWINNABLE and positions[p.source].how == "solved"
    inferred_lost = [p.position for p in positions if p.status == UNWINNABLE and p.how == "inferred"]
    for k in inferred_lost[:3]:
        inst, table, _, _ = replay_to(log, k)
        assert solve(inst.game, table=table, budget=Budget(nodes=20_000)).status != WON
    assert instance(log.game, log.variants, log.rulings).game.id == doc["game"]
    la = doc["lost_after"]
    if la is not None:
        assert doc["positions"][la]["status"] == UNWINNABLE and doc["positions"][la - 1]["status"] == WON
        assert f"Move {la} ({doc['moves_list'][la - 1]}), $.moves[{la - 1}] of the log, lost the game" in doc["summary"]


def test_analyse_says_unknown_plainly_when_the_budget_runs_out(tmp_path: Path) -> None:
    r = replay("analyse", str(ZK_LOST), "--nodes", "50")
    assert r.returncode == 0, r.stderr
    doc_lines = r.stdout.splitlines()
    assert "budget per position: 50 nodes (deterministic)" in doc_lines[0]
    assert any("unknown within budget" in ln and "the nodes budget ran out" in ln for ln in doc_lines)
    assert re.search(r"\d+ positions? searched, \d+ inferred\.", doc_lines[-1])


def test_analyse_stops_at_the_refused_move(tmp_path: Path) -> None:
    log = BROKEN / "zk-illegal-zk-8.json"
    report = check_bytes(log.read_bytes(), str(log))
    assert report.first is not None and report.first.move is not None
    doc = _analysis(log, tmp_path)
    assert doc["analysed"] == report.first.move and len(doc["positions"]) == report.first.move + 1
    assert doc["stopped"]["move"] == report.first.move + 1 and doc["stopped"]["clause"] == report.first.clause
    text = replay("analyse", str(log), "--nodes", "50").stdout
    assert f"breaks the rules at move {report.first.move + 1} ($.moves[{report.first.move}]) ({report.first.clause})" in text


@pytest.mark.parametrize("args,code,needle", [
    ([str(BROKEN / "truncated.json")], 1, "truncated.json"),
    ([str(BROKEN / "zk-unknown-pile.json")], 1, "unknown pile"),
    ([str(ROOT / "no-such-log.json")], 2, "no-such-log.json"),
    ([str(ZK_LOST), "--nodes", "0"], 2, "budget"),
    ([str(ZK_LOST), "--nodes", "-3"], 2, "--nodes"),
    ([str(ZK_LOST), "--seconds", "0"], 2, "--seconds"),
    ([str(ZK_LOST), "-o", str(ZK_LOST), "--force"], 2, "it is an input of this command"),
    ([str(ZK_LOST), "--format", "yaml"], 2, "--format"),
])
def test_analyse_rejects_bad_input_in_one_line(args: list[str], code: int, needle: str) -> None:
    assert needle in one_line_error(replay("analyse", *args), code)


def test_view_shows_the_analysis_and_refuses_one_of_another_log(tmp_path: Path) -> None:
    doc = _analysis(EXILES_LOST, tmp_path)
    analysis = tmp_path / (EXILES_LOST.stem + ".analysis.json")
    out = tmp_path / "analysed.html"
    assert replay("view", str(EXILES_LOST), "--analysis", str(analysis), "-o", str(out)).returncode == 0
    text = out.read_text(encoding="utf-8")
    for status in ("won", "unwinnable", "unknown"):
        want = sum(p["status"] == status for p in doc["positions"])
        assert len(re.findall(rf'data-step="\d+" class="rv-cell an-{status}[ "]', text)) == want, status
    if doc["lost_after"] is not None:
        # its timeline cell and its place in the move list
        assert re.findall(r'data-step="(\d+)"[^>]*\ban-lost\b', text) == [str(doc["lost_after"])] * 2
    # an analysis of another log, and a file that is not an analysis
    line = one_line_error(replay("view", str(ZK_LOST), "--analysis", str(analysis), "-o", str(tmp_path / "x.html")),
                          1)
    assert "another log" in line
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "replay-analysis/1", "positions": "all won"}), encoding="utf-8")
    assert "not an analysis" in one_line_error(
        replay("view", str(ZK_LOST), "--analysis", str(bad), "-o", str(tmp_path / "y.html")), 1)
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "y.html").exists()


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay import fsio

    target = tmp_path / "out.html"
    target.write_text("old", encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsio.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        fsio.atomic_write(target, b"new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(os.listdir(tmp_path)) == ["out.html"]


def test_analyse_shows_a_progress_bar_on_a_terminal_only() -> None:
    """Standard error a pseudo-terminal: the bar is drawn there; a pipe: nothing but the result."""
    import pty
    import select

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "replay", "analyse", str(EXILES_LOST), "--nodes", "200"],
                                stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, env={**os.environ, "COLUMNS": "100"})
        os.close(slave)
        seen = b""
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed: the command has ended
                break
            if not chunk:
                break
            seen += chunk
        out, _ = proc.communicate(timeout=300)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b"analysing" in seen and b"\xe2\x94\x81" in seen  # the label and the bar's line (rich's '━')
    assert b"analysing" not in out and out.decode().splitlines()[-1].endswith("inferred.")
    piped = replay("analyse", str(EXILES_LOST), "--nodes", "200")
    assert piped.stderr == ""


def test_view_links_into_a_site_built_on_disk_or_says_it_cannot_link(tmp_path: Path) -> None:
    log = BROKEN / "zk-illegal-zk-8.json"
    p = check_bytes(log.read_bytes(), str(log)).first
    assert p is not None and p.clause
    site = tmp_path / "site"
    site.mkdir()
    out = tmp_path / "local.html"
    r = replay("view", str(log), "-o", str(out), "--rules-url", str(site))
    assert r.returncode == 0, r.stderr
    href = f'href="{site.resolve().as_uri()}/games/zwarta-kolumna/index.html#{p.clause}"'
    assert href in out.read_text(encoding="utf-8")
    r = replay("view", str(log), "-o", str(tmp_path / "unlinked.html"), "--rules-url", "")
    assert r.returncode == 0 and "not linked" in r.stderr
    text = (tmp_path / "unlinked.html").read_text(encoding="utf-8")
    assert '<span class="rv-clause"' in text and 'class="rv-clause" href=' not in text


def test_analyse_gives_the_best_line_where_it_cannot_decide() -> None:
    """Where the search runs out of budget, the best line it found is given and is legal, as the user may play it."""
    from replay.solver.logs import steps_from
    from replay.solver.analyse import analysis_of

    raw = ZK_LOST.read_bytes()
    doc, positions = analysis_of(raw, str(ZK_LOST), Budget(nodes=300))
    data = json.loads(raw)
    undecided = [p for p in positions if p.how == "solved" and p.status != WON]
    assert undecided, "the Polish deal is not decided in 300 nodes"
    for p in undecided[:3]:
        d = doc["positions"][p.position]
        assert d["best_home"] == p.best_home and d["best_line"] == p.best_line and p.best_line
        r = solve(*_game_and_table(data, p.position), budget=Budget(nodes=300))
        assert r.best_home == p.best_home
        game, table = _game_and_table(data, p.position)
        entries = steps_from(game, table, r.best_line)
        longer = {k: v for k, v in data.items() if k != "result"}
        longer["moves"] = data["moves"][: p.position] + entries
        report = check_bytes(json.dumps(longer).encode(), "best line")
        assert report.verdict == "valid", report.first
        for m in r.best_line:
            table.apply(m)
        assert table.cards_home() == p.best_home


def _game_and_table(data: dict, k: int):
    from replay.log.validate import parse, replay_to

    inst, table, made, _ = replay_to(parse(json.dumps(data).encode()), k)
    assert made == k
    return inst.game, table


# --------------------------------------------------------------------------- hostile input (issue 23 §3)


def test_view_of_a_log_with_a_lone_surrogate_is_malformed_not_a_traceback(tmp_path: Path) -> None:
    text = ZK_LOST.read_text(encoding="utf-8").replace('"type": "deal"', '"type": "deal", "comment": "\\ud800"', 1)
    assert "\\ud800" in text
    log = tmp_path / "surrogate.json"
    log.write_text(text, encoding="utf-8")
    r = replay("view", str(log), "-o", str(tmp_path / "out.html"))
    line = one_line_error(r, 1)
    assert "malformed" in line and "lone surrogate" in line
    assert not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("url", ["javascript:alert(1)//", "JavaScript:alert(1)", "data:text/html,<b>x</b>",
                                 "java\tscript:alert(1)", " javascript:alert(1)", "vbscript:x", "\x01https://x/"])
def test_view_refuses_a_rules_url_that_is_not_http_file_or_relative(tmp_path: Path, url: str) -> None:
    r = replay("view", str(ZK_LOST), "-o", str(tmp_path / "out.html"), "--rules-url", url)
    line = one_line_error(r, 2)
    assert "--rules-url" in line
    assert not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("url", ["https://rules.example/replay/", "http://127.0.0.1:8000/", "file:///tmp/site/",
                                 "../no-such-site/", "no-such-site/"])
def test_view_takes_http_file_and_relative_rules_urls(tmp_path: Path, url: str) -> None:
    r = replay("view", str(ZK_LOST), "-o", str(tmp_path / "out.html"), "--rules-url", url)
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert f'href="{url.rstrip("/")}/games/zwarta-kolumna/' in page


def test_the_viewers_policy_lets_only_its_own_script_run(tmp_path: Path) -> None:
    import base64

    from replay.view.render import script

    out = tmp_path / "out.html"
    assert replay("view", str(ZK_LOST), "-o", str(out)).returncode == 0
    page = out.read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and scripts[0] == "\n" + script()
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]


def test_the_viewer_title_is_the_game_and_it_carries_the_log(tmp_path: Path) -> None:
    out = tmp_path / "out.html"
    assert replay("view", str(ZK_LOST), "-o", str(out)).returncode == 0
    page = out.read_text(encoding="utf-8")
    assert "<title>Compact Column" in page and "lost-seed-1.json</title>" in page
    block = re.search(r'<script type="application/json" class="rv-log">(.*?)</script>', page, re.S)
    assert block and json.loads(block.group(1)) == ZK_LOST.read_text(encoding="utf-8")
    assert 'class="rv-legal"' in page and "Legal here" in page


def test_the_viewer_lists_a_move_to_interchangeable_foundations_once_as_replay_play_does() -> None:
    """An ace of Napoleon's Square may go to any of the eight empty foundations: the step's legal moves name it
    once, to the first, with the others beside it, and count the moves as replay play numbers them."""
    from replay.log.validate import parse, replay_to
    from replay.play.moves import choices
    from replay.view.model import replay_log
    from replay.view.render import viewer_html

    log = GAMES / "napoleons-square" / "base" / "lost-seed-1.json"
    v = replay_log(log.read_bytes(), log.name)
    step = next(s for s in v.steps if any("(or " in m for m in s.legal))
    ace = next(m for m in step.legal if "(or " in m)
    move, _, alike = ace.partition(" (or ")
    source = move.split("→")[0]
    assert move.split("→")[1].startswith("f1 ") and alike == "f2, f3, f4, f5, f6, f7, f8: the same)"
    assert not [m for m in step.legal if m.startswith(f"{source}→f") and m != ace]  # not eight times
    _, table, made, _ = replay_to(parse(log.read_bytes()), step.n)
    assert made == step.n and len(step.legal) == len(choices(table))
    page = viewer_html(v, None)
    assert f"<code>{move}</code> (or {alike}" in page
    assert f"Legal here ({len(step.legal)} moves)" in page


@pytest.mark.parametrize("log", sorted(GAMES.glob("*/*/*.json")) + sorted(BROKEN.glob("*-illegal-*.json")),
                         ids=lambda p: "/".join(p.parts[-3:]))
def test_the_viewers_shared_lines_give_back_what_replay_draw_renders_at_every_step(log: Path) -> None:
    """The viewer stores each line of SVG once, deflated (issue 33); the drawing :func:`replay.view.render.frame_svg` reads
    back at each step, as the script does, is :func:`replay.draw.svg.table_svg` of that step's table, and on a
    phone the same with the phone's sizes and folded rows."""
    from replay.draw.svg import fitted, fold, table_svg
    from replay.view.model import replay_log
    from replay.view.render import NARROW, frame_svg, viewer_data, viewer_html

    v = replay_log(log.read_bytes(), str(log))
    data = viewer_data(viewer_html(v, None))
    lay = v.game.layout
    shown = [(s.snapshot, s.src, s.dst) for s in v.steps]
    if v.refused is not None:
        shown.append((v.steps[-1].snapshot, v.refused.src, v.refused.dst))
    assert len(data["steps"]) == len(shown)
    metrics, across = fitted(NARROW, lay.cols)
    rows, cols = fold(lay.rows, lay.cols, across)
    for k, (snap, src, dst) in enumerate(shown):
        label = data["steps"][k]["label"]
        want = table_svg(lay.names, lay.roles, lay.rows, lay.cols, snap["piles"],
                         foundation_suits=snap.get("foundation_suits"), src=src, dst=dst, label=label)
        assert frame_svg(data, k) + "\n" == want, k
        if "narrow" in data:
            want = table_svg(lay.names, lay.roles, rows, cols, snap["piles"],
                             foundation_suits=snap.get("foundation_suits"), src=src, dst=dst, label=label,
                             metrics=metrics)
            assert frame_svg(data, k, phone=True) + "\n" == want, k
    # every line is stored once
    assert len(set(data["lines"])) == len(data["lines"])
