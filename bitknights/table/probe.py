"""Reading a table file, every answer confirmed: distances, optimal paths and hints, read
straight from its bytes.

A table file's checksums catch accidents; someone who can write the file can recompute
them.  So no answer leaves this module unconfirmed (the rules any breadth-first distance
satisfies, checked where the answer is read):

* **every answer**, ``-1`` included: the board's neighbours are all exactly one move
  nearer or one farther, and one is nearer (unless the board is the target, the only board
  at 0); a board the table calls unreachable (byte :data:`~bitknights.results.UNSEEN`)
  has only unreachable neighbours, and the table's header says some boards are
  unreachable.  A damaged or forged byte is caught wherever it is read;
* **every answer given with a path** (:func:`walk`), and every answer of a batch when the
  caller asks (``walk_paths``): a path of exactly that many moves, each to a board one
  nearer, ending on the target.  A path proves the distance is at most that, so a walked
  answer is never too small.

Any inconsistency raises :class:`~bitknights.table.store.TableError` naming the file and
the fix; nothing inconsistent is ever returned.  What a forgery can still do, and what
proves a whole table exact (``bitknights table verify``), is in the README's
*Reliability* section.

Two flavours over the same verified file (:func:`bitknights.table.store.load`):

* plain Python (:func:`confirmed_distances`, :func:`walk`, :func:`hints`): for the classic
  job on a few thousand boards importing numpy (about 0.1 s) costs more than the whole
  answer; a rank takes about 0.3 µs with :func:`bitknights.coords.ranker`;
* numpy (:func:`distances_array`): vectorized ranking and confirmation, about a
  microsecond a board, so big batches never need numba either.
"""

from __future__ import annotations

from ..coords import KEY_SHIFT, comb_count, rank, ranker
from ..results import OVER_LIMIT, UNREACHABLE, UNSEEN
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import TableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import numpy as np

    from ..board import Board
    from .store import TableFile

BULK_FROM = 512
"""Batches of at least this many boards (without walks) read what they need in one pass
in file order, each 4 KiB block once and none kept: they touch a quarter of the table's
blocks or more, and keeping each in memory costs a fresh page of memory a block."""

RANKER_FROM = 64
"""Batches of at least this many boards rank with :func:`bitknights.coords.ranker` (its
tables cost about 2 ms once; each of a board's nine ranks then costs a fifth)."""


def _valid(black: int, blank: int, k: int) -> bool:
    """A board of the table: the blank on the board, not under a knight, ``k`` black
    knights (a board with other knight counts never reaches the target: no read needed)."""
    return blank < NUM_SQUARES and not black >> blank & 1 and black.bit_count() == k


def _rank_of(table: TableFile, boards: int) -> Callable[[int, int], int]:
    k = table.black_count
    if boards >= RANKER_FROM:
        return ranker(k)
    return lambda black, blank: rank(black, blank, k)


def _neighbour_ranks(rank_of: Callable[[int, int], int], black: int, blank: int) -> list[int]:
    return [
        rank_of(black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black, n)
        for n in KNIGHT_TARGETS[blank]
    ]


def _agrees(table: TableFile, d: int, around: Iterable[int], at_target: bool) -> bool:
    """Whether ``d``, a board's byte, agrees with ``around``, its neighbours' bytes (the
    rules in the module docstring; ``at_target``: the board is the target)."""
    if d == UNSEEN:
        return bool(table.unreachable) and all(e == UNSEEN for e in around)
    if d > table.max_distance or (d == 0) != at_target:
        return False
    nearer = d == 0
    for e in around:
        if e != d + 1 or e == UNSEEN:
            if e != d - 1:
                return False
            nearer = True
    return nearer


def _confirm(table: TableFile, rank_of: Callable[[int, int], int], black: int, blank: int,
             d: int) -> None:  # fmt: skip
    """Raise unless ``d``, the byte of the board (black, blank), agrees with its
    neighbours' bytes."""
    data, target = table.data, table.target
    around = [data[r] for r in _neighbour_ranks(rank_of, black, blank)]
    if not _agrees(table, d, around, black == target.black and blank == target.blank):
        raise inconsistent(table)


def confirmed_distances(
    table: TableFile, keys: Iterable[int], limit: int, *, walk_paths: bool = True
) -> list[int]:
    """The exact distance of each board (packed keys) to the table's target; ``-1`` when
    it is more than ``limit`` moves away or can never reach the target.  Every answer is
    confirmed by its neighbours, and (``walk_paths``) every distance within the limit by
    walking a path of that length (:func:`walk`).  Raises :class:`TableError`."""
    keys = list(keys)
    data, k = table.data, table.black_count
    rank_of = _rank_of(table, len(keys))
    if not walk_paths and len(keys) >= BULK_FROM:
        return _bulk_distances(table, keys, limit, rank_of)
    out = []
    for key in keys:
        black, blank = key & FULL_MASK, key >> KEY_SHIFT
        if not _valid(black, blank, k):
            out.append(-1)
            continue
        d = data[rank_of(black, blank)]
        _confirm(table, rank_of, black, blank, d)
        if d == UNSEEN or d > limit:
            out.append(-1)
            continue
        if walk_paths:
            _walk(table, rank_of, black, blank, d)
        out.append(d)
    return out


def _bulk_distances(
    table: TableFile, keys: list[int], limit: int, rank_of: Callable[[int, int], int]
) -> list[int]:
    """:func:`confirmed_distances` without walks for a large batch: every byte it needs
    (each board's and its neighbours') is read in one pass in file order
    (:meth:`~bitknights.table.store.TableFile.bytes_at`), then every answer is confirmed."""
    k, target = table.black_count, table.target
    boards: list[tuple[int, int, int]] = []  # (index, first rank's position, neighbours)
    wanted: list[int] = []
    for i, key in enumerate(keys):
        black, blank = key & FULL_MASK, key >> KEY_SHIFT
        if _valid(black, blank, k):
            boards.append((i, len(wanted), len(KNIGHT_TARGETS[blank])))
            wanted.append(rank_of(black, blank))
            wanted += _neighbour_ranks(rank_of, black, blank)
    got = table.bytes_at(wanted)
    out = [-1] * len(keys)
    for i, at, count in boards:
        d = got[at]
        key = keys[i]
        at_target = key == target.key
        if not _agrees(table, d, got[at + 1 : at + 1 + count], at_target):
            raise inconsistent(table)
        if d != UNSEEN and d <= limit:
            out[i] = d
    return out


def distances_array(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """:func:`confirmed_distances` with numpy (neighbours confirmed, no walks), an
    ``int64`` array for an array of keys."""
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
    d = table.values(ranks(black[idx], blank[idx], ncomb)).astype(np.int64)
    _confirm_array(table, black[idx], blank[idx], d, ncomb)
    keep = (d != UNSEEN) & (d <= limit)
    out[idx[keep]] = d[keep]
    return out


def _confirm_array(
    table: TableFile, black: np.ndarray, blank: np.ndarray, d: np.ndarray, ncomb: int
) -> None:
    """:func:`_confirm` for arrays of boards and their bytes.  Raises :class:`TableError`."""
    import numpy as np

    from ..coords.arrays import ranks
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

    lost = d == UNSEEN
    if lost.any() and not table.unreachable:
        raise inconsistent(table)
    target = table.target
    at_target = (black == target.black) & (blank == target.blank)
    if ((d == 0) != at_target).any() or (d[~lost] > table.max_distance).any():
        raise inconsistent(table)
    nearer = d == 0
    for j in range(8):
        has = KNIGHT_COUNTS[blank] > j
        if not has.any():
            break
        b, k, dist = black[has], blank[has], d[has]
        n = KNIGHT_NEIGHBORS[k, j]
        moved = ((b >> n) & 1) * ((np.int64(1) << n) | (np.int64(1) << k))
        there = table.values(ranks(b ^ moved, n, ncomb)).astype(np.int64)
        gone = dist == UNSEEN
        if (gone != (there == UNSEEN)).any() or (np.abs(there - dist)[~gone] != 1).any():
            raise inconsistent(table)
        nearer[has] |= there == dist - 1
    if not (nearer | lost).all():
        raise inconsistent(table)


def walk(table: TableFile, black: int, blank: int, cap: int) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, probes)`` for the board (black
    mask, blank square): ``steps`` is its exact distance, or the result code
    ``UNREACHABLE`` when it cannot reach the target, ``OVER_LIMIT`` when it is more than
    ``cap`` moves away (see :mod:`bitknights.results`; the path is then empty).  The
    board's byte is confirmed by its neighbours first; each step goes to the first
    neighbour, in knight-move order, one nearer.  Raises :class:`TableError`."""
    k = table.black_count
    if not _valid(black, blank, k):
        return UNREACHABLE, [], 0
    rank_of = _rank_of(table, 1)
    d = table.data[rank_of(black, blank)]
    _confirm(table, rank_of, black, blank, d)
    probes = 1 + len(KNIGHT_TARGETS[blank])
    if d == UNSEEN:
        return UNREACHABLE, [], probes
    if d > cap:
        return OVER_LIMIT, [], probes
    blanks, more = _walk(table, rank_of, black, blank, d)
    return d, blanks, probes + more


def _walk(table: TableFile, rank_of: Callable[[int, int], int], black: int, blank: int,
          d: int) -> tuple[list[int], int]:  # fmt: skip
    """The blank's squares along a path of ``d`` moves to the target, each move to the
    first neighbour one nearer, and the probes made.  Raises :class:`TableError` when
    there is no such path."""
    data = table.data
    blanks, probes = [blank], 0
    for want in range(d - 1, -1, -1):
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            probes += 1
            if data[rank_of(nb, n)] == want:
                black, blank = nb, n
                blanks.append(n)
                break
        else:
            raise inconsistent(table)
    if black != table.target.black or blank != table.target.blank:
        raise inconsistent(table)
    return blanks, probes


def distance(table: TableFile, board: Board) -> int | None:
    """The exact distance of ``board``, confirmed by its neighbours; ``None`` when it
    never reaches the target."""
    if not _valid(board.black, board.blank, table.black_count):
        return None
    rank_of = _rank_of(table, 1)
    d = table.data[rank_of(board.black, board.blank)]
    _confirm(table, rank_of, board.black, board.blank, d)
    return None if d == UNSEEN else d


def inconsistent(table: TableFile) -> TableError:
    """The error for a table whose bytes break the rules of a distance."""
    return TableError(
        f"distance table {table.path} is inconsistent (a damaged or forged byte); run "
        "`bitknights table build` to rebuild it, or `bitknights table verify` to check it"
    )


__all__ = [
    "RANKER_FROM",
    "confirmed_distances",
    "distance",
    "distances_array",
    "inconsistent",
    "walk",
]
