"""The ranking in numba (:mod:`bitknights.coords`): inline helpers the kernels call, taking
the tables of :mod:`.arrays` as arguments, and a batch unranking."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._export import export, i8, ro_mat, ro_vec, vec, void
from ..squares import FULL_MASK, NUM_SQUARES
from . import KEY_SHIFT


@njit(cache=True, nogil=True)
def popcount(x):
    """The number of set bits of a non-negative ``int64`` (not ``inline="always"``: the
    ahead-of-time compiler fails on it)."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True, inline="always")
def unpack(key):
    """``(black mask, blank square)`` of a key."""
    return key & FULL_MASK, key >> KEY_SHIFT


@njit(cache=True, nogil=True, inline="always")
def squeeze(black, blank):
    """The black mask with the blank's square removed: bits above it shift down one."""
    low = black & ((np.int64(1) << blank) - 1)
    return low | ((black >> (blank + 1)) << blank)


@njit(cache=True, nogil=True, inline="always")
def unsqueeze(comb, blank):
    """Inverse of :func:`squeeze`: bits at or above ``blank`` shift up one."""
    low = comb & ((np.int64(1) << blank) - 1)
    return low | ((comb >> blank) << (blank + 1))


@njit(cache=True, nogil=True, inline="always")
def moved_black(black, blank, n):
    """The black mask after the knight on ``n`` jumps into the blank on ``blank``."""
    if (black >> n) & 1:
        return black ^ ((np.int64(1) << n) | (np.int64(1) << blank))
    return black


@njit(cache=True, nogil=True, inline="always")
def pattern_rank(mask, rank_byte, popcount8):
    """Colex rank of a 25-bit mask among masks with as many bits."""
    b0 = mask & 255
    b1 = (mask >> 8) & 255
    b2 = (mask >> 16) & 255
    b3 = (mask >> 24) & 255
    j1 = popcount8[b0]
    j2 = j1 + popcount8[b1]
    j3 = j2 + popcount8[b2]
    return rank_byte[0, b0, 0] + rank_byte[1, b1, j1] + rank_byte[2, b2, j2] + rank_byte[3, b3, j3]


@njit(cache=True, nogil=True, inline="always")
def state_rank(black, blank, ncomb, rank_byte, popcount8):
    """Rank of the board (black mask, blank square); ``ncomb = C(24, k)``."""
    comb = squeeze(black, blank)  # 24 bits: bytes 0..2
    b0 = comb & 255
    b1 = (comb >> 8) & 255
    m1 = popcount8[b0]
    m2 = m1 + popcount8[b1]
    return blank * ncomb + rank_byte[0, b0, 0] + rank_byte[1, b1, m1] + rank_byte[2, comb >> 16, m2]


@njit(cache=True, nogil=True)
def colex_unrank(r, k, top, binom):
    """The mask with ``k`` bits, all below bit ``top``, whose colex rank is ``r`` (``top``:
    25 for a pattern, 24 for a board's black knights with its blank squeezed out)."""
    comb = np.int64(0)
    p = top - 1
    for i in range(k, 0, -1):
        while binom[p, i] > r:
            p -= 1
        comb |= np.int64(1) << p
        r -= binom[p, i]
        p -= 1
    return comb


@njit(cache=True, nogil=True, inline="always")
def next_comb(comb):
    """The next larger mask with as many bits (Gosper's hack); ``comb`` must be non-zero."""
    u = comb & -comb
    v = comb + u
    return v | (((v ^ comb) // u) >> 2)


@njit(cache=True, nogil=True)
def state_unrank(r, k, ncomb, binom):
    """``(black, blank)`` of rank ``r``."""
    blank = r // ncomb
    return unsqueeze(colex_unrank(r - blank * ncomb, k, NUM_SQUARES - 1, binom), blank), blank


@export(void(ro_vec, i8, i8, ro_mat, vec, vec))
@njit(cache=True, nogil=True)
def unrank_many(ranks, k, ncomb, binom, blacks, blanks):
    """``(blacks[i], blanks[i])``: the board of rank ``ranks[i]``."""
    for i in range(ranks.shape[0]):
        blacks[i], blanks[i] = state_unrank(ranks[i], k, ncomb, binom)
