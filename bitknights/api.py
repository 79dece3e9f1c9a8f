"""The public solving API: :func:`solve` and :func:`solve_many`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from .board import TARGET, Board
from .engines import ENGINES, get_engine
from .errors import BitknightsError

if TYPE_CHECKING:
    from .solution import Solution

DEFAULT_MAX_DEPTH = 15
ENGINE_CHOICES = ("auto", *ENGINES)


def as_board(board: Board | str) -> Board:
    """``board`` itself, or the board its text describes."""
    return board if isinstance(board, Board) else Board(board)


NUMPY_BIDIR_DEPTH = 17
"""Deepest limit the bidirectional engine answers with numpy alone (ball of radius 12 plus
5 start layers; kept equal to ``NUMPY_RADIUS + NUMPY_LAYERS`` in engines/bidir.py)."""

MITM_DEPTH = 15
"""Deepest limit ``auto`` hands to the plain-Python meet-in-the-middle engine: its
radius-10 ball plus at most 5 forward layers (see :mod:`bitknights.engines.mitm`)."""

MITM_MAX_BOARDS = 200
"""Most boards ``auto`` hands to the meet-in-the-middle engine.  It needs no numpy
(whose import alone takes 0.1 s) but spends about 0.3 ms a board where numpy
bidirectional search spends microseconds; measured whole process with nothing cached on
random boards (most of them ``-1``), the two cross between 400 and 800 boards, so this
keeps a margin."""


def choose_engine(
    engine: str,
    max_depth: int | None,
    target: Board | str | None = TARGET,
    *,
    counts_only: bool = False,
    boards: int | None = None,
) -> str:
    """The engine ``engine='auto'`` stands for, for requests to reach ``target``:

    1. ``table`` when a valid distance table of ``target`` is in the cache directory
       (checked in full once per process and file: header, size, payload checksum; see
       :mod:`bitknights.table.store`).  Exact at any depth, microseconds a board.  The
       table is never built here: ``bitknights table build`` does that, once.
    2. ``mitm`` for a few boards (``boards``, at most ``MITM_MAX_BOARDS``) that only want
       the move counts (``counts_only``, the classic output) under a limit of at most
       ``MITM_DEPTH`` (the classic 15): meeting in the middle in plain Python, it starts
       without numpy or numba, which a judge-sized input cannot afford (10 boards, whole
       process, nothing cached: see the README's start-up table).  ``boards=None`` (not
       known) never chooses it.
    3. ``bidir`` for batches that only want the move counts under a limit of at most
       ``NUMPY_BIDIR_DEPTH``: it answers them with numpy alone, without importing numba
       (measured 0.30 s against IDA*'s 0.40 s, whole process, for the 2000-board hard
       batch with nothing cached).
    4. ``ida`` for other requests with a limit: a handful of nodes per board within the
       classic limit, and the path comes free.
    5. ``bidir`` for exact answers at any depth (its cost grows with the square root of
       IDA*'s).

    ``target=None`` skips the table check.

    >>> choose_engine("auto", 15, None, counts_only=True, boards=10)
    'mitm'
    >>> choose_engine("auto", 15, None, counts_only=True, boards=5000)
    'bidir'
    >>> choose_engine("auto", 15, None, boards=10)  # a path is wanted
    'ida'
    """
    if engine not in ENGINE_CHOICES:
        raise BitknightsError(
            f"unknown engine {engine!r} (choose from {', '.join(ENGINE_CHOICES)})"
        )
    if engine != "auto":
        return engine
    if target is not None and "table" in ENGINES:
        from .table import store

        if store.available(as_board(target)):
            return "table"
    if max_depth is None:
        return "bidir"
    if (
        counts_only
        and max_depth <= MITM_DEPTH
        and boards is not None
        and boards <= MITM_MAX_BOARDS
        and "mitm" in ENGINES
    ):
        return "mitm"
    return "bidir" if counts_only and max_depth <= NUMPY_BIDIR_DEPTH else "ida"


def _check_depth(max_depth: int | None) -> int | None:
    if max_depth is None:
        return None
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise BitknightsError(
            f"max_depth must be a non-negative integer or None, got {max_depth!r}"
        )
    return max_depth


def solve(
    board: Board | str,
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
) -> Solution:
    """The fewest moves from ``board`` to ``target`` and one optimal path.

    ``steps`` is ``None`` when the distance exceeds ``max_depth`` (``None``: no limit, every
    board with the target's knight counts is solved), the board cannot reach the target,
    or ``timeout`` seconds ran out (``status`` says which).

    >>> s = solve("10110/01*11/10111/01001/00000")
    >>> s.steps, [str(m) for m in s.moves][:3]
    (7, ['e5-c4', 'd3-e5', 'b2-d3'])
    >>> solve("01011/110*1/01110/01010/00100").steps is None
    True
    >>> solve("01011/110*1/01110/01010/00100", max_depth=None).steps
    18
    """
    max_depth = _check_depth(max_depth)
    fn = get_engine(choose_engine(engine, max_depth, target))
    if timeout is None:
        return fn(as_board(board), as_board(target), max_depth)
    return fn(as_board(board), as_board(target), max_depth, timeout=timeout)


def iter_solve(
    boards: Iterable[Board | str],
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
    workers: int = 0,
    count_solutions: bool = False,
) -> Iterator[Solution]:
    """:func:`solve` for each board, lazily, results in input order.

    Boards are solved on ``workers`` threads (0: one per CPU; the kernels release the
    GIL).  With ``timeout`` each board gets at most that many seconds; a board that runs
    out comes back with ``steps=None`` and ``status='timeout'``.  ``count_solutions``
    (table engine only) sets each solved result's ``optimal_solutions``.
    """
    from .engines.common import default_workers, ordered_map

    max_depth = _check_depth(max_depth)
    target = as_board(target)
    name = choose_engine(engine, max_depth, target)
    fn = get_engine(name)
    if count_solutions and name != "table":
        raise BitknightsError("counting optimal solutions needs the table engine")
    options: dict[str, object] = {} if timeout is None else {"timeout": timeout}
    if count_solutions:
        options["count_solutions"] = True
    fn(target, target, 0)  # loads kernels and tables now, not inside the first board's time

    def one(b: Board | str) -> Solution:
        return fn(as_board(b), target, max_depth, **options)

    yield from ordered_map(one, boards, workers or default_workers())


def solve_many(
    boards: Iterable[Board | str],
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
    workers: int = 0,
    count_solutions: bool = False,
) -> list[Solution]:
    """:func:`iter_solve` as a list: one :class:`Solution` per board, in input order."""
    return list(
        iter_solve(boards, engine=engine, max_depth=max_depth, target=target,
                   timeout=timeout, workers=workers, count_solutions=count_solutions)
    )  # fmt: skip
