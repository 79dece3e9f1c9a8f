"""The numba kernel of the pattern databases' breadth-first build (:mod:`.pdb`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._export import b1, buf, export, i8, ro_cube, ro_mat, ro_vec, u1
from ..coords.kernels import colex_unrank
from ..coords.kernels import pattern_rank as mask_rank
from ..results import UNSEEN
from ..squares import NUM_SQUARES


@export(i8(buf, u1, i8, b1, ro_mat, ro_vec, ro_cube, ro_vec, ro_mat, i8, i8, i8), "pdb_layer")
@njit(cache=True, nogil=True)
def layer(dist, d, k, bottom_up, nbr, cnt, part, pc, binom, nblocks, b0, b1):
    """One breadth-first layer over blocks ``b0 .. b1 - 1`` of the ``nblocks`` blocks of
    ranks (a block walks its masks in colex order by Gosper's hack).  Top-down: every mask
    at ``d`` marks its unseen relaxed neighbours ``d + 1``; bottom-up: every unseen mask
    with a neighbour at ``d`` becomes ``d + 1``.  Returns how many masks were marked (an
    over-count when threads race: they write the same value)."""
    size = len(dist)
    block = (size + nblocks - 1) // nblocks
    marked = np.zeros(nblocks, np.int64)
    for bi in range(b0, b1):
        lo = bi * block
        hi = min(size, lo + block)
        if lo >= hi:
            continue
        m = colex_unrank(lo, k, NUM_SQUARES, binom)
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
