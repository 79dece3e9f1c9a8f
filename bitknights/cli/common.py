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


BOARD_FILE_LIMIT = 1 << 16
"""The most bytes read from a file that holds one board (``--target``, ``hint``): a board
is 30 bytes; generous room for blank lines and spaces, never a whole device."""


def read_source(path: str, what: str = "", *, limit: int = BOARD_FILE_LIMIT) -> str:
    """The text of ``path`` (``-``: standard input), at most ``limit`` bytes: a longer
    input is an error, read no further than that; so is a file that is not a regular
    file (FIFO, device), which is refused before a byte is read."""
    import os
    import stat

    try:
        if path == "-":
            if sys.stdin is None:
                raise UsageError("standard input is closed")
            data = sys.stdin.buffer.read(limit + 1)
        else:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with open(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise UsageError(f"{what}{path}: not a regular file")
                data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"cannot read {what}{path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise UsageError(f"{what}{where(path) or 'standard input: '}more than {limit:,} bytes")
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
    if not 0 < value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"expected a positive number of seconds up to {MAX_TIMEOUT:,.0f}, got {text!r}"
        )
    return value


MAX_TIMEOUT = 1e6
"""The longest ``--timeout`` (11.6 days): longer is no limit at all, and beyond what the
operating system's timers take."""


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
