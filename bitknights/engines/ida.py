"""IDA* engine: iterative-deepening A* over bitboards, one numba kernel.

The bound ``h`` is the sum, over all knights, of the knight-jump distance from the
knight's square to the nearest square the target gives its colour (each move moves one
knight one jump, so this never overestimates, and it dominates the misplaced-knight
count).  It is kept incrementally: a move changes one knight's term.  The blank's square
colour fixes the parity of the remaining distance, so ``h`` is rounded up to that parity
and every threshold steps by an even amount.  The move that undoes the previous one is
never tried.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..board import Board
from ..solution import Solution
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES, square_color
from .common import DEPTH_CAP, boards_from_blanks, nearest_target_distance, same_counts

_COLOR = np.array([square_color(sq) for sq in range(NUM_SQUARES)], dtype=np.int64)


@njit(cache=True, nogil=True)
def _ida_kernel(black, blank, tblank, max_depth, nbr, cnt, hw, hb, color, path):
    """Fewest moves from (black, blank) to the target whose nearest-square tables are
    ``hw``/``hb`` (``-1`` when more than ``max_depth``), and the nodes expanded.  On
    success ``path[0..steps]`` holds the blank's squares along one optimal path."""
    h = 0
    for sq in range(NUM_SQUARES):
        if sq != blank:
            if (black >> sq) & 1:
                h += hb[sq]
            else:
                h += hw[sq]
    nodes = 0
    if h == 0:
        path[0] = blank
        return 0, 1
    tcol = color[tblank]
    bound = h + ((h ^ color[blank] ^ tcol) & 1)
    sblank = np.empty(max_depth + 2, np.int64)
    sblack = np.empty(max_depth + 2, np.int64)
    sh = np.empty(max_depth + 2, np.int64)
    si = np.empty(max_depth + 2, np.int64)
    while bound <= max_depth:
        next_bound = 1 << 30
        sp = 0
        sblank[0] = blank
        sblack[0] = black
        sh[0] = h
        si[0] = 0
        nodes += 1
        while sp >= 0:
            b = sblank[sp]
            i = si[sp]
            if i >= cnt[b]:
                sp -= 1
                continue
            si[sp] = i + 1
            n = nbr[b, i]
            if sp > 0 and n == sblank[sp - 1]:
                continue
            bl = sblack[sp]
            if (bl >> n) & 1:
                nh = sh[sp] - hb[n] + hb[b]
                bl ^= (1 << n) | (1 << b)
            else:
                nh = sh[sp] - hw[n] + hw[b]
            # remaining distance has the parity of the blank's colour change
            f = sp + 1 + nh + ((nh ^ color[n] ^ tcol) & 1)
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            sp += 1
            sblank[sp] = n
            sblack[sp] = bl
            sh[sp] = nh
            si[sp] = 0
            nodes += 1
            if nh == 0:
                for k in range(sp + 1):
                    path[k] = sblank[k]
                return sp, nodes
        bound = next_bound
    return -1, nodes


def solve(start: Board, target: Board, max_depth: int | None = 15) -> Solution:
    """Solve ``start`` exactly with IDA*: fewest moves to ``target`` if at most
    ``max_depth`` (``None``: no limit), one optimal path, nodes expanded."""
    t0 = time.perf_counter()
    if not same_counts(start, target):
        return Solution(
            start,
            target,
            None,
            engine="ida",
            max_depth=max_depth,
            status="unreachable",
            seconds=time.perf_counter() - t0,
        )
    limit = DEPTH_CAP if max_depth is None else max(0, min(int(max_depth), DEPTH_CAP))
    hw, hb = nearest_target_distance(target.key)
    path = np.empty(limit + 2, dtype=np.int64)
    steps, nodes = _ida_kernel(
        np.int64(start.black),
        np.int64(start.blank),
        np.int64(target.blank),
        np.int64(limit),
        KNIGHT_NEIGHBORS,
        KNIGHT_COUNTS,
        hw,
        hb,
        _COLOR,
        path,
    )
    seconds = time.perf_counter() - t0
    if steps < 0:
        return Solution(
            start,
            target,
            None,
            nodes=int(nodes),
            seconds=seconds,
            engine="ida",
            max_depth=max_depth,
            status="over_limit",
        )
    boards = boards_from_blanks(start, path[: steps + 1])
    return Solution(start, target, int(steps), boards, int(nodes), seconds, "ida", max_depth)
