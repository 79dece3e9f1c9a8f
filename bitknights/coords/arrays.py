"""The ranking's constant tables (``int64``, read-only) and vectorized ranking, numpy only.

>>> import numpy as np
>>> from bitknights import coords
>>> blacks, blanks = np.array([0b11, 0b110]), np.array([24, 0])
>>> ranks(blacks, blanks, coords.comb_count(2)).tolist() == [coords.rank(3, 24), 0]
True
>>> popcount(np.array([0, 7, (1 << 25) - 1])).tolist()
[0, 3, 25]
"""

from __future__ import annotations

import numpy as np

from ..squares import FULL_MASK, NUM_SQUARES
from . import BINOMIAL
from . import SQUARE_COLOR as _SQUARE_COLOR

BINOM = np.array(BINOMIAL, dtype=np.int64)

# RANK_BYTE[j, byte, m]: the colex-rank contribution of the squares that ``byte`` marks in
# byte j of a mask (bits 8j..8j+7, only those below 25) when m set bits lie below that
# byte: the sum of C(8j + q, m + t + 1) over its set bits q, t = 0, 1, ... from the
# lowest.  Bytes 0..2 rank a squeezed 24-bit black set, bytes 0..3 a 25-bit pattern.
_BITS = (np.arange(256)[:, None] >> np.arange(8)) & 1  # (byte, q)
_ORDER = np.cumsum(_BITS, axis=1) - 1  # t: how many set bits of the byte lie below q
_UPPER = np.minimum(np.arange(NUM_SQUARES + 1)[:, None, None] + _ORDER + 1, NUM_SQUARES)
_SQUARE = 8 * np.arange(4)[:, None] + np.arange(8)  # (j, q): the bit's index in the mask
_ON_BOARD = _BITS * (_SQUARE[:, None, :] < NUM_SQUARES)  # (j, byte, q): set bits below 25
_TERMS = BINOM[np.minimum(_SQUARE, NUM_SQUARES)[:, None, None, :], _UPPER]  # (j, m, byte, q)
RANK_BYTE = np.ascontiguousarray(
    (_ON_BOARD[:, None] * _TERMS).sum(axis=3).transpose(0, 2, 1), dtype=np.int64
)

POPCOUNT8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)

SQUARE_COLOR = np.array(_SQUARE_COLOR, dtype=np.int64)

for _arr in (BINOM, RANK_BYTE, POPCOUNT8, SQUARE_COLOR):
    _arr.setflags(write=False)


def popcount(x: np.ndarray) -> np.ndarray:
    """The number of set bits of each (non-negative, below ``2**32``) ``int64`` mask."""
    return (
        POPCOUNT8[x & 255]
        + POPCOUNT8[(x >> 8) & 255]
        + POPCOUNT8[(x >> 16) & 255]
        + POPCOUNT8[(x >> 24) & 255]
    )


def valid_keys(keys: np.ndarray, k: int) -> np.ndarray:
    """:func:`bitknights.table.store.valid` of each packed key."""
    black, blank = keys & FULL_MASK, keys >> NUM_SQUARES
    ok: np.ndarray = (blank >= 0) & (blank < NUM_SQUARES)
    return ok & (black >> np.where(ok, blank, 0) & 1 == 0) & (popcount(black) == k)


def ranks(black: np.ndarray, blank: np.ndarray, ncomb: int) -> np.ndarray:
    """The rank of each board among boards with as many black knights (``ncomb``:
    ``C(24, k)``)."""
    low = (np.int64(1) << blank) - 1
    comb = (black & low) | ((black >> (blank + 1)) << blank)
    b0, b1, b2 = comb & 255, (comb >> 8) & 255, comb >> 16
    m1 = POPCOUNT8[b0]
    return (
        blank * ncomb
        + RANK_BYTE[0, b0, 0]
        + RANK_BYTE[1, b1, m1]
        + RANK_BYTE[2, b2, m1 + POPCOUNT8[b1]]
    )
