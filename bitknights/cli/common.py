"""What every command shares: the error a command reports, argument types, reading a
file or standard input, and the ``--target``/``--cache-dir`` options."""

from __future__ import annotations

import argparse
import sys

from ..batch import decode, read_board
from ..board import TARGET, Board
from ..errors import InputError


class UsageError(Exception):
    """A problem the command line reports as ``bitknights: error: ...`` with status 2."""


def read_source(path: str, what: str = "") -> str:
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
        raise UsageError(f"{what}{where(path)}{e}") from None


def where(path: str) -> str:
    return "" if path == "-" else f"{path}: "


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def add_target_options(p: argparse.ArgumentParser, *, cache_dir_help: str | None = None) -> None:
    """``--target FILE`` and ``--cache-dir DIR``, the same on every command."""
    p.add_argument(
        "--target",
        metavar="FILE",
        help="a file with the target board (five rows); default: the classic target",
    )
    p.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=cache_dir_help
        or "where tables live (default: $BITKNIGHTS_CACHE_DIR, else the user cache "
        "directory, $XDG_CACHE_HOME/bitknights or ~/.cache/bitknights)",
    )


def read_target(args: argparse.Namespace) -> Board:
    """The board ``--target`` names, or the classic target."""
    if args.target is None:
        return TARGET
    try:
        return read_board(read_source(args.target, "target "))
    except InputError as e:
        raise UsageError(f"target {args.target}: {e}") from None
