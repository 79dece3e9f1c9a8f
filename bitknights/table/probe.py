"""Probing a table file: distances and optimal paths, read straight from its bytes.

Two flavours side by side over the same verified, memory-mapped file
(:func:`bitknights.table.store.load`) and the same ranking (:mod:`bitknights.coords`):

* plain Python (:func:`distances`, :func:`walk`): for the classic job on a few thousand
  boards importing numpy (about 0.1 s) costs more than the whole answer, and ranking a
  board in Python and reading its byte takes about 2 µs.  The command line answers small
  count-only batches this way (with the numpy-free reader
  :meth:`bitknights.batch.BatchReader.key_lists`), and paths (a few dozen probes) are
  walked here too, so the table engine's single-board answers never need numba;
* numpy (:func:`distances_array`): vectorized ranking, about 0.1 µs a board, so batches
  never need numba either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..coords import KEY_SHIFT, rank, unpack
from ..results import OVER_LIMIT, UNREACHABLE
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import UNREACHABLE as UNREACHABLE_BYTE
from .store import TableError, TableFile

if TYPE_CHECKING:
    import numpy as np


def distances(table: TableFile, keys: Iterable[int], limit: int) -> list[int]:
    """The exact distance of each board (packed keys) to the table's target; -1 when it
    is more than ``limit`` moves away or cannot reach the target."""
    data = table.data
    k = table.black_count
    out = []
    for key in keys:
        black, blank = unpack(key)
        if blank >= NUM_SQUARES or black >> blank & 1 or black.bit_count() != k:
            out.append(-1)
            continue
        d = data[rank(black, blank, k)]
        out.append(d if d != UNREACHABLE_BYTE and d <= limit else -1)
    return out


def distances_array(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """:func:`distances` with numpy: an ``int64`` array for an array of keys."""
    import numpy as np

    from ..coords.arrays import popcount, ranks

    keys = np.asarray(keys, dtype=np.int64)
    out = np.full(keys.shape[0], -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> KEY_SHIFT
    valid = (blank >= 0) & (blank < NUM_SQUARES)
    blank = np.where(valid, blank, 0)
    valid &= (black >> blank & 1 == 0) & (popcount(black) == table.black_count)
    idx = np.flatnonzero(valid)
    d = table.payload[ranks(black[idx], blank[idx], table.state_count // NUM_SQUARES)]
    keep = (d != UNREACHABLE_BYTE) & (d <= limit)
    out[idx[keep]] = d[keep]
    return out


def walk(table: TableFile, black: int, blank: int, cap: int) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, probes)`` for the board (black
    mask, blank square): ``steps`` is its exact distance, or the result code
    ``UNREACHABLE`` when it cannot reach the target, ``OVER_LIMIT`` when it is more than
    ``cap`` moves away (see :mod:`bitknights.results`; the path is then empty).  Each step goes to
    the first neighbour, in knight-move order, one nearer; a table that offers none, or
    reaches 0 off the target, raises :class:`TableError`."""
    data, k = table.data, table.black_count
    if black.bit_count() != k:
        return UNREACHABLE, [], 0
    d = data[rank(black, blank, k)]
    if d == UNREACHABLE_BYTE:
        return UNREACHABLE, [], 1
    if d > cap:
        return OVER_LIMIT, [], 1
    blanks, probes = [blank], 1
    for want in range(d - 1, -1, -1):
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            probes += 1
            if data[rank(nb, n, k)] == want:
                black, blank = nb, n
                blanks.append(n)
                break
        else:
            raise _inconsistent(table)
    if black != table.target.black or blank != table.target.blank:
        raise _inconsistent(table)
    return d, blanks, probes


def _inconsistent(table: TableFile) -> TableError:
    return TableError(
        f"distance table {table.path} is inconsistent; run `bitknights table build` to rebuild it"
    )
