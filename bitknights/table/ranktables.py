"""The constant tables of the ranking (see :mod:`bitknights.table.rank`), numpy only, so
that numba-free code (:mod:`bitknights.table.nplookup`) can rank boards too."""

from __future__ import annotations

import math

import numpy as np

from ..squares import NUM_SQUARES

# BINOM[n, i] = C(n, i) for 0 <= n, i <= 25 (zero when i > n).
BINOM = np.array(
    [[math.comb(n, i) for i in range(NUM_SQUARES + 1)] for n in range(NUM_SQUARES + 1)],
    dtype=np.int64,
)

# RANK_BYTE[j, byte, m]: the colex-rank contribution of the black squares ``byte`` marks in
# byte j (squeezed positions 8j..8j+7) when m black squares lie below that byte, i.e. the
# sum of C(8j + q, m + t + 1) over its set bits q, t = 0, 1, ... from the lowest.
_BITS = (np.arange(256)[:, None] >> np.arange(8)) & 1  # (byte, q)
_ORDER = np.cumsum(_BITS, axis=1) - 1  # t: how many set bits of the byte lie below q
_UPPER = np.minimum(np.arange(NUM_SQUARES)[:, None, None] + _ORDER + 1, NUM_SQUARES)  # (m, byte, q)
RANK_BYTE = np.ascontiguousarray(
    np.stack([(_BITS * BINOM[8 * j + np.arange(8), _UPPER]).sum(axis=2).T for j in range(3)]),
    dtype=np.int64,
)

# POPCOUNT8[byte]: the number of set bits of a byte.
POPCOUNT8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)

for _arr in (BINOM, RANK_BYTE, POPCOUNT8):
    _arr.setflags(write=False)

MASK24 = (1 << 24) - 1


def comb_count(k: int) -> int:
    """``C(24, k)``: the black sets of one blank square."""
    return math.comb(NUM_SQUARES - 1, k)


def state_count(k: int) -> int:
    """``25 * C(24, k)``: the boards with ``k`` black knights."""
    return NUM_SQUARES * comb_count(k)
