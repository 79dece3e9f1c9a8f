"""The numba kernel of the pattern databases (:mod:`.pdb`): the breadth-first build (the
masks are ranked by :mod:`bitknights.coords.kernels`).  Imported only when it must run."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..coords import pattern_count
from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
from ..coords.kernels import pattern_rank as mask_rank
from ..coords.kernels import pattern_unrank as _unrank
from ..results import UNSEEN
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES


@njit(cache=True, parallel=True)
def _layer(dist, d, k, bottom_up, nbr, cnt, part, pc, binom, nblocks):
    """One breadth-first layer over the whole table, blocks of ranks in parallel (a
    block walks its masks in colex order by Gosper's hack).  Top-down: every mask at
    ``d`` marks its unseen relaxed neighbours ``d + 1``.  Bottom-up: every unseen mask
    with a neighbour at ``d`` becomes ``d + 1``.  Racing writes store the same value.
    Returns how many masks were marked (an over-count under races)."""
    size = len(dist)
    block = (size + nblocks - 1) // nblocks
    marked = np.zeros(nblocks, np.int64)
    for bi in prange(nblocks):
        lo = bi * block
        hi = min(size, lo + block)
        if lo >= hi:
            continue
        m = _unrank(lo, k, binom)
        for r in range(lo, hi):
            want = UNSEEN if bottom_up else d
            if dist[r] == want:
                found = False
                for s in range(NUM_SQUARES):
                    if found or not (m >> s) & 1:
                        continue
                    for e in range(cnt[s]):
                        t = nbr[s, e]
                        if (m >> t) & 1 == 0:
                            rq = mask_rank(m ^ (1 << s) ^ (1 << t), part, pc)
                            if bottom_up:
                                if dist[rq] == d:
                                    dist[r] = d + 1
                                    marked[bi] += 1
                                    found = True
                                    break
                            elif dist[rq] == UNSEEN:
                                dist[rq] = d + 1
                                marked[bi] += 1
            low = m & -m
            ripple = m + low
            m = (((ripple ^ m) >> 2) // low) | ripple
    return marked.sum()


def build(tmask: int, k: int) -> np.ndarray:
    """The relaxed-distance table of the ``k``-knight pattern ``tmask``."""
    size = pattern_count(k)
    dist = np.full(size, UNSEEN, np.uint8)
    dist[mask_rank(np.int64(tmask), RANK_BYTE, POPCOUNT8)] = 0
    # Racing threads may count one mask twice, so ``marked`` is only an estimate: it picks
    # the direction, and the search ends on a layer that marks nothing at all.
    frontier, unseen, d = 1, size - 1, 0
    while frontier:
        bottom_up = unseen < frontier
        frontier = _layer(
            dist, np.uint8(d), np.int64(k), bottom_up,
            KNIGHT_NEIGHBORS, KNIGHT_COUNTS, RANK_BYTE, POPCOUNT8, BINOM, np.int64(64),
        )  # fmt: skip
        unseen = max(0, unseen - frontier)
        d += 1
    if (dist == UNSEEN).any():  # every pattern is reachable: this would be a bug
        raise RuntimeError("pattern database build left patterns unreached")
    return dist
