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

from .. import __version__
from ..errors import BitknightsError
from . import play, solve, table
from .common import UsageError

COMMANDS = (solve, table, play)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: every module of :data:`COMMANDS` adds its commands."""
    parser = argparse.ArgumentParser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    parser = build_parser()
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
