"""Every optimal solution of a board read from the distance table, streamed.

A board ``d`` moves from the target has as many optimal move sequences as
:func:`bitknights.table.count_solutions` says (1,200 for the 7th Guest's board, up to
1,944,639 for a board 39 moves away).  :func:`table_paths` lists them depth first over the
table's shortest-path graph (:mod:`.solution_kernels`), one board per depth on an explicit
stack, so memory stays bounded whatever the count; they come a chunk at a time (a path is
the blank's squares, the start's first; a chunk an ``int8`` array, one path a row), in
lexicographic order of the squares the knights jump from, each step's candidates in
reading order (``a5``, ``b5``, ..., ``e1``).  Every distance it acts on is confirmed
against its neighbours, so a damaged or forged table ends in
:class:`~bitknights.table.store.TableError`, never a wrong sequence.

:func:`moves_of_chunks` turns the paths into moves
(:func:`bitknights.table.optimal_solutions`).  Without a table,
:func:`bitknights.optimal_solutions` finds the same sequences, in the same order, by
search.
"""

from __future__ import annotations

from itertools import count

from .. import native
from ..board import Board, Move
from ..coords import comb_count
from ..coords.arrays import POPCOUNT8, RANK_BYTE
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES
from . import solution_layout as K
from .store import TableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    import numpy as np

    from .distance_table import DistanceTable

CHUNKS = (1, 64, 4096)
"""Paths per chunk: the first chunk holds one path (it shows at once), then they grow."""
SEEN_SLOTS = 1 << 20
"""Boards the enumerator remembers as confirmed (8 MB; a board forgotten is confirmed
again, so this bounds memory, not correctness)."""


def chunk_sizes(limit: int | None) -> Iterator[int]:
    """Sizes of successive chunks (:data:`CHUNKS`, the last repeating), none above
    ``limit``."""
    for n in count():
        size = CHUNKS[min(n, len(CHUNKS) - 1)]
        yield size if limit is None else max(1, min(size, limit))


def table_paths(
    board: Board, table: DistanceTable, *, limit: int | None = None
) -> Iterator[np.ndarray]:
    """Chunks of every optimal path of ``board`` read from ``table`` (the first
    ``limit`` when given), each distance confirmed (see the module docstring).  Nothing
    when ``board`` never reaches the target.  Raises :class:`TableError` when the table
    contradicts itself."""
    import numpy as np

    k = table.black_count
    if board.black.bit_count() != k:
        return
    if table.distance(board) is None:  # unreachable in this table: so must its neighbours be
        if any(table.distance(child) is not None for _, child in board.children()):
            raise _inconsistent(table)
        return
    payload = table.file.payload
    depth = int(payload[_rank(board, k)])
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    stack = np.zeros((depth + 1, 3), dtype=np.int64)
    seen = np.full(SEEN_SLOTS, -1, dtype=np.int64)
    out = np.zeros((CHUNKS[-1], depth + 1), dtype=np.int8)
    kernel = native.kernels("table").optimal_paths
    target = table.target
    fixed = (np.int64(board.black), np.int64(board.blank), np.int64(target.black),
             np.int64(target.blank), np.int64(k), np.int64(comb_count(k)), KNIGHT_NEIGHBORS,
             KNIGHT_COUNTS, RANK_BYTE, POPCOUNT8)  # fmt: skip
    left = limit
    for size in chunk_sizes(limit):
        code = kernel(payload, *fixed, state, stack, seen, out[:size])
        rows = int(state[K.PATHS])
        if left is not None:
            rows = min(rows, left)
            left -= rows
        if rows:
            yield out[:rows].copy()
        if code == K.BAD:
            raise _inconsistent(table)
        if code == K.DONE or left == 0:
            return


def _rank(board: Board, k: int) -> int:
    from ..coords import rank

    return rank(board.black, board.blank, k)


def _inconsistent(table: DistanceTable) -> TableError:
    return TableError(
        f"distance table {table.file.path} is inconsistent; run `bitknights table build` "
        "to rebuild it"
    )


_MOVES = [Move(f, t) for f in range(NUM_SQUARES) for t in range(NUM_SQUARES)]
"""``_MOVES[from * 25 + to]``: every move, made once."""


def moves_of(path: np.ndarray | list[int]) -> tuple[Move, ...]:
    """The moves of a path given as the blank's squares (the start's first): at each step
    the knight on the next square jumps into the blank.

    >>> [str(m) for m in moves_of([7, 4, 13])]
    ['e5-c4', 'd3-e5']
    """
    squares = [int(s) for s in path]
    return tuple(_MOVES[f * NUM_SQUARES + t] for t, f in zip(squares, squares[1:]))


def check_limit(limit: object) -> None:
    """A ``limit`` is ``None`` or a non-negative integer (``TypeError``,
    :class:`~bitknights.errors.BitknightsError` otherwise)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
        raise TypeError(f"limit is an integer or None, got {limit!r}")
    if limit is not None and limit < 0:
        from ..errors import BitknightsError

        raise BitknightsError(f"limit must be non-negative, got {limit}")


def moves_of_chunks(chunks: Iterable[np.ndarray]) -> Iterator[tuple[Move, ...]]:
    """The move sequences of chunks of paths, a tuple of moves a path (the moves are
    made once, :data:`_MOVES`, so millions of sequences cost little)."""
    import numpy as np

    moves = _MOVES.__getitem__
    for chunk in chunks:
        codes = chunk[:, 1:].astype(np.int16) * NUM_SQUARES + chunk[:, :-1]
        for row in codes.tolist():
            yield tuple(map(moves, row))
