"""The values of the commands' parameters, taken as typer takes them, without pydantic where a value is plain.

Typer 0.29 and later coerce every parameter of the command they run through a pydantic ``TypeAdapter``
built when the command is called (``typer/_coercion.py``, ``build_runtime_param``): building the first
one imports pydantic's schema machinery, which costs a one-log ``replay validate`` more than all of its
own work.  :func:`install` gives typer a runtime parameter that takes the plain values of the plain
types the commands use itself (a string; a decimal integer within the parameter's bounds; a choice
named exactly; a list of those; a value already of its type) and hands every other value to typer's
own coercion, built at that moment: so an unusual value (``05``, `` 5``, ``-1`` where the minimum is
0, a path, a float) and every refusal and its words are typer's.  The plain values are those for
which typer's adapter gives the same value, which ``tests/test_cli_params.py`` holds on every
parameter of every command (the same value, or the same refusal, on plain and unusual inputs alike).
With a typer that has no such coercion, nothing is changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, get_args, get_origin

#: a value that is not plain: typer's own coercion takes it
UNSURE: Any = object()
#: the integers taken here: decimal digits without sign, leading zero, space or underscore
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z", re.ASCII)


def plain_value(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    """``value`` as typer's adapter for ``annotation`` (with the parameter's ``info``) would give it, when it
    is plain; else :data:`UNSURE`."""
    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
        return UNSURE
    if get_origin(annotation) is list:
        args = get_args(annotation)
        if len(args) != 1 or not isinstance(value, (list, tuple)):
            return UNSURE
        out = [_leaf(args[0], info, item, ctx) for item in value]
        return UNSURE if any(x is UNSURE for x in out) else out
    return _leaf(annotation, info, value, ctx)


def _leaf(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    if annotation is str:
        return value if type(value) is str else UNSURE
    if annotation is bool:
        return value if type(value) is bool else UNSURE
    if annotation is int:
        if type(value) is str and _DECIMAL.match(value):
            value = int(value)
        if type(value) is not int or getattr(info, "clamp", False):
            return UNSURE
        low, high = getattr(info, "min", None), getattr(info, "max", None)
        if (low is not None and value < low) or (high is not None and value > high):
            return UNSURE
        return value
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        if isinstance(value, annotation):
            return value
        if type(value) is not str or not getattr(info, "case_sensitive", True) or \
                getattr(ctx, "token_normalize_func", None) is not None:
            return UNSURE
        for choice in annotation:
            if str(choice.value) == value:
                return choice
    return UNSURE


def install() -> None:
    """Have typer (0.29 and later) build runtime parameters that take plain values without pydantic."""
    try:
        from typer import core
        from typer._coercion import RuntimeParam
    except ImportError:  # a typer without pydantic coercion: nothing to spare
        return
    original: Callable[[Any], Any] | None = getattr(core, "build_runtime_param", None)
    if original is None or getattr(original, "plain_first", False):
        return

    @dataclass(frozen=True)
    class PlainFirst(RuntimeParam):
        """Plain values here; any other value to typer's coercion, built when first needed."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            done = plain_value(self.annotation, self.parameter_info, value, ctx)
            if done is not UNSURE:
                return done
            assert original is not None
            return original(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def build(descriptor: Any) -> Any:
        assert original is not None
        if getattr(descriptor, "file_annotation", None) is not None:
            return original(descriptor)
        return PlainFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                          descriptor=descriptor)

    build.plain_first = True  # type: ignore[attr-defined]
    build.typers_own = original  # type: ignore[attr-defined]
    core.build_runtime_param = build


__all__ = ["UNSURE", "install", "plain_value"]
