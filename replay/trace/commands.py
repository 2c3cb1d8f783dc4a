"""Commands of this area (registered by replay.cli)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app`` (none yet)."""
