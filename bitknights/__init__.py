"""bitknights: the 5×5 knights puzzle (SCOI2005 "骑士精神"), solved exactly and fast.

>>> import bitknights
>>> boards = bitknights.read_batch(bitknights.SAMPLE)
>>> [bitknights.solve(b).steps for b in boards]
[7, None]

Importing compiles nothing, touches no file and imports neither numba nor numpy; kernels
compile (or load from numba's cache) on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import table
from .api import DEFAULT_MAX_DEPTH, iter_solve, solve, solve_many
from .batch import read_batch, read_board
from .board import TARGET, Board, Move
from .errors import BitknightsError, BoardError, InputError
from .solution import Solution
from .squares import SQUARE_NAMES, parse_square, square_name

if TYPE_CHECKING:
    from .checker import CheckResult, check
    from .game import Game
    from .widget import play

__version__ = "0.1.0"

SAMPLE = "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n"
"""The classic sample batch (answers ``7`` and ``-1``)."""

# imported on first use: the widget needs anywidget (the ``notebook`` extra)
_LAZY = {"check": "checker", "CheckResult": "checker", "Game": "game", "play": "widget"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_MAX_DEPTH",
    "SAMPLE",
    "SQUARE_NAMES",
    "TARGET",
    "BitknightsError",
    "Board",
    "BoardError",
    "CheckResult",
    "Game",
    "InputError",
    "Move",
    "Solution",
    "check",
    "iter_solve",
    "parse_square",
    "play",
    "read_batch",
    "read_board",
    "solve",
    "solve_many",
    "square_name",
    "table",
]
