"""Every optimal solution of a board, from a table when there is one, else by search:
:func:`optimal_solutions` asks the distance service
(:meth:`bitknights.service.DistanceService.solution_paths`), which picks.

* :func:`bitknights.table.solutions.table_paths` walks the board's shortest-path graph
  in the distance table, or without it in the compact table (built once when a far board
  needs it);
* :func:`bitknights.engines.lab_ida.search_solutions` runs IDA* under an admissible bound
  and, at the optimal threshold, lists every solution instead of stopping at the first
  (near boards when there is no table).

Both give the same sequences in the same order (lexicographic in the squares the knights
jump from, reading order ``a5`` first), a chunk of paths at a time, with memory bounded
whatever the count.
"""

from __future__ import annotations

from .board import TARGET, Board, Move, as_board

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
    chunks of the blank's squares, from the distance table (``source`` ``'table'``), the
    compact table (``'compact'``) or by search (``'search'``; said once per process and
    target on standard error unless ``quiet``): the distance service's
    :meth:`~bitknights.service.DistanceService.solution_paths`."""
    from .service import service

    answers = service(as_board(target), cache_dir=cache_dir)
    return answers.solution_paths(board, limit=limit, quiet=quiet)


def optimal_solutions(
    board: Board | str,
    *,
    limit: int | None = None,
    target: Board | str = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[tuple[Move, ...]]:
    """Every distinct optimal move sequence from ``board`` to ``target``, each a tuple of
    :class:`~bitknights.Move`, in lexicographic order of the squares the knights jump from
    (reading order, ``a5`` first), the first ``limit`` when given.  From the distance
    table when there is one, else from the compact table when it is there or the board
    is far (built once, announced), else by search (said once on standard error).
    Memory stays bounded whatever the count; a board that never reaches the target has
    none, the target itself one (no moves).

    >>> import bitknights
    >>> for s in bitknights.optimal_solutions("10110/01*11/10111/01001/00000"):
    ...     print(" ".join(map(str, s)))
    e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5
    """
    from .table.solutions import moves_of_chunks

    _, chunks = solution_paths(board, limit=limit, target=target, cache_dir=cache_dir)
    if limit != 0:
        yield from moves_of_chunks(chunks)


__all__ = ["optimal_solutions", "solution_paths"]
