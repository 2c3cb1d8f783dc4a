"""A griffe extension for the API pages: back-links from functions to the clauses they implement.

mkdocstrings renders each function from its docstring; it does not know the clause
registry.  This extension appends to the docstring of every registered function (see
:mod:`replay.engine.registry`) a line such as::

    **Implements** [zk-8][zk-8] · [zk-7][zk-7] · rule · [source, lines 120–131][source:replay.games.zwarta_kolumna.f]

Both are autorefs references: ``zk-8`` resolves to the clause heading on the game page
(its anchor is the clause ID), ``source:…`` to the line range on the generated source
page (registered by the site hooks).  A clause that does not exist leaves an unresolved
reference, which autorefs reports as a warning, so ``mkdocs build --strict`` fails.

It also turns Sphinx roles (``:class:`~replay.engine.errors.IllegalMove```) into code spans,
since the docstrings of this project use them and Markdown does not know them.

Enabled in ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`~?([^`]+)`")


def source_identifier(dotted: str) -> str:
    """The autorefs identifier of a function's line range on its source page."""
    return f"source:{dotted}"


def implements_line(clauses: tuple[str, ...], kind: str, dotted: str, line: int, end_line: int) -> str:
    refs = " · ".join(f"[{c}][{c}]" for c in clauses)
    return (f"**Implements** {refs} · {kind} · "
            f"[source, lines {line}–{end_line}][{source_identifier(dotted)}]")


def _demote_roles(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        target = m.group(1)
        short = target.rsplit(".", 1)[-1] if m.group(0).find("~") >= 0 else target
        return f"`{short}`"

    return ROLE.sub(repl, text)


class ClauseLinks(griffe.Extension):
    """Append ``Implements`` back-links to registered functions; demote Sphinx roles to code."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        from replay.engine import registry
        from replay.games import catalog

        catalog()  # register every rule function
        self.impls = registry.implementations()

    def _fix(self, obj: griffe.Object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _demote_roles(obj.docstring.value)
        impl = self.impls.get(obj.path)
        if impl is None:
            return
        line = implements_line(impl.clauses, impl.kind, impl.name, impl.line, impl.end_line)
        if obj.docstring is None:
            obj.docstring = griffe.Docstring(line, parent=obj)
        else:
            obj.docstring.value = obj.docstring.value.rstrip() + "\n\n" + line

    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:  # noqa: D102
        self._fix(func)

    def on_class_instance(self, *, cls: griffe.Class, **kwargs: Any) -> None:  # noqa: D102
        self._fix(cls)

    def on_module_instance(self, *, mod: griffe.Module, **kwargs: Any) -> None:  # noqa: D102
        self._fix(mod)

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:  # noqa: D102
        self._fix(attr)
