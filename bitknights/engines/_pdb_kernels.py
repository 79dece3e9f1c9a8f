"""The numba kernels of the pattern databases (:mod:`.pdb`): the mask rank IDA* looks
tables up with, and the breadth-first build.  Imported only when a kernel must run."""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES
from .pdb import _BINOM, BYTE_POPCOUNT, RANK_PART, UNSEEN
from .pdb import mask_rank as _python_mask_rank


@njit(cache=True, nogil=True, inline="always")
def mask_rank(mask, part, pc):
    """Colex rank of a 25-bit mask among masks with as many bits."""
    b0 = mask & 255
    b1 = (mask >> 8) & 255
    b2 = (mask >> 16) & 255
    b3 = (mask >> 24) & 255
    j1 = pc[b0]
    j2 = j1 + pc[b1]
    j3 = j2 + pc[b2]
    return part[0, b0, 0] + part[1, b1, j1] + part[2, b2, j2] + part[3, b3, j3]


@njit(cache=True, nogil=True)
def _unrank(r, k, binom):
    """The mask of colex rank ``r`` among masks with ``k`` bits."""
    mask = 0
    for i in range(k, 0, -1):
        pos = i - 1
        while binom[pos + 1, i] <= r:
            pos += 1
        mask |= 1 << pos
        r -= binom[pos, i]
    return mask


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
    size = comb(NUM_SQUARES, k)
    dist = np.full(size, UNSEEN, np.uint8)
    dist[_python_mask_rank(tmask)] = 0
    # Racing threads may count one mask twice, so ``marked`` is only an estimate: it picks
    # the direction, and the search ends on a layer that marks nothing at all.
    frontier, unseen, d, nblocks = 1, size - 1, 0, 64
    while frontier:
        bottom_up = unseen < frontier
        fixed = (dist, np.uint8(d), np.int64(k), bottom_up, KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
                 RANK_PART, BYTE_POPCOUNT, _BINOM, np.int64(nblocks))  # fmt: skip
        spans = parallel_blocks(
            lambda b0, b1, fixed=fixed: kernel(*fixed, np.int64(b0), np.int64(b1)), nblocks, workers
        )
        frontier = sum(spans)
        unseen = max(0, unseen - frontier)
        d += 1
    if (dist == UNSEEN).any():  # every pattern is reachable: this would be a bug
        raise RuntimeError("pattern database build left patterns unreached")
    return dist
