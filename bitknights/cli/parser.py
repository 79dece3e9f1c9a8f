"""The argparse side of the command line: the parser every command module registers
into, sized to the terminal.  Imported only when a command line needs parsing (the plain
``bitknights solve [FILE]`` does not: see :func:`bitknights.cli.main`)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from .. import __version__
from .commands import COMMANDS, command_module
from .common import one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NoReturn


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line: every module of :data:`COMMANDS` adds its commands.

    Given the ``argv`` about to be parsed, when its first word is a command, only the module
    that registers that command builds its parsers (the others would cost start-up time
    and cannot affect the result); anything else gets the whole command line."""
    parser = _Parser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
    )
    parser.top = True
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    names = list(COMMANDS)
    if argv:
        names = [n for n, commands in COMMANDS.items() if argv[0] in commands][:1] or names
    for name in names:
        command_module(name).register(sub)
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, sized to the terminal as argparse does, without importing
    shutil for it (shutil imports the compression modules: milliseconds on every start)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Paragraphs wrapped to the terminal; a paragraph of indented lines (a list of
        commands) is kept as written."""
        parts = []
        for part in text.split("\n\n"):
            lines = part.splitlines()
            if any(line.startswith("  ") for line in lines):
                parts.append("\n".join(indent + line for line in lines))
            else:
                parts.append(super()._fill_text(part, width, indent))
        return "\n\n".join(parts)


def _columns() -> int:
    """``shutil.get_terminal_size().columns``: $COLUMNS, else the terminal's, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        if int(os.environ["COLUMNS"]) > 0:
            return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with :class:`_Formatter`; its subparsers are of this class
    too.  A usage error shows the usage of the command it concerns (argparse hands an
    unknown option up to the whole command line's), and a command missing its action
    (``bitknights table``) lists the actions.  Nothing goes to standard output, even
    when standard error is closed."""

    top = False  # the whole command line's parser, not a command's

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and not self.top:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        actions = [a for a in self._actions if isinstance(a, argparse._SubParsersAction)]
        missing = any(message.endswith(f"required: {a.metavar}") for a in actions)
        if sys.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                (self.print_help if missing else self.print_usage)(sys.stderr)
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")
