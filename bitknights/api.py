"""The public solving API: :func:`solve` and :func:`solve_many`."""

from __future__ import annotations

from .board import TARGET, Board, as_board
from .engines import ENGINES, get_engine
from .engines.options import DEFAULT_MAX_DEPTH, SolveOptions, check_options
from .errors import BitknightsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator

    from .solution import Solution

ENGINE_CHOICES = ("auto", *ENGINES)


def choose_engine(
    engine: str,
    max_depth: int | None,
    target: Board | str | None = TARGET,
    *,
    counts_only: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
    boards: int | None = None,
) -> str:
    """The engine ``engine='auto'`` stands for, for requests to reach ``target``, asking
    each engine's :class:`~bitknights.engines.options.Capabilities`:

    1. a lookup engine (``table``) when it is ready for ``target``: a valid distance table
       is in ``cache_dir`` (``None``: the default cache directory; checked in full once
       per process and file: header, size, payload checksum; see
       :mod:`bitknights.table.store`).  Exact at any depth, microseconds a board.  The
       table is never built here: ``bitknights table build`` does that, once.
    2. without a limit, the first search engine exact at any depth (``bidir``: its cost
       grows with the square root of IDA*'s).
    3. for a few boards (``boards``, known) that only want the move counts
       (``counts_only``, the classic output), the first engine that answers that many under
       the limit in plain Python (``mitm`` up to its ``plain_boards`` and ``plain_depth``:
       it starts without numpy or numba, which a judge-sized input cannot afford; see the
       README's start-up table).  ``boards=None`` never chooses it.
    4. for other batches that only want the move counts, the first search engine that
       answers the limit with numpy alone (``bidir`` up to its ``numpy_depth``: it never
       imports numba; measured 0.30 s against IDA*'s 0.40 s, whole process, for the
       2000-board hard batch with nothing cached).
    5. else the first search engine listed (``ida``: a handful of nodes per board within
       the classic limit, and the path comes free).

    ``target=None`` skips the lookup engines.  Only the engines' declarations are read:
    choosing imports neither numpy nor numba.

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
    engines = [get_engine(name) for name in ENGINES]
    if target is not None:
        board = as_board(target)
        for e in engines:
            if e.capabilities.lookup and e.ready(board, cache_dir):
                return e.name
    search = [e for e in engines if not e.capabilities.lookup]
    if max_depth is None:
        wanted = [e for e in search if e.capabilities.exact_at_any_depth]
    elif counts_only:
        wanted = [
            e
            for e in search
            if boards is not None
            and boards <= e.capabilities.plain_boards
            and max_depth <= e.capabilities.plain_depth
        ] or [e for e in search if max_depth <= e.capabilities.numpy_depth]
    else:
        wanted = []
    return (wanted or search)[0].name


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

    ``steps`` is ``None`` when the distance exceeds ``max_depth`` (``None``: no limit, every
    board with the target's knight counts is solved), the board cannot reach the target,
    or ``timeout`` seconds ran out (``status`` says which).  ``cache_dir``: where cached
    tables are looked for (``None``: :func:`bitknights.cache.cache_directory`).  The search
    runs on a helper thread, so Ctrl-C stops it within milliseconds.

    >>> s = solve("10110/01*11/10111/01001/00000")
    >>> s.steps, [str(m) for m in s.moves][:3]
    (7, ['e5-c4', 'd3-e5', 'b2-d3'])
    >>> solve("01011/110*1/01110/01010/00100").steps is None
    True
    >>> solve("01011/110*1/01110/01010/00100", max_depth=None).steps
    18
    """
    from concurrent.futures import ThreadPoolExecutor

    from .engines.options import StopFlag

    options = check_options(SolveOptions(max_depth=max_depth, timeout=timeout, cache_dir=cache_dir))
    start, goal = as_board(board), as_board(target)
    chosen = get_engine(choose_engine(engine, options.max_depth, goal, cache_dir=cache_dir))
    stop = StopFlag()
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(chosen.solve, start, goal, options, stop)
        try:
            return future.result()
        except BaseException:
            stop.raise_()  # the kernel sees it within a few thousand nodes
            raise


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

    Boards are solved on ``workers`` threads (0: one per CPU; at most 4 per CPU; the
    kernels release the GIL).  With ``timeout`` each board gets at most that many
    seconds; a board that runs out comes back with ``steps=None`` and
    ``status='timeout'``.  ``count_solutions`` (table engine only) sets each solved
    result's ``optimal_solutions``.  Ctrl-C, or closing the iterator, stops every search
    still running.  Arguments are checked before any thread starts.
    """
    from .engines.options import StopFlag
    from .threads import ordered_map, worker_count

    options = check_options(
        SolveOptions(max_depth=max_depth, timeout=timeout, workers=workers,
                     count_solutions=count_solutions, cache_dir=cache_dir)
    )  # fmt: skip
    options = options._replace(workers=worker_count(workers))
    target = as_board(target)
    chosen = get_engine(choose_engine(engine, options.max_depth, target, cache_dir=cache_dir))
    if count_solutions and not chosen.capabilities.counts_solutions:
        counting = [n for n in ENGINES if get_engine(n).capabilities.counts_solutions]
        raise BitknightsError(
            f"counting optimal solutions needs the {' or '.join(counting)} engine"
        )
    return _iter_solve(boards, chosen, target, options, StopFlag(), ordered_map)


def _iter_solve(boards, chosen, target, options, stop, ordered_map):  # noqa: ANN001, ANN202
    # loads kernels and tables now, not inside the first board's time
    chosen.solve(target, target, options._replace(max_depth=0))

    def one(b: Board | str) -> Solution:
        return chosen.solve(as_board(b), target, options, stop)

    try:
        yield from ordered_map(one, boards, options.workers, stop=stop)
    finally:
        stop.raise_()  # an abandoned iterator stops what still runs


def solve_many(
    boards: Iterable[Board | str],
    *,
    engine: str = "auto",
    max_depth: int | None = DEFAULT_MAX_DEPTH,
    target: Board | str = TARGET,
    timeout: float | None = None,
    workers: int = 0,
    count_solutions: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Solution]:
    """:func:`iter_solve` as a list: one :class:`Solution` per board, in input order."""
    return list(
        iter_solve(boards, engine=engine, max_depth=max_depth, target=target,
                   timeout=timeout, workers=workers, count_solutions=count_solutions,
                   cache_dir=cache_dir)
    )  # fmt: skip
