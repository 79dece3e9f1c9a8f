"""bitknights: the 5×5 knights puzzle (SCOI2005 "骑士精神"), solved exactly and fast.

>>> import bitknights
>>> boards = bitknights.read_batch(bitknights.SAMPLE)
>>> [bitknights.solve(b).steps for b in boards]
[7, None]

Importing compiles nothing, touches no file and imports neither numba nor numpy; kernels
compile (or load from numba's cache) on first use.
"""

from __future__ import annotations

from . import table
from .api import DEFAULT_MAX_DEPTH, iter_solve, solve, solve_many
from .batch import read_batch, read_board
from .board import TARGET, Board, Move
from .errors import BitknightsError, BoardError, InputError
from .solution import Solution
from .squares import SQUARE_NAMES, parse_square, square_name

__version__ = "0.1.0"

SAMPLE = "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n"
"""The classic sample batch (answers ``7`` and ``-1``)."""

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "SAMPLE",
    "SQUARE_NAMES",
    "TARGET",
    "BitknightsError",
    "Board",
    "BoardError",
    "InputError",
    "Move",
    "Solution",
    "iter_solve",
    "parse_square",
    "read_batch",
    "read_board",
    "solve",
    "solve_many",
    "square_name",
    "table",
]
