"""The ``bitknights`` command line.  ``python -m bitknights`` runs the same."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from typing import IO

from . import __version__
from .api import DEFAULT_MAX_DEPTH, ENGINE_CHOICES, iter_solve
from .batch import classic_lines, decode, json_lines, read_batch, read_board
from .board import TARGET, Board
from .errors import BitknightsError, InputError
from .solution import Solution


class UsageError(Exception):
    """A problem the command line reports as ``bitknights: error: ...`` with status 2."""


def _read_source(path: str, what: str = "") -> str:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {what}{path}: {e.strerror or e}") from None
    try:
        return decode(data)
    except InputError as e:
        raise UsageError(f"{what}{_where(path)}{e}") from None


def _where(path: str) -> str:
    return "" if path == "-" else f"{path}: "


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "solve",
        help="solve a batch of boards in the classic format",
        description="Read T and then T boards (classic SCOI2005 format) and print, for each, "
        "the fewest moves to the target, or -1 when that is more than the limit.",
    )
    p.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the batch to read; '-' or nothing reads standard input",
    )
    p.add_argument(
        "--engine", choices=ENGINE_CHOICES, default="auto", help="search engine (default: auto)"
    )
    depth = p.add_mutually_exclusive_group()
    depth.add_argument(
        "--max-depth",
        type=_non_negative,
        default=DEFAULT_MAX_DEPTH,
        metavar="N",
        help=f"answer -1 beyond N moves (default: {DEFAULT_MAX_DEPTH})",
    )
    depth.add_argument(
        "--exact",
        action="store_true",
        help="no move limit: every board is solved exactly, however far",
    )
    p.add_argument(
        "--target",
        metavar="FILE",
        help="a file with the target board (five rows); default: the classic target",
    )
    p.add_argument(
        "--path", action="store_true", help="follow each answer with one optimal move sequence"
    )
    p.add_argument(
        "--format",
        choices=("classic", "json"),
        default="classic",
        help="classic: one integer per line; json: one JSON object per line",
    )
    p.set_defaults(run=_cmd_solve)
    return parser


def _cmd_solve(args: argparse.Namespace, out: IO[str]) -> int:
    boards = read_batch_or_fail(_read_source(args.file), args.file)
    target = TARGET
    if args.target is not None:
        try:
            target = read_board(_read_source(args.target, "target "))
        except InputError as e:
            raise UsageError(f"target {args.target}: {e}") from None
    max_depth = None if args.exact else args.max_depth
    solutions = iter_solve(boards, engine=args.engine, max_depth=max_depth, target=target)
    if args.format == "json":
        lines: Iterator[str] = json_lines(solutions, path=args.path)
    elif args.path:
        lines = _classic_with_paths(solutions)
    else:
        lines = classic_lines(solutions)
    for line in lines:
        out.write(line)
        out.flush()
    return 0


def read_batch_or_fail(text: str, path: str) -> list[Board]:
    try:
        return read_batch(text)
    except InputError as e:
        raise UsageError(f"{_where(path)}{e}") from None


def _classic_with_paths(solutions: Iterator[Solution]) -> Iterator[str]:
    from .textview import path_text

    for s in solutions:
        yield f"{-1 if s.steps is None else s.steps}\n{path_text(s)}\n\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, sys.stdout)
    except (UsageError, BitknightsError) as e:
        sys.stderr.write(f"bitknights: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("bitknights: interrupted\n")
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
