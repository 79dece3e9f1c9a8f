"""Walks down a table in numba: one board's optimal path, a batch of distances from the
compact table (:mod:`.compact`), and the edges one move nearer that counting and listing
every optimal solution follow (:func:`~bitknights.table.solutions.path_graph`).

A table is the distance table's bytes or the compact table's codes (``compact``: the
distance modulo 3, :data:`LOST` for a board that never reaches the target): the
neighbours one nearer than a board at ``d`` are those at ``d - 1``, or of code
``(d - 1) % 3``, the same boards.  A walk steps to the first of them in the knight tables'
order; one that finds none, or passes the farthest distance, is
:data:`~bitknights.results.INCONSISTENT`.  Kernels take their tables as arguments, so one
source compiles just in time or ahead of time (:mod:`bitknights.native`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..coords.kernels import moved_black, popcount, state_rank, state_unrank, unpack
from ..results import INCONSISTENT, OVER_LIMIT, UNREACHABLE, UNSEEN
from ..squares import NUM_SQUARES
from .layout import LOST


@njit(cache=True, nogil=True, inline="always")
def code_of(payload, r):
    """The compact table's code of rank ``r``: bits ``2 * (r % 4)`` of byte ``r // 4``."""
    return (np.int64(payload[r >> 2]) >> ((r & 3) << 1)) & 3


@njit(cache=True, nogil=True, inline="always")
def at(payload, compact, r, d):
    """Whether rank ``r`` lies ``d`` moves from the target (``d >= 0``)."""
    if compact:
        return code_of(payload, r) == d % 3
    return np.int64(payload[r]) == d


@njit(cache=True, nogil=True)
def walk(payload, compact, black, blank, cap, far, tblack, tblank, ncomb, nbr, cnt, rank_byte,
         popcount8, path):  # fmt: skip
    """The distance of the board (``black``, ``blank``), the blank's squares along one
    optimal path in ``path[0..distance]``; ``OVER_LIMIT`` past ``cap`` moves (``cap <=
    far``), ``UNREACHABLE``, or ``INCONSISTENT``."""
    r = state_rank(black, blank, ncomb, rank_byte, popcount8)
    if compact:
        c = code_of(payload, r)
        if c == LOST:
            return UNREACHABLE
        d = c + 3 * (far + 1)  # known modulo 3 only: it stays positive down the walk
    else:
        d = np.int64(payload[r])
        if d == UNSEEN:
            return UNREACHABLE
        if d > cap:
            return OVER_LIMIT if d <= far else INCONSISTENT
    path[0] = blank
    steps = 0
    while black != tblack or blank != tblank:
        if steps == cap:
            return OVER_LIMIT if cap < far else INCONSISTENT
        d -= 1
        moved = False
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            nb = moved_black(black, blank, n)
            if at(payload, compact, state_rank(nb, n, ncomb, rank_byte, popcount8), d):
                black, blank = nb, n
                moved = True
                break
        if not moved:
            return INCONSISTENT
        steps += 1
        path[steps] = blank
    return steps


@njit(cache=True, nogil=True)
def distances(payload, keys, k, cap, far, tblack, tblank, ncomb, nbr, cnt, rank_byte, popcount8,
              out):  # fmt: skip
    """``out[i]``: the distance of board ``keys[i]`` down the compact table, else
    ``OVER_LIMIT`` (past ``cap``, unreachable, not ``k`` black knights).  Returns the index
    of the first board whose walk is ``INCONSISTENT``, or -1."""
    path = np.empty(far + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        black, blank = unpack(keys[i])
        if blank >= NUM_SQUARES or (black >> blank) & 1 or popcount(black) != k:
            out[i] = OVER_LIMIT
            continue
        d = walk(payload, True, black, blank, cap, far, tblack, tblank, ncomb, nbr, cnt,
                 rank_byte, popcount8, path)  # fmt: skip
        if d == INCONSISTENT:
            return i
        out[i] = d if d >= 0 else OVER_LIMIT
    return -1


@njit(cache=True, nogil=True)
def nearer_edges(payload, compact, ranks, want, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """For boards ``ranks``, ``want + 1`` moves away, every neighbour ``want`` moves away:
    ``(index into ranks, neighbour's rank)`` pairs, in the knight tables' order."""
    src = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    dst = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    m = 0
    for i in range(ranks.shape[0]):
        black, blank = state_unrank(ranks[i], k, ncomb, binom)
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            r = state_rank(moved_black(black, blank, n), n, ncomb, rank_byte, popcount8)
            if at(payload, compact, r, want):
                src[m] = i
                dst[m] = r
                m += 1
    return src[:m].copy(), dst[:m].copy()
