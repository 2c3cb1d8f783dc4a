"""Where the project's own files are: the root of a checkout (``mkdocs.yml``, ``examples/``, ``tests/``
beside ``replay/``), for the commands and the site that read them.  A utility below every layer."""

from __future__ import annotations

from pathlib import Path

#: the project root of a checkout (in an installed copy: the folder that holds the package)
ROOT = Path(__file__).resolve().parents[1]
