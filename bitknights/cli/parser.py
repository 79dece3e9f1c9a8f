"""The argparse side of the command line, sized to the terminal (the plain ``bitknights
solve [FILE]`` needs none: see :func:`bitknights.cli.main`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys

from .. import __version__
from .common import COMMANDS, Environment, command_module, one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import IO, Any, NoReturn


def build_parser(
    argv: Sequence[str] | None = None, env: Environment | None = None
) -> argparse.ArgumentParser:
    """The whole command line, writing to ``env``'s streams, sized to its terminal; when
    ``argv`` (about to be parsed) starts with a command, only that command is built."""
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
    """argparse's help layout: paragraphs wrapped, one of indented lines kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        parts = []
        for part in text.split("\n\n"):
            lines = part.splitlines()
            if any(line.startswith("  ") for line in lines):
                parts.append("\n".join(indent + line for line in lines))
            else:
                parts.append(super()._fill_text(part, width, indent))
        return "\n\n".join(parts)


def _columns(env: Environment) -> int:
    """``shutil.get_terminal_size().columns`` in ``env``, without importing shutil."""
    with contextlib.suppress(KeyError, ValueError):
        if int(env.environ["COLUMNS"]) > 0:
            return int(env.environ["COLUMNS"])
    try:
        return os.get_terminal_size(env.stdout.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` (and subparsers) writing to the streams of ``env``, sized to
    its terminal.  A usage error shows the usage of the command it concerns, a command
    missing its action lists the actions; errors never go to standard output."""

    top = False  # the whole command line's parser, not a command's

    def __init__(self, *args: Any, env: Environment, **kwargs: Any) -> None:
        self.env = env
        kwargs.setdefault("formatter_class", functools.partial(_Formatter, width=_columns(env) - 2))
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction:
        kwargs.setdefault("parser_class", functools.partial(type(self), env=self.env))
        return super().add_subparsers(**kwargs)

    def _print_message(self, message: str, file: object = None) -> None:
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
