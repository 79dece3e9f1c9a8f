"""What the search engines share: per-target heuristic tables and the parity rule.

numpy only; the numba kernels take these arrays as arguments.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..board import Board
from ..squares import KNIGHT_DISTANCE, NUM_SQUARES, square_color


@lru_cache(maxsize=16)
def nearest_target_distance(target_key: int) -> tuple[np.ndarray, np.ndarray]:
    """``(white, black)``: for each square, the fewest knight jumps from it to a square
    the target gives that colour (0 where the target has no knight of that colour).

    Summed over the knights of a board this is a lower bound on its distance to the
    target: each move moves one knight one jump.
    """
    target = Board.from_key(target_key)
    out = []
    for mask in (target.white, target.black):
        squares = [sq for sq in range(NUM_SQUARES) if mask >> sq & 1]
        if squares:
            d = KNIGHT_DISTANCE[:, squares].min(axis=1).astype(np.int64)
        else:
            d = np.zeros(NUM_SQUARES, dtype=np.int64)
        d.setflags(write=False)
        out.append(d)
    return out[0], out[1]


def parity(start: Board, target: Board) -> int:
    """The parity every path from ``start`` to ``target`` has (the blank changes square
    colour on every move)."""
    return square_color(start.blank) ^ square_color(target.blank)
