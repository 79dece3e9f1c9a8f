"""The distance service: every answer bitknights gives comes from here (the one door of
docs/architecture.md, which lists what it guarantees).

>>> from bitknights import Board
>>> s = DistanceService()
>>> s.solve(Board("10110/01*11/10111/01001/00000")).steps
7
>>> s.distance(Board("01011/110*1/01110/01010/00100"))
18
"""

from __future__ import annotations

import os
import sys

from .board import TARGET, Board, Move, as_board
from .engines import ENGINES, Engine, boards_from_blanks, get_engine
from .engines.options import DEFAULT_MAX_DEPTH, MAX_TIMEOUT, SolveOptions, StopFlag, check_options
from .errors import BitknightsError
from .squares import FULL_MASK, NUM_SQUARES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    import numpy as np

    from .solution import Hint, Solution
    from .table.compact import CompactTable
    from .table.distance_table import DistanceTable
    from .table.store import ByteTable

ENGINE_CHOICES = ("auto", *ENGINES)

MEMO_BOARDS = 1 << 20  # the distances learnt are forgotten beyond this many (about 200 MB)

# boards whose nearest-square bound (engines.common.nearest_bounds, the one IDA* starts from)
# is at least FAR_BOUND are *far* (24 moves or more), where searches take seconds to
# minutes: ``auto`` sends them to FAR_ENGINE, which builds once
FAR_ENGINE = "compact"
FAR_BOUND = 18


class DistanceService:
    """Exact answers about boards and one ``target``, from ``engine`` (``'auto'``: chosen
    per request), with cached tables in ``cache_dir``; it keeps the distances it learns."""

    def __init__(
        self,
        target: Board | str = TARGET,
        *,
        engine: str = "auto",
        cache_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        if engine not in ENGINE_CHOICES:
            raise BitknightsError(
                f"unknown engine {engine!r} (choose from {', '.join(ENGINE_CHOICES)})"
            )
        self.target = as_board(target)
        self.engine = engine
        self.cache_dir = cache_dir
        self._dist: dict[Board, int | None] = {self.target: 0}
        self._next: dict[Board, Board] = {}

    def file(self) -> ByteTable | None:
        """The target's usable distance table file, else ``None`` (``engine='table'``
        raises :class:`~bitknights.table.store.TableError`)."""
        if self.engine not in ("auto", "table"):
            return None
        from .table import store

        if self.engine == "table" or store.available(self.target, self.cache_dir):
            return self._load()
        return None

    def _load(self, *, reprove: bool = False) -> ByteTable:
        """The target's distance table file whatever the engine (else ``TableError``)."""
        from .table import store

        return store.load(self.target, self.cache_dir, reprove=reprove)

    def _whole_table(self, file: ByteTable | None = None) -> DistanceTable:
        """The distance table whatever the engine (else ``TableError`` naming the fix)."""
        from .table.distance_table import table_of

        return table_of(self._load() if file is None else file)

    @property
    def source(self) -> str:
        """``'table'`` when answers come from the distance table, else ``'search'``."""
        return "table" if self.file() is not None else "search"

    def describe(self) -> str:
        """One line saying where the answers come from."""
        if self.source == "table":
            return "distances from the distance table"
        return (
            "no distance table for this target: distances by exact search; "
            "`bitknights table build` makes them instant"
        )

    def choose(
        self, max_depth: int | None, *, counts_only: bool = False, boards: int | None = None
    ) -> str:
        """The engine that answers requests under ``max_depth`` (``None``: no limit): the
        one asked for, else :func:`auto`'s pick."""
        if self.engine != "auto":
            return self.engine
        return auto(max_depth, lambda name: get_engine(name).ready(self.target, self.cache_dir),
                    counts_only=counts_only, boards=boards)  # fmt: skip

    def _options(self, **given: Any) -> SolveOptions:
        """The request's options with this service's cache directory, checked."""
        return check_options(SolveOptions(cache_dir=self.cache_dir, **given))

    def _engines(self, name: str, options: SolveOptions) -> tuple[Engine, Engine | None]:
        """The engine called ``name`` (for ``auto`` counting solutions: a lookup engine),
        refusing a request it does not take, and the engine far boards go to instead: for
        ``auto`` requests at :func:`far_limit` that a search engine would answer."""
        from .engines.options import check_limit

        engine = get_engine(name)
        if options.count_solutions and self.engine == "auto" and not engine.lookup:
            name = FAR_ENGINE  # its table counts them: built once when needed
            engine = get_engine(name)
        check_limit(name, engine.max_limit, options.max_depth)
        if options.count_solutions and not engine.lookup:
            raise BitknightsError(
                "counting optimal solutions needs the table or compact engine (a distance "
                "table: `bitknights table build`; the compact table is built once when needed)"
            )
        if self.engine != "auto" or engine.lookup or not far_limit(options.max_depth):
            return engine, None
        return engine, get_engine(FAR_ENGINE)

    def _counter(
        self, name: str, options: SolveOptions
    ) -> Callable[[list[int] | np.ndarray, StopFlag | None], list[int] | np.ndarray]:
        """What answers batches of packed keys for :meth:`steps` under ``options`` (checked
        once): ``-1`` for the boards that never reach the target (:func:`reaching`), before
        any engine runs; the others by ``name``'s engine, or by the far engine once its
        table is at hand or for a batch with a far board (it answers every board)."""
        chosen, deep = self._engines(name, options)

        def ask(keys: list[int] | np.ndarray, stop: StopFlag | None) -> list[int] | np.ndarray:
            engine = self._route(chosen, deep, lambda: far(keys, self.target))
            if isinstance(keys, list) and not plain(engine.name):
                import numpy as np

                got = engine.steps(np.array(keys, dtype=np.int64), self.target, options, stop)
                return np.asarray(got).tolist()
            return engine.steps(keys, self.target, options, stop)

        def answer(keys: list[int] | np.ndarray, stop: StopFlag | None) -> list[int] | np.ndarray:
            ok = reaching(keys, self.target)
            if isinstance(keys, list):
                if all(ok):
                    return ask(keys, stop)
                got = iter(ask([key for key, good in zip(keys, ok) if good], stop))
                return [next(got) if good else -1 for good in ok]
            if ok.all():  # type: ignore[union-attr]
                return ask(keys, stop)
            import numpy as np

            out = np.full(len(keys), -1, dtype=np.int64)
            out[ok] = ask(keys[ok], stop)
            return out

        return answer

    def steps(
        self,
        keys: list[int] | np.ndarray,
        *,
        max_depth: int | None = DEFAULT_MAX_DEPTH,
        workers: int = 0,
        engine: str | None = None,
        stop: StopFlag | None = None,
    ) -> list[int] | np.ndarray:
        """The distance of each board (packed keys) to the target: ``-1`` beyond
        ``max_depth`` or unreachable, ``-2`` for boards left when ``stop`` was raised.  A
        list of keys gets a list back (plain Python when :func:`plain`), an array an
        array."""
        options = self._options(max_depth=max_depth, workers=workers)
        name = engine or self.choose(max_depth, counts_only=True, boards=len(keys))
        return self._counter(name, options)(keys, stop)

    def step_pieces(
        self,
        chunks: Iterable[np.ndarray],
        *,
        max_depth: int | None = DEFAULT_MAX_DEPTH,
        workers: int = 0,
        engine: str | None = None,
    ) -> Iterator[tuple[np.ndarray, list[int]]]:
        """:meth:`steps` over chunks of keys: ``(keys, distances)`` a whole chunk at a time
        for a lookup engine, else in pieces of about :data:`PIECE_SECONDS` each."""
        import time

        from .threads import worker_count

        name = engine or self.choose(max_depth, counts_only=True)
        answer = self._counter(name, self._options(max_depth=max_depth, workers=workers))
        search = not get_engine(name).lookup
        piece = worker_count(workers)
        for chunk in chunks:
            lo = 0
            while lo < len(chunk):
                keys = chunk[lo : lo + piece] if search else chunk
                t0 = time.perf_counter()
                steps = answer(keys, None)
                seconds = time.perf_counter() - t0
                yield keys, steps.tolist() if hasattr(steps, "tolist") else steps
                lo += len(keys)
                if search:
                    piece = _next_piece(piece, len(keys), seconds)

    def solutions(
        self,
        boards: Iterable[Board | str],
        *,
        max_depth: int | None = DEFAULT_MAX_DEPTH,
        timeout: float | None = None,
        workers: int = 0,
        count_solutions: bool = False,
        engine: str | None = None,
    ) -> Iterator[Solution]:
        """One :class:`~bitknights.solution.Solution` per board, lazily, in input order
        (:func:`bitknights.iter_solve`); arguments are checked before any thread starts."""
        from .threads import ordered_map, worker_count

        options = self._options(
            max_depth=max_depth, timeout=timeout, workers=workers, count_solutions=count_solutions
        )
        options = options._replace(workers=worker_count(workers))
        chosen, deep = self._engines(engine or self.choose(max_depth), options)
        stop = StopFlag()

        def one(b: Board | str) -> Solution:
            board = as_board(b)
            routed = self._route(chosen, deep, lambda: far(board, self.target))
            return self._answer(routed, board, options, stop)

        def run() -> Iterator[Solution]:
            # loads kernels and tables now, not inside the first board's time
            chosen.solve(self.target, self.target, options._replace(max_depth=0))
            try:
                yield from ordered_map(one, boards, options.workers, stop=stop)
            finally:
                stop.raise_()  # an abandoned iterator stops what still runs

        return run()

    def solve(
        self,
        board: Board | str,
        *,
        max_depth: int | None = DEFAULT_MAX_DEPTH,
        timeout: float | None = None,
    ) -> Solution:
        """The fewest moves from ``board`` to the target and one optimal path
        (:func:`bitknights.solve`)."""
        from .threads import off_main_thread

        options = self._options(max_depth=max_depth, timeout=timeout)
        start = as_board(board)
        engines = self._engines(self.choose(max_depth), options)
        chosen = self._route(*engines, lambda: far(start, self.target))
        stop = StopFlag()  # raised by Ctrl-C
        return off_main_thread(lambda: self._answer(chosen, start, options, stop), stop)

    def _route(self, chosen: Engine, deep: Engine | None, is_far: Callable[[], bool]) -> Engine:
        """``deep`` once its table is at hand or when ``is_far()``; else ``chosen``."""
        ready = deep is not None and deep.ready(self.target, self.cache_dir)
        return deep if deep is not None and (ready or is_far()) else chosen

    def _answer(
        self, engine: Engine, board: Board, options: SolveOptions, stop: StopFlag
    ) -> Solution:
        """``engine``'s answer for ``board``, a search engine's path replayed (a table's was
        walked); a board that never reaches the target (:func:`reaching`) is answered
        before any engine runs."""
        if not reaching([board.key], self.target)[0]:
            from .results import Status
            from .solution import Solution

            return Solution(board, self.target, None, status=Status.UNREACHABLE,
                            engine=engine.name, max_depth=options.max_depth)  # fmt: skip
        solution = engine.solve(board, self.target, options, stop)
        if solution.engine != "table":
            solution.verify()
        return solution

    def distance(self, board: Board | str) -> int | None:
        """The exact fewest moves from ``board`` to the target (``None``: never); every
        board along the path found learns its distance too."""
        board = as_board(board)
        if board not in self._dist:
            self._learn(board)
        return self._dist[board]

    def path(self, board: Board | str) -> list[Board] | None:
        """One optimal path from ``board`` (first) to the target (last), or ``None``."""
        board = as_board(board)
        if self.distance(board) is None:
            return None
        boards = [board]
        while boards[-1] != self.target:
            boards.append(self._next[boards[-1]])
        return boards

    def hints(self, board: Board | str) -> list[Hint]:
        """A :class:`~bitknights.solution.Hint` for every legal move of ``board``."""
        from .solution import Hint

        return Hint.every(as_board(board), self.distance)

    def count_solutions(self, board: Board | str) -> int:
        """How many distinct optimal move sequences lead from ``board`` to the target."""
        return self._counting_table().count_solutions(as_board(board))

    def _counting_table(self) -> DistanceTable | CompactTable:
        """The distance table, or without one for ``auto`` and ``compact`` the compact
        table (built once when needed); else ``TableError``."""
        if self.engine in ("auto", "compact") and self.file() is None:
            from .engines.compact import compact_table

            return compact_table(self.target, self.cache_dir)
        return self._whole_table()

    def solution_paths(
        self, board: Board | str, *, limit: int | None = None, quiet: bool = False
    ) -> tuple[str, Iterable[np.ndarray]]:
        """``(source, chunks)``: every optimal path of ``board`` (the first ``limit``) as
        chunks of the blank's squares, one path a row (:func:`bitknights.optimal_solutions`),
        from ``'table'``, ``'compact'`` or ``'search'`` (said once on standard error unless
        ``quiet``)."""
        from .table.solutions import check_limit, table_paths

        check_limit(limit)
        board = as_board(board)
        file = self.file()
        if file is not None:
            return "table", table_paths(board, file, limit=limit)
        why = f"the {self.engine} engine was asked for"
        if self.engine in ("auto", "compact"):
            why = "the board is near; far boards build the compact table, once"
            ready = get_engine(FAR_ENGINE).ready(self.target, self.cache_dir)
            if self.engine == "compact" or ready or far(board, self.target):
                try:
                    return "compact", table_paths(board, self._counting_table(), limit=limit)
                except MemoryError:
                    why = "the compact table cannot be built here: out of memory"
        if not quiet and self.target.key not in _SAID_SEARCHING:
            _SAID_SEARCHING.add(self.target.key)
            sys.stderr.write(
                "bitknights: no distance table for this target: optimal solutions by "
                f"search (IDA*: {why}; `bitknights table build` makes them instant)\n"
            )
        from .engines.ida import search_paths

        if not reaching([board.key], self.target)[0]:  # checked here, before IDA* runs
            return "search", iter(())
        return "search", search_paths(board, self.target, limit=limit, cache_dir=self.cache_dir)

    def optimal_solutions(
        self, board: Board | str, *, limit: int | None = None
    ) -> Iterator[tuple[Move, ...]]:
        """:meth:`solution_paths` as move sequences."""
        from .table.solutions import moves_of_chunks

        _, chunks = self.solution_paths(board, limit=limit)
        return moves_of_chunks(chunks) if limit != 0 else iter(())

    @property
    def farthest(self) -> int | None:
        """The farthest any board is from the target, when a table says."""
        file = self.file()
        return None if file is None else file.max_distance

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """``count`` distinct boards drawn uniformly from those ``distance`` moves away."""
        return self._counting_table().random_boards(distance, count, seed)

    def build_table(self) -> ByteTable:
        """Build the target's distance table, write it atomically and return it."""
        from .table.builder import build_table

        return build_table(self.target, self.cache_dir)

    def table_info(self) -> dict[str, Any]:
        """The table file checked in full: ``path``, ``target``, ``valid``, then
        ``problem`` or its facts."""
        import time

        from .table import store

        path = store.table_path(self.target, self.cache_dir)
        record: dict[str, Any] = {"path": str(path), "target": self.target.compact}
        try:
            file = self._load()
            file.verify()
        except store.TableError as e:
            record.update(valid=False, problem=str(e))
            return record
        st = path.stat()
        built = time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(st.st_mtime))
        record.update(valid=True, format_version=store.FORMAT_VERSION,
                      black_knights=file.black_count, boards=file.state_count,
                      unreachable=file.unreachable, max_distance=file.max_distance,
                      bytes=st.st_size, built=built)  # fmt: skip
        return record

    def table_stats(self) -> dict[str, Any]:
        """How many boards lie at each distance (``layers``), from the table checked in
        full."""
        file = self._load()
        file.verify()
        return {"target": self.target.compact, "boards": file.state_count,
                "unreachable": file.unreachable, "layers": list(file.layers),
                "max_distance": file.max_distance,
                "example": file.example().compact}  # fmt: skip

    def prove_table(self) -> ByteTable:
        """The table proved exact afresh, trusting no earlier verdict."""
        return self._load(reprove=True)

    def truth(self) -> DistanceTable | None:
        """The target's distance table when one is usable (the heuristic lab's ground
        truth), else ``None``."""
        file = self.file()
        return None if file is None else self._whole_table(file)

    def _learn(self, board: Board) -> None:
        if len(self._dist) > MEMO_BOARDS:
            self._dist, self._next = {self.target: 0}, {}
        file = self.file()
        if file is not None:
            _, blanks, _ = file.walk_plain(board.black, board.blank)
            boards = boards_from_blanks(board, blanks) if blanks else []  # none: never
        else:
            boards = self.solve(board, max_depth=None).boards  # none when unsolved
        self._dist[board] = None  # unless the path found says otherwise
        for i, b in enumerate(boards):
            self._dist[b] = len(boards) - 1 - i
            if i + 1 < len(boards):
                self._next[b] = boards[i + 1]


def auto(
    max_depth: int | None,
    ready: Callable[[str], bool],
    *,
    counts_only: bool = False,
    boards: int | None = None,
) -> str:
    """The engine ``--engine auto`` picks for requests under ``max_depth`` (``None``: no
    limit) when ``ready(name)`` says which lookup engines have their table at hand
    (docs/engines.md), in order: the distance table; at :func:`far_limit` the compact
    table; meeting in the middle for the move counts (``counts_only``) of at most
    ``mitm.AUTO_BOARDS`` boards under a limit of at most ``mitm.AUTO_DEPTH``, because it
    imports neither numpy nor numba; bidirectional search for move counts under a limit
    its numpy path takes, because that needs no numba; IDA* for other limited requests;
    bidirectional search for no limit.

    >>> never = lambda name: False
    >>> auto(15, never, counts_only=True, boards=10), auto(15, never, counts_only=True)
    ('mitm', 'bidir')
    >>> auto(15, never, boards=10), auto(None, never)  # a path is wanted; no limit
    ('ida', 'bidir')
    """
    from .engines import bidir, mitm

    if ready("table"):
        return "table"
    if far_limit(max_depth) and ready("compact"):
        return "compact"
    if max_depth is None:
        return "bidir"
    few = boards is not None and boards <= mitm.AUTO_BOARDS
    if counts_only and few and max_depth <= mitm.AUTO_DEPTH:
        return "mitm"
    if counts_only and max_depth <= bidir.NUMPY_RADIUS + bidir.NUMPY_LAYERS:
        return "bidir"
    return "ida"


def plain(engine: str) -> bool:
    """Whether ``engine`` answers a batch of move counts given as a list in plain Python,
    without numpy: the lookup engines and meeting in the middle."""
    return engine in ("table", "compact", "mitm")


def far_limit(max_depth: int | None) -> bool:
    """Whether requests under ``max_depth`` are deep enough for the compact table: ``auto``
    prefers it when it is there, and sends far boards to it (built once)."""
    from .engines.compact import FROM_DEPTH

    return max_depth is None or max_depth >= FROM_DEPTH


def reaching(keys: list[int] | np.ndarray, target: Board) -> list[bool] | np.ndarray:
    """Which of the packed ``keys`` are boards that can reach ``target``: the blank on the
    board and not under a knight, and the target's knight counts (moves never change
    them); a list for a list (plain Python), a boolean array for an array.

    >>> reaching([TARGET.key, TARGET.black | 25 << 25, 1 << 25, -1], TARGET)
    [True, False, False, False]
    """
    k = target.counts[1]
    if isinstance(keys, list):
        from .table.store import valid

        return [valid(key & FULL_MASK, key >> NUM_SQUARES, k) for key in keys]
    from .coords.arrays import valid_keys

    return valid_keys(keys, k)


def far(boards: Board | list[int] | np.ndarray, target: Board) -> bool:
    """Whether a board (or any of the packed keys) is far from ``target``.

    >>> far(Board("01011/110*1/01110/01010/00100"), TARGET)  # 18 moves
    False
    >>> far(Board("00000/11000/10101/*1100/11111"), TARGET)  # 39 moves
    True
    """
    from .engines.common import nearest_bounds

    keys = [boards.key] if isinstance(boards, Board) else boards
    return bool(len(keys)) and bool((nearest_bounds(keys, target) >= FAR_BOUND).any())


PIECE_SECONDS = 0.25
PIECE_MAX = 4096


def _next_piece(piece: int, done: int, seconds: float) -> int:
    """The next piece's size: about ``PIECE_SECONDS`` at the rate just seen, at most
    twice the last and ``PIECE_MAX``.

    >>> _next_piece(2, 2, 0.001), _next_piece(512, 512, 2.0), _next_piece(4096, 4096, 0.0)
    (4, 64, 4096)
    """
    if done < piece:  # the chunk ended: nothing learnt about the size
        return piece
    want = int(done * PIECE_SECONDS / seconds) if seconds > 0 else PIECE_MAX
    return max(1, min(want, 2 * done, PIECE_MAX))


def solution_lines(
    chunks: Iterable[np.ndarray], *, json: bool = False
) -> Iterator[tuple[bytes | memoryview, int, int]]:
    """Paths from :meth:`DistanceService.solution_paths` as lines of moves or JSON:
    ``(bytes, paths, moves a path)`` a reused buffer at a time."""
    from .table.solutions import LineWriter

    return LineWriter(json=json).write_all(chunks)


_SAID_SEARCHING: set[int] = set()

_services: dict[tuple[int, str, str], DistanceService] = {}


def service(
    target: Board | str = TARGET,
    *,
    engine: str = "auto",
    cache_dir: str | os.PathLike[str] | None = None,
) -> DistanceService:
    """The process's :class:`DistanceService` for ``target``, ``engine`` and ``cache_dir``."""
    target = as_board(target)
    key = (target.key, engine, os.fspath(cache_dir) if cache_dir is not None else "")
    found = _services.get(key)
    if found is None:
        if len(_services) >= 8:
            _services.clear()
        found = _services[key] = DistanceService(target, engine=engine, cache_dir=cache_dir)
    return found


def answering(
    target: Board,
    cache_dir: str | os.PathLike[str] | None,
    answers: DistanceService | None,
    error: type[BitknightsError] = BitknightsError,
) -> DistanceService:
    """``answers``, else the process's service for ``target``; ``error`` when ``answers``
    answers for another target."""
    if answers is None:
        return service(target, cache_dir=cache_dir)
    if answers.target != target:
        raise error("the distance service answers for another target")
    return answers


__all__ = ["DEFAULT_MAX_DEPTH", "ENGINE_CHOICES", "MAX_TIMEOUT", "DistanceService", "service"]
