"""README: a user's section and a maintainers' section; the distinctive distribution name (issue #16 §2)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from replay.cli import DISTRIBUTION

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sections() -> tuple[str, str]:
    users = README.index("\n# For users\n")
    maintainers = README.index("\n# For maintainers\n")
    assert users < maintainers
    return README[users:maintainers], README[maintainers:]


def test_commands_that_rewrite_committed_files_are_for_maintainers_only():
    users, maintainers = sections()
    for rewrites in ("coverage --update", "corpus lock", "corpus schema", "stats --table", "stats --page",
                     "make_examples.py", "replay.cli.docs"):
        assert rewrites not in users, rewrites
        assert rewrites in maintainers, rewrites
    assert "hours on two cores (resumable)" in maintainers  # what the statistics table costs, said where it is run


def test_the_users_section_walks_through_a_game_of_ones_own():
    users, _ = sections()
    walk = users[users.index("## A first game"):users.index("## Validating logs")]
    for command in ("replay deal", "replay play", "replay moves", "replay analyse", "replay view"):
        assert command in walk, command
    assert "README" not in walk and "WALK-THROUGH" not in walk  # no placeholder left
    head = README[:README.index("\n# For users\n")]  # the two commands a new user needs, first
    assert "pip install . && .venv/bin/replay validate examples/games" in head and "./scripts/test" in head


def test_the_distribution_name_is_the_same_everywhere():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION == "patience-replay"
    assert project["scripts"] == {"replay": "replay.cli:main"}  # the command stays replay
    assert f"**`{DISTRIBUTION}`**" in README
    extras = " ".join(project["optional-dependencies"]["test"])
    assert f"{DISTRIBUTION}[docs,stats]" in extras  # the tests build the site and run stats on dask
    assert not re.search(r"version\(['\"]replay['\"]\)", (ROOT / "replay/solver/version.py").read_text())
