"""axe-core, the accessibility checker the site's test runs in Chromium (``tests/test_site_axe.py``).

``axe-core.json`` (beside this module) pins it as ``pyodide.json`` pins the Play page's runtime: the npm
package, its version, the SHA-512 of its tarball and the files used.  :func:`axe_source` has them through
:func:`replay.site.runtime.fetched`: from the cache (``axe-core/`` in the corpus's cache directory) when
they were fetched before, else with ``npm pack``, the tarball checked against the pinned hash.  The site
never serves it: the test injects the script into each page it checks.
"""

from __future__ import annotations

from pathlib import Path

from replay.site import runtime

PIN_FILE = Path(__file__).with_name("axe-core.json")


def pin() -> runtime.Pin:
    """The pinned axe-core (``axe-core.json``)."""
    return runtime.pin(PIN_FILE)


def axe_source() -> str:
    """The text of ``axe.min.js`` at the pinned version; raises :class:`replay.site.runtime.Unavailable`."""
    return runtime.fetched(PIN_FILE, "axe-core")["axe.min.js"].decode("utf-8")


__all__ = ["PIN_FILE", "axe_source", "pin"]
