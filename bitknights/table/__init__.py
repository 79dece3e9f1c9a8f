"""The exhaustive distance table: every board's exact distance to a target.

There are only ``25 * C(24, 12) = 67,603,900`` boards with 12 knights of each colour, so
one breadth-first search from the target (a few seconds, :func:`build`) answers every
question exactly: a board's distance, an optimal path, how many optimal move sequences
there are, which moves are optimal, how many boards lie at each distance, random boards at
a chosen distance.  The table is stored at one byte per board (about 68 MB) in the user
cache directory; see :mod:`bitknights.table.store` for the file format and where it lives.

Every function here takes the ``target`` (default: the classic one) and a ``cache_dir``
(default: see :func:`~bitknights.table.store.default_cache_dir`), and, except
:func:`build` and :func:`ensure`, raises :class:`TableError` when no valid table file is
there: nothing is ever built silently.  Importing this package imports neither numba nor
any table; the kernels compile, or load from numba's cache, on first use.

Once ``bitknights table build`` has run (``tests/test_table.py`` runs the same calls)::

    from bitknights import table
    table.distance("10110/01*11/10111/01001/00000")  # 7
    table.layer_counts()[:4]                          # [1, 8, 14, 38]
"""

from __future__ import annotations

from ..board import TARGET, Board, as_board
from .store import TableError, default_cache_dir, table_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    import numpy as np

    from ..board import Move
    from .distance_table import DistanceTable, Hint

_last: tuple[object, DistanceTable] | None = None


def load_table(
    target: Board | str = TARGET, *, cache_dir: str | os.PathLike[str] | None = None
) -> DistanceTable:
    """The table of ``target`` as a :class:`~bitknights.table.distance_table.DistanceTable` (its
    header checked once per process while the file is unchanged, its payload as it is
    read: see :mod:`bitknights.table.store`).  Raises
    :class:`TableError` when it is missing, corrupt, stale or for another target."""
    global _last
    from . import store
    from .distance_table import DistanceTable

    file = store.load(as_board(target), cache_dir)
    if _last is None or _last[0] is not file:
        _last = (file, DistanceTable(file))
    return _last[1]


def build(
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    quiet: bool | None = None,
) -> DistanceTable:
    """Build the table of ``target`` (:data:`bitknights.estimates.TABLE_BUILD` seconds for
    12 black knights on two cores), write it atomically, replacing any file there, and
    return it.  Progress goes to standard error unless ``quiet`` (``None``: quiet when
    standard error is not a terminal): one line that updates while it runs."""
    from .builder import build_table

    build_table(as_board(target), cache_dir, quiet=quiet)
    return load_table(target, cache_dir=cache_dir)


def ensure(
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    quiet: bool | None = None,
) -> DistanceTable:
    """The table of ``target``: loaded when a valid file is present (checked in full),
    else built."""
    try:
        table = load_table(target, cache_dir=cache_dir)
        table.file.verify()
        return table
    except TableError:
        return build(target, cache_dir=cache_dir, quiet=quiet)


def layer_counts(
    target: Board | str = TARGET, *, cache_dir: str | os.PathLike[str] | None = None
) -> list[int]:
    """``layers[d]``: how many boards are exactly ``d`` moves from ``target``; the last
    entry is the farthest distance.  Their sum is every board that reaches the target."""
    return load_table(target, cache_dir=cache_dir).layers


def distance(
    board: Board | str,
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> int | None:
    """The exact fewest moves from ``board`` to ``target``; ``None`` if it never gets
    there (another number of black knights)."""
    return load_table(target, cache_dir=cache_dir).distance(as_board(board))


def distances(
    boards: np.ndarray | list[Board],
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """Exact distances of many boards (``Board`` objects or an ``int64`` array of
    ``Board.key`` values) as an ``int64`` array, ``-1`` where a board never reaches the
    target.  Vectorized and parallel: for millions of boards."""
    return load_table(target, cache_dir=cache_dir).distances(boards)


def optimal_path(
    board: Board | str,
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Board] | None:
    """One optimal path from ``board`` (first) to ``target`` (last), or ``None``."""
    return load_table(target, cache_dir=cache_dir).path(as_board(board))


def hints(
    board: Board | str,
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Hint]:
    """Every legal move of ``board``: the board it makes, that board's distance and
    whether the move is optimal (leads one step nearer)."""
    return load_table(target, cache_dir=cache_dir).hints(as_board(board))


def count_solutions(
    board: Board | str,
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> int:
    """How many distinct optimal move sequences lead from ``board`` to ``target``
    (``0`` if none, ``1`` from the target itself); exact, as a Python ``int``."""
    return load_table(target, cache_dir=cache_dir).count_solutions(as_board(board))


def optimal_solutions(
    board: Board | str,
    *,
    limit: int | None = None,
    target: Board | str = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[tuple[Move, ...]]:
    """Every distinct optimal move sequence from ``board`` to ``target`` (each a tuple of
    :class:`~bitknights.Move`), streamed in lexicographic order of the squares the knights
    jump from (reading order, ``a5`` first); the first ``limit`` when given, read from
    the board's shortest-path graph in the table (a board with no next board raises
    :class:`TableError`).  Memory stays bounded whatever the count
    (:mod:`bitknights.table.solutions`).  :func:`bitknights.optimal_solutions` does
    the same by search when there is no table."""
    from .solutions import check_limit, moves_of_chunks, table_paths

    check_limit(limit)
    table = load_table(target, cache_dir=cache_dir)
    if limit == 0:
        return iter(())
    return moves_of_chunks(table_paths(as_board(board), table, limit=limit))


def random_boards(
    distance: int,
    count: int,
    seed: int | None = None,
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Board]:
    """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves from
    ``target``, reproducible with ``seed``; raises
    :class:`~bitknights.errors.BitknightsError` when fewer exist."""
    return load_table(target, cache_dir=cache_dir).random_boards(distance, count, seed)


__all__ = [
    "TableError",
    "build",
    "count_solutions",
    "default_cache_dir",
    "distance",
    "distances",
    "ensure",
    "hints",
    "layer_counts",
    "load_table",
    "optimal_path",
    "optimal_solutions",
    "random_boards",
    "table_path",
]
