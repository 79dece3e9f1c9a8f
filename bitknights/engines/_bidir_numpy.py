"""The bidirectional search's batch path for small move limits, in numpy alone (loading
numba costs more than a few thousand boards under the classic limit): a ball of every
board within ``radius`` moves of the target as sorted arrays, and every board's start
side grown a layer at a time for all boards at once, looked up with ``searchsorted``; the
first layer ``j`` meeting the ball gives the distance, ``j`` plus the depth there
(:mod:`.bidir`).  Memory: the ball (radius 12: 64 MB) and one piece's layer.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..coords import KEY_SHIFT
from ..coords.arrays import popcount
from ..results import STOPPED
from ..squares import FULL_MASK, KNIGHT_NEIGHBORS
from .common import CACHED_TARGETS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..board import Board
    from .options import StopFlag

PIECE = 1024
"""Boards whose start sides grow together (bounds the layer arrays)."""


def _neighbours(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(boards, valid)``: row ``i`` holds the boards one move from ``keys[i]`` where
    ``valid`` (the knight tables' padding gives the rest)."""
    blank = keys >> KEY_SHIFT
    black = keys & FULL_MASK
    q = KNIGHT_NEIGHBORS[blank]
    valid = q >= 0
    q = np.where(valid, q, blank[:, None])
    jumps = (black[:, None] >> q) & 1
    black = black[:, None] ^ (jumps * ((1 << q) | (1 << blank[:, None])))
    return black | (q << KEY_SHIFT), valid


def _sorted_unique(a: np.ndarray) -> np.ndarray:
    a = np.sort(a)
    keep = np.empty(a.size, dtype=bool)
    keep[:1] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _isin_sorted(a: np.ndarray, sorted_b: np.ndarray) -> np.ndarray:
    if not sorted_b.size:
        return np.zeros(a.shape, dtype=bool)
    pos = np.searchsorted(sorted_b, a)
    pos[pos == sorted_b.size] = 0
    return sorted_b[pos] == a


@lru_cache(maxsize=CACHED_TARGETS)
def numpy_ball(target_key: int, radius: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(keys, depths, complete)``: every board within ``radius`` moves of the target,
    sorted, with its distance; ``complete`` when no board lies farther."""
    prev = np.empty(0, dtype=np.int64)
    cur = np.array([target_key], dtype=np.int64)
    layers = [cur]
    complete = False
    for _ in range(radius):
        boards, valid = _neighbours(cur)
        nxt = _sorted_unique(boards[valid])
        # neighbours of a layer lie in the layers just before and after it (bipartite)
        nxt = nxt[~_isin_sorted(nxt, prev)]
        if not nxt.size:
            complete = True
            break
        layers.append(nxt)
        prev, cur = cur, nxt
    keys = np.concatenate(layers)
    depths = np.repeat(np.arange(len(layers), dtype=np.int64), [x.size for x in layers])
    order = np.argsort(keys)
    return keys[order], depths[order], complete


def _steps_piece(keys: np.ndarray, target: Board, limit: int, radius: int) -> np.ndarray:
    """Distances (``-1`` beyond ``limit`` or unreachable) of a piece of boards: their
    start sides grow together, one sorted array of ``board index << 30 | key`` codes per
    layer, against the ball of ``radius``."""
    bkeys, bdepths, complete = numpy_ball(target.key, radius)
    steps = np.full(len(keys), -1, dtype=np.int64)
    alive = np.flatnonzero(popcount(keys & FULL_MASK) == target.counts[1])
    code_shift = 30
    prev = np.empty(0, dtype=np.int64)
    cur = (alive << code_shift) | keys[alive]
    for layer in range(limit + 1):
        board = cur & ((1 << code_shift) - 1)
        pos = np.searchsorted(bkeys, board)
        pos[pos == bkeys.size] = 0
        hit = bkeys[pos] == board
        if hit.any():
            # the first layer to meet the ball: every meeting has the same length
            idx = cur[hit] >> code_shift
            d = layer + bdepths[pos[hit]]
            steps[idx] = np.where(d <= limit, d, -1)
            done = np.zeros(len(keys), dtype=bool)
            done[idx] = True
            cur = cur[~done[cur >> code_shift]]
        if complete or layer + radius + 1 > limit or not cur.size:
            break  # the rest is farther than the limit (or, complete ball, unreachable)
        owner = cur >> code_shift
        boards, valid = _neighbours(cur & ((1 << code_shift) - 1))
        nxt = _sorted_unique(((owner[:, None] << code_shift) | boards)[valid])
        nxt = nxt[~_isin_sorted(nxt, prev)]
        prev, cur = cur, nxt
    return steps


def steps(keys: np.ndarray, target: Board, limit: int, radius: int, stop: StopFlag) -> np.ndarray:
    """The distance of each board (packed keys) to ``target``, ``-1`` beyond ``limit``
    (at most ``radius`` plus a few layers, or it grows slow) or unreachable, in pieces of
    :data:`PIECE` boards; boards left when ``stop`` is raised stay ``-2``."""
    out = np.full(len(keys), STOPPED, dtype=np.int64)
    for lo in range(0, len(keys), PIECE):
        if stop.raised:
            break
        out[lo : lo + PIECE] = _steps_piece(keys[lo : lo + PIECE], target, limit, radius)
    return out
