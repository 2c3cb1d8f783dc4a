"""Shell completion of what the commands take beyond their commands and options (issue 32): game IDs,
variants, rulings with their readings, clause IDs, each list read from the corpus's edition, so that what
is offered is exactly what the commands accept.

Run as a shell runs it: the script ``replay --show-completion bash`` prints, sourced in bash, with the
words split as bash splits them (at ``=`` too: ``-r foundations=e`` is the words ``foundations``, ``=``,
``e``, and bash replaces only what follows the ``=``); zsh and fish pass whole words.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.corpus.edition import default_edition
from replay.games.catalog import MODULES

BIN = Path(sys.executable).parent
EDITION = default_edition()


def _env() -> dict[str, str]:
    if not (BIN / "replay").exists():
        pytest.skip("the replay console script is not installed beside this Python")
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def bash(*words: str, cword: int | None = None) -> list[str]:
    """What bash's completion offers for ``words`` (the last is the word being completed; ``cword`` another)."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in ("replay", *words))
    at = len(words) if cword is None else cword
    script = (f"source <(replay --show-completion bash)\nCOMP_WORDS=({quoted}); COMP_CWORD={at}; "
              "_replay_completion replay; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 0 and not p.stderr, p.stderr
    return [x for x in p.stdout.splitlines() if x]


def test_game_ids_are_completed():
    assert bash("deal", "") == list(MODULES)
    assert bash("deal", "ex") == ["exiles"]
    assert bash("stats", "--only", "n") == ["napoleons-square"]
    assert "exiles" in bash("solve", "--game", "")
    assert bash("play", "zw") == ["zwarta-kolumna"]  # LOG|GAME: a game ID, or a file


def test_variants_of_the_game_given_are_completed():
    for game in MODULES:
        want = [v.id for v in EDITION.games[game].variants]
        assert bash("deal", game, "--variant", "") == want, game
    every = {v.id for g in MODULES for v in EDITION.games[g].variants}
    assert set(bash("solve", "--variant", "")) == every  # no game yet: every game's


def test_rulings_are_completed_as_name_and_reading():
    rulings = EDITION.rulings_of("exiles")
    pairs = [f"{n}={x}" for n, r in rulings.items() for x in r.readings]
    assert bash("play", "exiles", "-r", "") == pairs
    assert bash("play", "exiles", "--ruling", "foundations") == [p for p in pairs if p.startswith("foundations")]


def test_a_reading_after_the_equals_sign_is_completed_as_bash_splits_the_word():
    readings = list(EDITION.rulings_of("exiles")["foundations"].readings)
    # '-r foundations=' : the current word is the '=', and bash inserts what follows it
    assert bash("play", "exiles", "-r", "foundations", "=", cword=5) == readings
    # '-r foundations=e' : bash replaces the 'e'
    assert bash("play", "exiles", "-r", "foundations", "=", "e") == [x for x in readings if x.startswith("e")]


def test_clause_ids_are_completed_for_trace():
    assert bash("trace", "pf-2") == [c for c in EDITION.clauses if c.startswith("pf-2")]
    ambiguities = {r.ambiguity for r in EDITION.rulings_of("exiles").values()}
    assert set(bash("trace", "amb-ex-")) == ambiguities


def test_zsh_and_fish_get_whole_words_with_their_help():
    env = {**_env(), "_TYPER_COMPLETE_ARGS": "replay play exiles -r foundations=e"}
    z = subprocess.run(["replay"], capture_output=True, text=True, env={**env, "_REPLAY_COMPLETE": "complete_zsh"})
    assert '"foundations=eight-aces":"amb-ex-foundations"' in z.stdout, z.stdout + z.stderr
    env["_TYPER_COMPLETE_ARGS"] = "replay deal printex-frame --variant c"
    f = subprocess.run(["replay"], capture_output=True, text=True,
                       env={**env, "_REPLAY_COMPLETE": "complete_fish", "_TYPER_COMPLETE_FISH_ACTION": "get-args"})
    assert f.stdout.splitlines() == ["cztery-katy\tFour corners"], f.stdout + f.stderr
