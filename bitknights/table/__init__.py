"""The exhaustive distance table: every board's exact distance to a target, from one
breadth-first search (:func:`build`) over the ``67,603,900`` boards, one byte a board
(68 MB) in the cache directory (:mod:`bitknights.table.store`).

Each function asks the distance service (:mod:`bitknights.service`) with the ``table``
engine, for a ``target`` (default: the classic one) and a ``cache_dir`` (default:
:func:`default_cache_dir`); all but :func:`build` and :func:`ensure` raise
:class:`TableError` without a valid table: nothing is built silently.

Once ``bitknights table build`` has run (``tests/test_table.py`` runs the same calls)::

    from bitknights import table
    table.distance("10110/01*11/10111/01001/00000")  # 7
    table.layer_counts()[:4]                          # [1, 8, 14, 38]
"""

from __future__ import annotations

from ..board import TARGET, Board, Move
from .store import TableError, default_cache_dir, table_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    import numpy as np

    from ..service import DistanceService
    from .distance_table import DistanceTable, Hint

    Dir = str | os.PathLike[str] | None


def _table(target: Board | str, cache_dir: Dir) -> DistanceService:
    """The service answering from the table of ``target`` only."""
    from ..service import service

    answers = service(target, engine="table", cache_dir=cache_dir)
    answers.file()  # a missing or refused table raises, whatever was learnt before
    return answers


def load_table(target: Board | str = TARGET, *, cache_dir: Dir = None) -> DistanceTable:
    """The table of ``target`` (its payload checked as it is read)."""
    return _table(target, cache_dir)._whole_table()


def build(
    target: Board | str = TARGET, *, cache_dir: Dir = None, quiet: bool | None = None
) -> DistanceTable:
    """Build the table of ``target`` (:data:`bitknights.estimates.TABLE_BUILD` seconds),
    write it atomically, replacing any file there, and return it.  Progress goes to
    standard error unless ``quiet`` (``None``: off a terminal, or as
    :func:`bitknights.progress.set_quiet` said)."""
    from .. import progress
    from ..service import service

    with progress.feedback(quiet):
        service(target, engine="table", cache_dir=cache_dir).build_table()
    return load_table(target, cache_dir=cache_dir)


def ensure(
    target: Board | str = TARGET, *, cache_dir: Dir = None, quiet: bool | None = None
) -> DistanceTable:
    """The table of ``target``: loaded when a valid file is present (checked in full),
    else built."""
    try:
        table = load_table(target, cache_dir=cache_dir)
        table.file.verify()
        return table
    except TableError:
        return build(target, cache_dir=cache_dir, quiet=quiet)


def layer_counts(target: Board | str = TARGET, *, cache_dir: Dir = None) -> list[int]:
    """``layers[d]``: how many boards are exactly ``d`` moves from ``target``, up to the
    farthest."""
    return load_table(target, cache_dir=cache_dir).layers


def distance(
    board: Board | str, target: Board | str = TARGET, *, cache_dir: Dir = None
) -> int | None:
    """The exact fewest moves from ``board`` to ``target``; ``None`` if it never gets
    there (another number of black knights)."""
    return _table(target, cache_dir).distance(board)


def distances(
    boards: np.ndarray | list[Board], target: Board | str = TARGET, *, cache_dir: Dir = None
) -> np.ndarray:
    """Exact distances of many boards (``Board`` objects or an ``int64`` array of keys)
    as an ``int64`` array, ``-1`` where a board never reaches the target; in parallel."""
    return load_table(target, cache_dir=cache_dir).distances(boards)


def optimal_path(
    board: Board | str, target: Board | str = TARGET, *, cache_dir: Dir = None
) -> list[Board] | None:
    """One optimal path from ``board`` (first) to ``target`` (last), or ``None``."""
    return _table(target, cache_dir).path(board)


def hints(board: Board | str, target: Board | str = TARGET, *, cache_dir: Dir = None) -> list[Hint]:
    """Every legal move of ``board``: the board it makes, its distance, whether optimal."""
    return _table(target, cache_dir).hints(board)


def count_solutions(
    board: Board | str, target: Board | str = TARGET, *, cache_dir: Dir = None
) -> int:
    """How many distinct optimal move sequences lead from ``board`` to ``target``
    (``0`` if none, ``1`` from the target itself); exact, as a Python ``int``."""
    return _table(target, cache_dir).count_solutions(board)


def optimal_solutions(
    board: Board | str,
    *,
    limit: int | None = None,
    target: Board | str = TARGET,
    cache_dir: Dir = None,
) -> Iterator[tuple[Move, ...]]:
    """Deprecated: :func:`bitknights.optimal_solutions` with ``engine='table'``."""
    import warnings

    from ..api import optimal_solutions as one

    warnings.warn("bitknights.table.optimal_solutions is deprecated: use "
                  "bitknights.optimal_solutions(..., engine='table')", DeprecationWarning,
                  stacklevel=2)  # fmt: skip
    return one(board, limit=limit, target=target, cache_dir=cache_dir, engine="table")


def random_boards(
    distance: int,
    count: int,
    seed: int | None = None,
    target: Board | str = TARGET,
    *,
    cache_dir: Dir = None,
) -> list[Board]:
    """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves from
    ``target``, reproducible with ``seed`` (:class:`~bitknights.errors.BitknightsError`
    when fewer exist)."""
    return _table(target, cache_dir).random_boards(distance, count, seed)


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
