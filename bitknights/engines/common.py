"""What the search engines share: per-target heuristic tables, the parity rule and the
nearest-square bound (numpy only; the numba kernels take these arrays as arguments)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..board import Board
from ..coords import KEY_SHIFT
from ..squares import FULL_MASK, KNIGHT_DISTANCE, NUM_SQUARES, square_color

CACHED_TARGETS = 2
"""How many targets' balls the bidirectional search keeps (the least recently used goes)."""


@lru_cache(maxsize=16)
def nearest_target_distance(target_key: int) -> tuple[np.ndarray, np.ndarray]:
    """``(white, black)``: for each square, the fewest knight jumps from it to a square
    the target gives that colour (0 where the target has no knight of that colour).
    Summed over a board's knights: a lower bound on its distance (a move moves one knight
    one jump)."""
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


def nearest_bounds(keys: np.ndarray | list[int], target: Board) -> np.ndarray:
    """The nearest-square bound of each board (packed keys), rounded up to the parity of
    its distance, as the IDA* kernel starts from it (boards with other knight counts get
    a bound too: it means nothing for them).  IDA*'s pattern-database policy and the
    service's far rule both read it.

    >>> from bitknights.board import TARGET
    >>> nearest_bounds([TARGET.key, TARGET.play("b5").key], TARGET).tolist()
    [0, 1]
    """
    from ..coords.arrays import SQUARE_COLOR

    keys = np.asarray(keys, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> KEY_SHIFT
    hw, hb = nearest_target_distance(target.key)
    h = np.zeros(keys.shape[0], dtype=np.int64)
    for sq in range(NUM_SQUARES):
        here = np.where((black >> sq) & 1 == 1, hb[sq], hw[sq])
        h += np.where(blank == sq, 0, here)
    return h + ((h ^ SQUARE_COLOR[blank % NUM_SQUARES] ^ SQUARE_COLOR[target.blank]) & 1)
