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

from ..coords import KEY_SHIFT, comb_count, rank, unpack
from ..results import OVER_LIMIT, UNREACHABLE, UNSEEN
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import TableError, TableFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

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
        out.append(d if d != UNSEEN and d <= limit else -1)
    return out


def confirmed_distances(
    table: TableFile, keys: Iterable[int], limit: int, *, walk_paths: bool = True
) -> list[int]:
    """:func:`distances`, every answer confirmed before it is returned: the board's
    neighbours are all one nearer or one farther (as in any breadth-first distance), so a
    single damaged or forged byte is caught even when its block checksum was recomputed;
    and (``walk_paths``) a path of exactly that many moves to the target is walked
    (:func:`walk`), so an answer is never shorter than the true distance.  Raises
    :class:`TableError`."""
    out = distances(table, keys, limit)
    data, k = table.data, table.black_count
    for key, d in zip(keys, out):
        if d < 0:
            continue
        black, blank = unpack(key)
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            if abs(data[rank(nb, n, k)] - d) != 1:
                raise _inconsistent(table)
        if walk_paths:
            walk(table, black, blank, d)
    return out


def distances_array(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """:func:`distances` with numpy, an ``int64`` array for an array of keys, each answer
    confirmed as :func:`confirmed_distances` does (neighbours one apart)."""
    import numpy as np

    from ..coords.arrays import popcount, ranks

    keys = np.asarray(keys, dtype=np.int64)
    out = np.full(keys.shape[0], -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> KEY_SHIFT
    valid = (blank >= 0) & (blank < NUM_SQUARES)
    blank = np.where(valid, blank, 0)
    valid &= (black >> blank & 1 == 0) & (popcount(black) == table.black_count)
    idx = np.flatnonzero(valid)
    ncomb = comb_count(table.black_count)
    d = table.values(ranks(black[idx], blank[idx], ncomb))
    keep = (d != UNSEEN) & (d <= limit)
    idx, d = idx[keep], d[keep].astype(np.int64)
    _confirm(table, black[idx], blank[idx], d, ncomb)
    out[idx] = d
    return out


def _confirm(
    table: TableFile, black: np.ndarray, blank: np.ndarray, d: np.ndarray, ncomb: int
) -> None:
    """Every neighbour of every answered board is one nearer or one farther, as in any
    breadth-first distance (and so one is nearer): a single damaged or forged byte is
    caught even when its block checksum was recomputed.  Raises :class:`TableError`."""
    import numpy as np

    from ..coords.arrays import ranks
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

    nearer = d == 0
    for j in range(8):
        has = KNIGHT_COUNTS[blank] > j
        if not has.any():
            break
        b, k, dist = black[has], blank[has], d[has]
        n = KNIGHT_NEIGHBORS[k, j]
        moved = ((b >> n) & 1) * ((np.int64(1) << n) | (np.int64(1) << k))
        there = table.values(ranks(b ^ moved, n, ncomb)).astype(np.int64)
        if (np.abs(there - dist) != 1).any():
            raise _inconsistent(table)
        nearer[has] |= there == dist - 1
    if not nearer.all():
        raise _inconsistent(table)


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
    if d == UNSEEN:
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
