"""Proof that a distance table holds the exact distances, whoever wrote it.

Checksums catch accidents, not someone who rewrites a file and its checksums.  This
check needs no trust at all: a table ``f`` is the exact distance to the target if

1. ``f`` is 0 at the target and only there,
2. every board with ``f = d > 0`` has a neighbour with ``f = d - 1``, and
3. neighbours never differ by more than one (unreachable boards only neighbour
   unreachable boards).

Proof: from (2) and (1), following neighbours one nearer reaches the target in ``f(b)``
moves, so the true distance is at most ``f(b)``; by (3) ``f`` drops by at most one a move,
so the true distance is at least ``f(b)``.  The check visits every board and its
neighbours once (a few seconds on two cores, in threads over blocks of ranks).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ..coords import comb_count, rank
from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
from ..coords.kernels import comb_unrank, moved_black, next_comb, state_rank, unsqueeze
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
from .store import UNREACHABLE, TableFile

BLOCK = 1 << 16  # ranks of one blank square per job


@njit(cache=True, nogil=True)
def _check(dist, goal, blank, lo, hi, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """The first rank in ``blank``'s ranks ``lo..hi-1`` that breaks a rule of the module
    docstring, or -1."""
    base = blank * ncomb
    comb = comb_unrank(lo, k, binom)
    for i in range(lo, hi):
        if i > lo:
            comb = next_comb(comb)
        r = base + i
        d = np.int64(dist[r])
        if (d == 0) != (r == goal):
            return r
        black = unsqueeze(comb, blank)
        nearer = d == 0
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            e = np.int64(dist[state_rank(moved_black(black, blank, n), n, ncomb, rank_byte,
                                         popcount8)])  # fmt: skip
            if d == 255 or e == 255:
                if d != e:
                    return r
                continue
            if e - d > 1 or d - e > 1:
                return r
            if e == d - 1:
                nearer = True
        if d != 255 and not nearer:
            return r
    return -1


def first_inconsistency(file: TableFile, *, workers: int | None = None) -> int | None:
    """The rank of a board where ``file`` breaks the rules above, or ``None`` when the table
    is exactly the distance to its target.  Reads (and checksums) the whole payload."""
    dist = file.payload
    k = file.black_count
    ncomb = comb_count(k)
    goal = rank(file.target.black, file.target.blank)
    jobs = [(b, lo, min(lo + BLOCK, ncomb)) for b in range(25) for lo in range(0, ncomb, BLOCK)]
    consts = (ncomb, k, KNIGHT_NEIGHBORS, KNIGHT_COUNTS, BINOM, RANK_BYTE, POPCOUNT8)

    def run(job: tuple[int, int, int]) -> int:
        return int(_check(dist, goal, *job, *consts))

    with ThreadPoolExecutor(workers or os.cpu_count() or 1) as pool:
        for bad in pool.map(run, jobs):
            if bad >= 0:
                return bad
    return None


__all__ = ["UNREACHABLE", "first_inconsistency"]
