"""Every optimal solution of a board, from the distance service."""

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
    """:meth:`~bitknights.service.DistanceService.solution_paths` for ``target``."""
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
    (``a5`` first), the first ``limit`` when given, in bounded memory.  From the distance
    table, else the compact table when it is there or the board is far (built once), else
    by search (said once on standard error); ``engine='table'``: the distance table only.

    >>> import bitknights
    >>> for s in bitknights.optimal_solutions("10110/01*11/10111/01001/00000"):
    ...     print(" ".join(map(str, s)))
    e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5
    """
    from .service import service

    return service(target, engine=engine, cache_dir=cache_dir).optimal_solutions(board, limit=limit)


__all__ = ["optimal_solutions", "solution_paths"]
