"""The public solving API, each function a request to the distance service: solving
boards, and listing every optimal solution of one."""

from __future__ import annotations

from .board import TARGET, Board, Move
from .service import DEFAULT_MAX_DEPTH, ENGINE_CHOICES, service

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator
    from typing import Any

    from .solution import Solution


def solve(
    board: Board | str,
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """The fewest moves from ``board`` to ``target`` and one optimal path.

    ``steps`` is ``None`` beyond ``max_depth`` (``None``: no limit), when the board cannot
    reach the target, or after ``timeout`` seconds (``status`` says which).  ``cache_dir``:
    where cached tables are looked for.  Ctrl-C stops the search within milliseconds.

    >>> s = solve("10110/01*11/10111/01001/00000")
    >>> s.steps, [str(m) for m in s.moves][:3]
    (7, ['e5-c4', 'd3-e5', 'b2-d3'])
    >>> solve("01011/110*1/01110/01010/00100").steps is None
    True
    >>> solve("01011/110*1/01110/01010/00100", max_depth=None).steps
    18
    """
    answers = service(target, engine=engine, cache_dir=cache_dir)
    return answers.solve(board, max_depth=max_depth, timeout=timeout)


def iter_solve(
    boards: Iterable[Board | str],
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
    workers: int = 0,
    count_solutions: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[Solution]:
    """:func:`solve` for each board, lazily, results in input order.

    Boards are solved on ``workers`` threads (0: one per CPU), each within ``timeout``
    seconds (else ``status='timeout'``); ``count_solutions`` sets each solved result's
    ``optimal_solutions``.  Ctrl-C, or closing the iterator, stops every search still
    running.  Arguments are checked before any thread starts.
    """
    answers = service(target, engine=engine, cache_dir=cache_dir)
    return answers.solutions(boards, max_depth=max_depth, timeout=timeout, workers=workers,
                             count_solutions=count_solutions)  # fmt: skip


def solve_many(boards: Iterable[Board | str], **options: Any) -> list[Solution]:
    """:func:`iter_solve` as a list (the same keyword arguments)."""
    return list(iter_solve(boards, **options))


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
    return service(target, engine=engine, cache_dir=cache_dir).optimal_solutions(board, limit=limit)


__all__ = ["DEFAULT_MAX_DEPTH", "ENGINE_CHOICES", "iter_solve", "optimal_solutions", "solve",
           "solve_many"]  # fmt: skip
