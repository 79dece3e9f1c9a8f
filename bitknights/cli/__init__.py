"""The ``bitknights`` command line.  ``python -m bitknights`` runs the same.

Each command group lives in a module of its own with a ``register(sub)`` function that adds
its parser; :data:`COMMANDS` lists them in the order ``bitknights --help`` shows them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..errors import BitknightsError
from . import solve, table
from .common import UsageError

COMMANDS = (solve, table)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line: every module of :data:`COMMANDS` adds its commands.

    Given the ``argv`` about to be parsed, when its first word is a command, only the module
    that registers that command builds its parsers (the others would cost start-up time
    and cannot affect the result); anything else gets the whole command line."""
    parser = _Parser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    modules = COMMANDS
    if argv:
        wanted = [m for m in COMMANDS if argv[0] in _names(m)]
        modules = tuple(wanted[:1]) or COMMANDS
    for module in modules:
        module.register(sub)
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


def _columns() -> int:
    """``shutil.get_terminal_size().columns``: $COLUMNS, else the terminal's, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        if int(os.environ["COLUMNS"]) > 0:
            return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with :class:`_Formatter`; its subparsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


class _Ignore:
    """Stands in for the parsers of a command module being only asked its names: every
    call is accepted and ignored."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> _Ignore:
        return self


class _Names(_Ignore):
    """A stand-in subparsers action that records the commands a module registers."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def add_parser(self, name: str, **kwargs: Any) -> _Ignore:
        self.names.update((name, *kwargs.get("aliases", ())))
        return _Ignore()


def _names(module: Any) -> set[str]:
    """The top-level commands ``module.register`` adds."""
    names = _Names()
    module.register(names)
    return names.names


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return args.run(args, sys.stdout)
    except (UsageError, BitknightsError) as e:
        sys.stderr.write(f"bitknights: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        # worker threads may be deep in a kernel: leave without waiting for them
        sys.stderr.write("bitknights: interrupted\n")
        sys.stderr.flush()
        with contextlib.suppress(BrokenPipeError):
            sys.stdout.flush()
        os._exit(130)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def entry() -> None:
    """The console script: :func:`main`, then leave without the interpreter's slow
    teardown (numba and LLVM take 0.1-0.2 s to unload); everything is flushed first."""
    status = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = 0
    sys.stderr.flush()
    os._exit(status)


__all__ = ["COMMANDS", "UsageError", "build_parser", "entry", "main"]
