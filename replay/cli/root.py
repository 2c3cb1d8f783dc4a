"""The application: the Typer app, its root options and its error handling (:func:`run`).

:mod:`replay.cli` (the package) is the light entry point that imports this module; see its docstring.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any, Optional

import typer
import typer.main
from typer.core import TyperGroup

from replay import settings
from replay.cli.names import BROKEN_PIPE, DISTRIBUTION
from replay.cli.params import install as install_plain_values

class Commands(TyperGroup):
    """The app's commands, each module of :data:`COMMANDS` imported when one of its commands is called.

    ``replay validate`` imports the module of ``validate`` alone; whatever lists the commands (``--help``,
    completion, a suggestion for a misspelt name, ``commands`` read from outside) gets them all, in the
    order of :data:`COMMANDS`.  Each module adds its commands to an app of its own
    (``register(app)``), made into click commands as typer makes them for this one.
    """

    @property  # type: ignore[override]
    def commands(self) -> dict[str, Any]:
        """Every command, by name, in the order of :data:`COMMANDS` (each module imported)."""
        self._load(*COMMANDS)
        return {name: self._made[name] for names in COMMANDS.values() for name in names if name in self._made} | {
            name: cmd for name, cmd in self._made.items() if not any(name in n for n in COMMANDS.values())}

    @commands.setter
    def commands(self, value: Any) -> None:
        self._made: dict[str, Any] = dict(value)
        self._areas: dict[str, typer.Typer] = {}  # each module's own app, its commands registered
        self._loaded: set[str] = set()  # the modules whose every command is made

    def add_command(self, cmd: Any, name: Optional[str] = None) -> None:
        self._made[name or cmd.name] = cmd

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self._made:
            for module, names in COMMANDS.items():
                if cmd_name in names:
                    self._make(module, cmd_name)
        return self._made.get(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def _load(self, *modules: str) -> None:
        for module in modules:
            self._make(module)

    def _make(self, module: str, only: Optional[str] = None) -> None:
        """Make the commands ``module`` adds: only the one named ``only`` when it is a plain command (typer
        reads the signature of every command it makes), else all of them."""
        if module in self._loaded:
            return
        area = self._areas.get(module)
        if area is None:
            area = self._areas[module] = self._app()
            importlib.import_module(module).register(area)
            _fill_help(area)  # each paragraph one line, for the terminal to fill (the commands are made here)
        if only is not None and not area.registered_groups:
            part = self._app()
            part.registered_commands = [c for c in area.registered_commands if c.name == only]
            if part.registered_commands:
                area = part
        if area is self._areas[module]:
            self._loaded.add(module)
        for name, cmd in typer.main.get_group(area).commands.items():
            self._made.setdefault(name, cmd)

    @staticmethod
    def _app() -> typer.Typer:
        return typer.Typer(rich_markup_mode=app.rich_markup_mode, pretty_exceptions_short=app.pretty_exceptions_short)


app = typer.Typer(
    name="replay",
    cls=Commands,
    help="Digitized-rules archive and replay tool for old patience rule texts.",
    epilog=settings.epilog(),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_line() -> str:
    """``replay VERSION (DISTRIBUTION, commit HASH)``: what ``replay --version`` prints."""
    from replay import __version__

    try:
        from importlib.metadata import PackageNotFoundError, version

        ver = version(DISTRIBUTION)
    except PackageNotFoundError:
        ver = __version__
    from replay.solver.version import build_commit

    return f"replay {ver} ({DISTRIBUTION}, commit {build_commit() or 'unknown'})"


def _show_version(value: bool) -> None:
    if value:
        from replay.fastcore.build import status

        typer.echo(version_line())
        typer.echo(status())
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Optional[bool] = typer.Option(None, "--version", "-V", is_eager=True, callback=_show_version,
                                           help="Print the version and the commit, and exit."),
) -> None:
    """Digitized-rules archive and replay tool for old patience rule texts."""
    try:
        settings.check_all()  # before any command: a value that cannot be read is one line, not ignored
    except settings.SettingError as e:
        from replay.cli.common import fail

        fail(str(e))


def _conventional_help() -> None:
    """Show parameters in help as a seasoned command-line user expects them.

    Typer's own display writes the Python type of every parameter (``--help <bool>``,
    ``<list[str]>``, ``<int range>``) and braces a required argument in the usage line
    (``{PATH...}...``).  Here: a flag shows no value; an option shows its metavar (or
    ``INTEGER``, ``TEXT`` …, or its choices as ``[text|json]``); an argument is its metavar,
    with ``...`` when it takes several and brackets when it is optional.
    """
    from typer.core import TyperArgument, TyperOption

    def bare(param: Any) -> str:
        desc = getattr(param, "type_descriptor", None)
        annotation = getattr(desc, "annotation", None)
        if getattr(desc, "is_list", False) and getattr(annotation, "__args__", None):
            annotation = annotation.__args__[0]  # type: ignore[union-attr]
        name = getattr(annotation, "__name__", "") or "TEXT"
        return {"int": "INTEGER", "float": "FLOAT", "str": "TEXT", "bool": "BOOLEAN"}.get(name, name.upper())

    def option_value(self: Any, ctx: Any) -> Optional[str]:
        if self.is_flag or self.count:
            return None
        if self.metavar is not None:
            return str(self.metavar)
        desc = getattr(self, "type_descriptor", None)
        choices = getattr(desc, "choices", None) if getattr(desc, "is_choice", False) else None
        if choices:
            return "[" + "|".join(str(getattr(c, "value", c)) for c in choices) + "]"
        return bare(self)

    def argument_name(self: Any) -> str:
        name = str(self.metavar) if self.metavar is not None else str(self.name).upper()
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return name

    def argument_usage(self: Any) -> str:
        name = argument_name(self)
        return name if self.required else f"[{name}]"

    setattr(TyperOption, "display_type_rich", option_value)
    setattr(TyperArgument, "display_type_rich", lambda self, ctx: None)
    setattr(TyperArgument, "_rich_display_name", argument_name)
    setattr(TyperArgument, "display_name_raw", property(argument_name))
    setattr(TyperArgument, "_usage_display_name", argument_usage)


_conventional_help()
install_plain_values()

#: the modules that add commands to the app (``register(app)``) and the commands each adds, in the order
#: they appear in --help; a module is imported when one of its commands is called (:class:`Commands`)
COMMANDS: dict[str, tuple[str, ...]] = {
    "replay.cli.games": ("games",),
    "replay.cli.log": ("validate", "show", "deal", "schema"),
    "replay.cli.play": ("moves", "play"),
    "replay.cli.solver": ("solve", "stats"),
    "replay.cli.trace": ("trace", "coverage"),
    "replay.cli.view": ("view", "analyse"),
    "replay.cli.corpus": ("corpus",),  # a group of commands: typer lists groups after the commands
}
COMMAND_MODULES = tuple(COMMANDS)


def _filled(text: str) -> str:
    """A help text whose paragraphs are each one line, for the terminal to fill to its width: Typer joins the
    lines of a docstring's first paragraph but keeps the source's line breaks in the others, which at another
    width than the source's come out ragged (a full line, then a word or two).  A paragraph marked ``\\b``
    (click's "do not rewrap") or laid out as a list or an indented block keeps its lines."""
    out = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines = para.splitlines()
        kept = para.startswith("\b") or any(x[:1].isspace() or x.startswith(("- ", "* ", "| ")) for x in lines)
        out.append(para if kept else " ".join(para.split()))
    return "\n\n".join(out)


def _fill_help(typer_app: typer.Typer) -> None:
    """Give every command (and group) of ``typer_app`` its help text :func:`_filled`."""
    for info in typer_app.registered_commands:
        text = info.help or (inspect.getdoc(info.callback) if info.callback else None)
        if text:
            info.help = _filled(text)
    for group in typer_app.registered_groups:
        sub = group.typer_instance
        if sub is None:
            continue
        if sub.info.help:
            sub.info.help = _filled(str(sub.info.help))
        _fill_help(sub)


_fill_help(app)

importlib.import_module("replay.cli.complete").install()  # bash completes NAME=READING across its '=' too


def _click_class(name: str) -> Any:
    """Click's exception class ``name`` (typer may vendor its own copy of click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def run() -> None:
    """The app, as the ``replay`` console script runs it (:func:`replay.cli.main`).

    Library errors (bad input) become one line and exit 1; usage errors one line and exit 2.
    """
    from replay.engine.errors import ReplayError

    usage_error, click_error = _click_class("UsageError"), _click_class("ClickException")
    try:
        code = app(standalone_mode=False)
        sys.stdout.flush()
    except BrokenPipeError:
        _closed_pipe()
    except SystemExit:
        if _pipe_was_closed():  # click met the broken pipe first: it exits 1, which reads as "rejected"
            _closed_pipe()
        raise
    except usage_error as e:
        ctx = getattr(e, "ctx", None)
        where = ctx.command_path if ctx is not None else "replay"
        if type(e).__name__ == "NoSuchOption":
            e.possibilities = _near(e.option_name, ctx)
        message = " ".join(e.format_message().split())
        if message:  # empty when the help has just been shown for a bare command group
            typer.echo(f"replay: {message} (see '{where} --help')", err=True)
        sys.exit(2)
    except click_error as e:
        typer.echo(f"replay: {' '.join(e.format_message().split())}", err=True)
        sys.exit(getattr(e, "exit_code", 1))
    except typer.Abort:
        typer.echo("replay: aborted", err=True)
        sys.exit(1)
    except ReplayError as e:
        typer.echo(f"replay: {e.one_line()}", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def _near(option: str, ctx: Any) -> list[str]:
    """The command's options that ``option`` (not one of them) is likely a misspelling of: compared without
    their dashes, which click counts in (``--bogus`` was "close" to ``--jobs`` for its dashes alone)."""
    import difflib

    if ctx is None or not option.startswith("--"):
        return []
    names = [o for p in ctx.command.get_params(ctx) for o in (*p.opts, *p.secondary_opts) if o.startswith("--")]
    bare = {n[2:]: n for n in names}
    return [bare[m] for m in difflib.get_close_matches(option[2:], list(bare), n=3, cutoff=0.7)]


def _pipe_was_closed() -> bool:
    """Whether click has met a closed standard output (it then wraps the stream to keep it quiet)."""
    wrapper = getattr(getattr(typer, "_click", None), "utils", None)
    cls = getattr(wrapper, "PacifyFlushWrapper", None)
    if cls is None:  # typer without its own copy of click
        cls = getattr(sys.modules.get("click.utils"), "PacifyFlushWrapper", None)
    return cls is not None and isinstance(sys.stdout, cls)


def _closed_pipe() -> None:
    """The reader of standard output went away (``| head -1``): stop quietly, as ``cat`` would."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit must not fail again
    except OSError:
        pass
    os._exit(BROKEN_PIPE)
