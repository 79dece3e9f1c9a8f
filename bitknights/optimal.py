"""Every optimal solution of a board: :func:`optimal_solutions`, the one function that
answers it, asks the distance service
(:meth:`bitknights.service.DistanceService.solution_paths`), which reads the distance
table, else the compact table, else searches (IDA* listing every solution at the optimal
threshold).  All give the same sequences in the same order (lexicographic in the squares
the knights jump from, reading order ``a5`` first), a chunk at a time, with memory bounded
whatever the count.
"""

from __future__ import annotations

from .board import TARGET, Board, Move

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator

    import numpy as np


def solution_paths(
    board: Board | str,
    *,
    limit: int | None = None,
    target: Board | str = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
    quiet: bool = False,
) -> tuple[str, Iterable[np.ndarray]]:
    """``(source, chunks)``: every optimal path of ``board`` (the first ``limit``) as
    chunks of the blank's squares, with where they come from (``'table'``, ``'compact'``
    or ``'search'``): :meth:`~bitknights.service.DistanceService.solution_paths`."""
    from .service import service

    return service(target, cache_dir=cache_dir).solution_paths(board, limit=limit, quiet=quiet)


def optimal_solutions(
    board: Board | str,
    *,
    limit: int | None = None,
    target: Board | str = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
    engine: str = "auto",
) -> Iterator[tuple[Move, ...]]:
    """Every distinct optimal move sequence from ``board`` to ``target``, each a tuple of
    :class:`~bitknights.Move`, in lexicographic order of the squares the knights jump from
    (reading order, ``a5`` first), the first ``limit`` when given.  From the distance
    table when there is one, else from the compact table when it is there or the board
    is far (built once, announced), else by search (said once on standard error);
    ``engine='table'``: from the distance table only (``TableError`` without one).
    Memory stays bounded whatever the count; a board that never reaches the target has
    none, the target itself one (no moves).

    >>> import bitknights
    >>> for s in bitknights.optimal_solutions("10110/01*11/10111/01001/00000"):
    ...     print(" ".join(map(str, s)))
    e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5
    """
    from .service import service

    return service(target, engine=engine, cache_dir=cache_dir).optimal_solutions(board, limit=limit)


__all__ = ["optimal_solutions", "solution_paths"]
