"""The numba kernel of the pattern databases (:mod:`.pdb`): the breadth-first build (the
masks are ranked by :mod:`bitknights.coords.kernels`).  Imported only when it must run."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..coords import pattern_count, pattern_rank
from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
from ..coords.kernels import pattern_rank as mask_rank
from ..coords.kernels import pattern_unrank as _unrank
from ..results import UNSEEN
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES


@njit(cache=True, nogil=True)
def layer(dist, d, k, bottom_up, nbr, cnt, part, pc, binom, nblocks, b0, b1):
    """One breadth-first layer over blocks ``b0 .. b1 - 1`` of the ``nblocks`` blocks
    of ranks (:func:`build` runs blocks on parallel threads; a block walks its masks in
    colex order by Gosper's hack).  Top-down: every mask at
    ``d`` marks its unseen relaxed neighbours ``d + 1``.  Bottom-up: every unseen mask
    with a neighbour at ``d`` becomes ``d + 1``.  Racing writes store the same value.
    Returns how many masks were marked (an over-count under races)."""
    size = len(dist)
    block = (size + nblocks - 1) // nblocks
    marked = np.zeros(nblocks, np.int64)
    for bi in range(b0, b1):
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


def build(tmask: int, k: int, workers: int | None = None, kernel=None) -> np.ndarray:  # noqa: ANN001
    """The relaxed-distance table of the ``k``-knight pattern ``tmask``, built with
    ``kernel`` (default: the compiled :func:`layer` when it is installed, see
    :mod:`.native`, else this module's)."""
    from .native import kernels, parallel_blocks

    kernel = kernel or kernels("ida").pdb_layer
    size = pattern_count(k)
    dist = np.full(size, UNSEEN, np.uint8)
    dist[pattern_rank(int(tmask))] = 0
    # Racing threads may count one mask twice, so ``marked`` is only an estimate: it picks
    # the direction, and the search ends on a layer that marks nothing at all.
    frontier, unseen, d, nblocks = 1, size - 1, 0, 64
    while frontier:
        bottom_up = unseen < frontier
        fixed = (dist, np.uint8(d), np.int64(k), bottom_up, KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
                 RANK_BYTE, POPCOUNT8, BINOM, np.int64(nblocks))  # fmt: skip

        def span(b0: int, b1: int, fixed: tuple = fixed) -> int:
            return int(kernel(*fixed, np.int64(b0), np.int64(b1)))

        frontier = sum(parallel_blocks(span, nblocks, workers))
        unseen = max(0, unseen - frontier)
        d += 1
    if (dist == UNSEEN).any():  # every pattern is reachable: this would be a bug
        raise RuntimeError("pattern database build left patterns unreached")
    return dist
