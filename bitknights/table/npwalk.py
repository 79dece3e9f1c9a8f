"""Distances of a batch of boards from a loaded table with numpy alone (no numba).

The same walk as :mod:`bitknights.table.query` (step to the neighbour whose stored value
is one less mod 3 until the target), done for every board of the batch at once with
vectorized numpy.  For a few thousand boards this is faster end to end than importing
numba and loading the compiled walk, which is what makes a warm ``bitknights solve`` on a
small batch cost little more than importing numpy.
"""

from __future__ import annotations

import numpy as np

from ..squares import FULL_MASK, KNIGHT_NEIGHBORS, NUM_SQUARES
from .ranktables import POPCOUNT8, RANK_BYTE, comb_count
from .store import TableError, TableFile

_NBR = np.where(KNIGHT_NEIGHBORS >= 0, KNIGHT_NEIGHBORS, 0)
_VALID = KNIGHT_NEIGHBORS >= 0


def _popcount(x: np.ndarray) -> np.ndarray:
    return (
        POPCOUNT8[x & 255]
        + POPCOUNT8[(x >> 8) & 255]
        + POPCOUNT8[(x >> 16) & 255]
        + (POPCOUNT8[(x >> 24) & 255])
    )


def _values(payload: np.ndarray, black: np.ndarray, blank: np.ndarray, ncomb: int) -> np.ndarray:
    """The stored 2-bit value (distance mod 3, 3 = unreachable) of each board."""
    low = (np.int64(1) << blank) - 1
    comb = (black & low) | ((black >> (blank + 1)) << blank)
    b0, b1, b2 = comb & 255, (comb >> 8) & 255, comb >> 16
    m1 = POPCOUNT8[b0]
    rank = (
        blank * ncomb
        + RANK_BYTE[0, b0, 0]
        + RANK_BYTE[1, b1, m1]
        + RANK_BYTE[2, b2, m1 + POPCOUNT8[b1]]
    )
    return (payload[rank >> 2] >> ((rank & 3) << 1)) & 3


def distances(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """Exact distance of each board (packed keys) to the table's target; -1 when it is
    more than ``limit`` moves away or cannot reach the target."""
    keys = np.asarray(keys, dtype=np.int64)
    n = keys.shape[0]
    out = np.full(n, -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> NUM_SQUARES
    ncomb = comb_count(table.black_count)
    idx = np.flatnonzero(_popcount(black) == table.black_count)
    black, blank = black[idx], blank[idx]
    value = _values(table.payload, black, blank, ncomb)
    keep = value != 3
    idx, black, blank, value = idx[keep], black[keep], blank[keep], value[keep]
    tblack, tblank = table.target.black, table.target.blank
    for step in range(limit + 1):
        done = (black == tblack) & (blank == tblank)
        if done.any():
            out[idx[done]] = step
            keep = ~done
            idx, black, blank, value = idx[keep], black[keep], blank[keep], value[keep]
        if step == limit or idx.size == 0:
            break
        sq = _NBR[blank]  # (m, 8): the knights that may jump into the blank
        moves = black[:, None] >> sq & 1
        bit_b = np.int64(1) << blank[:, None]
        child = np.where(moves == 1, black[:, None] ^ (np.int64(1) << sq) ^ bit_b, black[:, None])
        want = (value + 2) % 3
        ok = _VALID[blank] & (_values(table.payload, child, sq, ncomb) == want[:, None])
        j = ok.argmax(axis=1)
        if not ok[np.arange(j.size), j].all():
            raise TableError(f"distance table {table.path} contradicts itself; rebuild it")
        rows = np.arange(j.size)
        black, blank, value = child[rows, j], sq[rows, j], want
    return out
