"""The argparse side of the command line: the parser every command module registers
into, sized to the terminal.  Imported only when a command line needs parsing (the plain
``bitknights solve [FILE]`` does not: see :func:`bitknights.cli.main`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys

from .. import __version__
from .commands import COMMANDS, command_module
from .common import one_line
from .environment import Environment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import IO, Any, NoReturn


def build_parser(
    argv: Sequence[str] | None = None, env: Environment | None = None
) -> argparse.ArgumentParser:
    """The whole command line: every module of :data:`COMMANDS` adds its command.  Help,
    usage and errors go to ``env``'s streams (default: the process's), sized to its
    terminal.

    Given the ``argv`` about to be parsed, when its first word is a command, only that
    command's module builds its parser (the others would cost start-up time and cannot
    affect the result); anything else gets the whole command line."""
    parser = _Parser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
        env=Environment() if env is None else env,
    )
    parser.top = True
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    names = [argv[0]] if argv and argv[0] in COMMANDS else COMMANDS
    for name in names:
        command_module(name).register(sub)
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout; :class:`_Parser` gives it the width of its run's terminal
    (:func:`_columns`: as argparse finds it, without importing shutil, which imports the
    compression modules: milliseconds on every start)."""

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


def _columns(env: Environment) -> int:
    """``shutil.get_terminal_size().columns`` in ``env``: $COLUMNS, else its standard
    output's terminal's, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        if int(env.environ["COLUMNS"]) > 0:
            return int(env.environ["COLUMNS"])
    try:
        return os.get_terminal_size(env.stdout.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that writes to the streams of ``env``, with
    :class:`_Formatter` sized to its terminal; its subparsers are of this class too.  A
    usage error shows the usage of the command it concerns (argparse hands an unknown
    option up to the whole command line's), and a command missing its action
    (``bitknights table``) lists the actions.  Nothing goes to standard output, even
    when standard error is closed."""

    top = False  # the whole command line's parser, not a command's

    def __init__(self, *args: Any, env: Environment, **kwargs: Any) -> None:
        self.env = env
        kwargs.setdefault("formatter_class", functools.partial(_Formatter, width=_columns(env) - 2))
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction:
        kwargs.setdefault("parser_class", functools.partial(type(self), env=self.env))
        return super().add_subparsers(**kwargs)

    def _print_message(self, message: str, file: object = None) -> None:
        """argparse writes help and ``--version`` to ``sys.stdout`` and errors to
        ``sys.stderr``: here, to this run's streams."""
        if file is sys.stdout:
            file = self.env.stdout
        elif file is sys.stderr:
            file = self.env.stderr
        _write(file, message)  # type: ignore[arg-type]

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
        _write(self.env.stderr, self.format_help() if missing else self.format_usage())
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def _write(stream: IO[str] | None, text: str) -> None:
    if text and stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(text)
