"""IDA*: the engine (``--engine ida``) and the heuristic lab's searches, one driver over
one kernel (:mod:`._ida_kernels`) for every bound (:class:`~.heuristics.Bound`), each
run's record a :class:`~.heuristics.Trial`.

The engine's bound is the nearest-square sum (:func:`~.common.nearest_bounds`) or the
pattern databases (:mod:`.pdb`), by one policy (:func:`use_patterns`); the lab's may be
any maximum of the built-ins and a user's function (:func:`user_kernel`).  Importing this
module imports neither numpy nor numba.
"""

from __future__ import annotations

from functools import lru_cache

from ..board import never_reaches
from . import Engine, depth_limit
from .options import StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterator
    from types import ModuleType, SimpleNamespace

    import numpy as np

    from ..board import Board
    from . import Found
    from .heuristics import Bound, Trial
    from .options import SolveOptions

PDB_AFTER_NODES = 1 << 25
"""A search with the nearest-square bound that expands more nodes than this (about a
second) before any solution starts again with the pattern databases."""

PDB_FROM_DEPTH = 20
"""Searches allowed deeper than this use the pattern databases when they are at hand (in
memory or in a valid cache file)."""

PDB_FROM_BOARDS = 64
"""Batches this large use the pattern databases whenever they are at hand."""

PDB_FROM_BOUND = 16
"""Searches allowed deeper than ``PDB_FROM_DEPTH`` of a board whose nearest-square bound
(:func:`~.common.nearest_bounds`) is at least this, or of ``PDB_FROM_BOARDS`` boards,
build missing pattern databases before they start."""

USER_COMPILE_SECONDS = 4  # compiling the kernel with a user's function, measured here

# -- kernels ------------------------------------------------------------------------------


def _kernels() -> ModuleType | SimpleNamespace:
    from ..native import kernels

    return kernels("ida")


def backend() -> str:
    """``'native'`` when IDA* runs the ahead-of-time compiled kernels, else ``'jit'``."""
    from ..native import load

    return "jit" if load("ida") is None else "native"


_USER_KERNELS: dict[int, tuple[object, Callable]] = {}


def kernel_for(bound: Bound) -> Callable:
    """The kernel that searches under ``bound``: the built-ins' compiled for the engine's
    bounds alone or for any flags, a user's function's compiled for it
    (:func:`user_kernel`)."""
    from .heuristics import NEAREST, PATTERNS

    if bound.user is not None:
        return user_kernel(bound.user, bound.name)
    special = {NEAREST.flags: "ida_nearest", PATTERNS.flags: "ida_patterns"}
    return getattr(_kernels(), special.get(bound.flags, "ida_any"))  # type: ignore[no-any-return]


def user_kernel(fn: object, name: str = "") -> Callable:
    """``ida_any`` compiled just in time with ``fn`` (a numba dispatcher, or a function to
    compile with ``njit``) as its ``USER`` part, once per function and process."""
    hit = _USER_KERNELS.get(id(fn))
    if hit is not None and hit[0] is fn:
        return hit[1]
    import types

    from numba import njit
    from numba import types as nt
    from numba.core.errors import NumbaError
    from numba.core.registry import CPUDispatcher

    from .. import progress
    from ..board import TARGET
    from ..errors import BitknightsError
    from . import _ida_kernels
    from . import _ida_layout as K
    from .heuristics import Bound

    if not callable(fn):
        raise TypeError(f"a heuristic is a built-in's name or a function, got {fn!r}")
    user = fn if isinstance(fn, CPUDispatcher) else njit(nogil=True)(fn)
    name = name or getattr(fn, "__name__", "?")
    progress.announce(f"compiling IDA* with the heuristic {name!r}",
                      "a user's heuristic is compiled into the search kernel, once per process",
                      USER_COMPILE_SECONDS)  # fmt: skip
    space = dict(vars(_ida_kernels), user_h=user)

    def rebuild(dispatcher: object, inline: bool = True) -> object:
        f = dispatcher.py_func  # type: ignore[attr-defined]
        copy = types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        return njit(nogil=True, inline="always" if inline else "never")(copy)

    for helper in ("_bound", "_search"):
        space[helper] = rebuild(getattr(_ida_kernels, helper))
    kernel: Callable = rebuild(_ida_kernels.ida_any, inline=False)  # type: ignore[assignment]
    try:  # compiled now, by a run: numba's reason when it cannot; it must return a number
        user.compile((nt.int64, nt.int64, nt.int64))  # type: ignore[attr-defined]
        returns = user.overloads[(nt.int64, nt.int64, nt.int64)].signature.return_type  # type: ignore[attr-defined]
        if not isinstance(returns, (nt.Integer, nt.Boolean, nt.Float)):
            raise BitknightsError(
                f"heuristic {name!r} returns {returns}, not a number: a heuristic is a "
                "function h(white, black, blank) -> int"
            )
        bound_at(TARGET, Bound(name, K.USER), TARGET, kernel=kernel)
    except NumbaError as e:
        lines = [x.strip() for x in str(e).splitlines()]
        reasons = [x for x in lines if x and not x.startswith(("Failed in", "During", "File"))]
        raise BitknightsError(
            f"heuristic {name!r} does not compile with numba: "
            f"{reasons[0] if reasons else type(e).__name__} (a heuristic is a function "
            "h(white, black, blank) -> int that numba's nopython mode accepts)"
        ) from None
    _USER_KERNELS[id(fn)] = (fn, kernel)
    return kernel


# -- the driver ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _additive(target_key: int) -> np.ndarray:
    """``add`` rows: misplaced terms (white, black), nearest-square distances (white,
    black), for each square."""
    import numpy as np

    from ..board import Board
    from ..squares import NUM_SQUARES
    from .common import nearest_target_distance

    target = Board.from_key(target_key)
    rows = [[0 if mask >> sq & 1 else 1 for sq in range(NUM_SQUARES)]
            for mask in (target.white, target.black)]  # fmt: skip
    add = np.array([*rows, *nearest_target_distance(target_key)], dtype=np.int64)
    add.setflags(write=False)
    return add


class _Job:
    """A kernel with every argument before the boards and after them, and the arrays it
    reports in (``state``, ``iters``, ``out``, ``steps``, ``nodes``)."""

    __slots__ = ("kernel", "head", "tail", "state", "iters", "out", "steps")

    def __init__(self, kernel: Callable, head: tuple, *tail: np.ndarray) -> None:
        self.kernel, self.head, self.tail = kernel, head, tail
        self.state, _, self.iters, self.out, self.steps, _ = tail

    def __call__(
        self,
        blacks: np.ndarray,
        blanks: np.ndarray,
        stop: np.ndarray,
        out: np.ndarray | None = None,
    ) -> int:
        """The kernel's code for these boards (``out``: the paths' rows, else ``self.out``)."""
        tail = self.tail if out is None else (*self.tail[:3], out, *self.tail[4:])
        return int(self.kernel(self.head[0], blacks, blanks, *self.head[1:], *tail, stop))


def _job(
    kernel: Callable, bound: Bound, target: Board, limit: int, *, every: int = 0,
    budget: int | None = None, boards: int = 1,
    tables: tuple[np.ndarray, np.ndarray] | None = None,
    payload: np.ndarray | None = None, ncomb: int = 0,
) -> _Job:  # fmt: skip
    """The call of ``kernel`` under ``bound`` towards ``target`` within ``limit`` moves
    (``tables``: the pattern databases when ``bound`` has them), with fresh arrays (each
    board ``STOPPED`` until the kernel answers it)."""
    import numpy as np

    from ..coords.arrays import POPCOUNT8, RANK_BYTE, SQUARE_COLOR
    from ..results import NO_BUDGET, STOPPED
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
    from . import _ida_layout as K

    none = np.zeros(1, dtype=np.uint8)
    none.setflags(write=False)  # the type of the tables it stands for: one compile, not two
    pw, pb = tables if tables is not None else (none, none)
    i8 = np.int64
    head = (i8(bound.flags), i8(target.black), i8(target.blank), i8(limit), i8(every),
            i8(NO_BUDGET if budget is None else budget), KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
            SQUARE_COLOR, _additive(target.key), pw, pb, RANK_BYTE, POPCOUNT8,
            none if payload is None else payload,
            i8(ncomb if payload is not None else 0))  # fmt: skip
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    state[K.WORST_KEY] = -1
    tail = (state, np.zeros((max(limit, 0) + 2, K.STACK_COLUMNS), dtype=np.int64),
            np.zeros((max(limit, 0) + 2, 2), dtype=np.int64),
            np.zeros((1, max(limit, 0) + 1), dtype=np.int8),
            np.full(boards, STOPPED, dtype=np.int64), np.zeros(boards, dtype=np.int64))  # fmt: skip
    return _Job(kernel, head, *tail)


def _tables_of(
    bound: Bound, target: Board, cache_dir: str | os.PathLike[str] | None, stop: StopFlag
) -> tuple[np.ndarray, np.ndarray] | None:
    from .heuristics import PATTERNS

    return _patterns(target, cache_dir, stop) if bound.flags & PATTERNS.flags else None


def _one(
    start: Board, bound: Bound, target: Board, limit: int, flag: StopFlag, *,
    budget: int | None = None, payload: np.ndarray | None = None, ncomb: int = 0,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[int, float, _Job]:  # fmt: skip
    """``(code, seconds, job)``: one search of ``start`` (its knight counts the
    target's), polling ``flag``; ``job`` holds what the kernel reported."""
    import time

    import numpy as np

    job = _job(kernel_for(bound), bound, target, limit, budget=budget, payload=payload,
               ncomb=ncomb, tables=_tables_of(bound, target, cache_dir, flag))  # fmt: skip
    blacks, blanks = np.array([start.black]), np.array([start.blank])
    t0 = time.perf_counter()
    code = job(blacks, blanks, flag.array)
    return code, time.perf_counter() - t0, job


def search(
    start: Board,
    bound: Bound,
    target: Board,
    max_depth: int | None = None,
    *,
    stop: StopFlag | None = None,
    timeout: float | None = None,
    payload: np.ndarray | None = None,
    ncomb: int = 0,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Trial:
    """IDA* from ``start`` to ``target`` under ``bound``, stopping at the first solution
    (in move order, at the first threshold that has one).  With ``payload`` (a distance
    table's bytes, boards with ``C(24, k)`` = ``ncomb`` black sets per blank square) every
    value of the bound is compared with the truth (``checked``, ``overestimates``,
    ``worst``)."""
    from ..board import Board, Move
    from ..results import Status
    from ..threads import off_main_thread
    from . import _ida_layout as K
    from . import depth_limit
    from .heuristics import Trial

    if never_reaches(start, target):
        return Trial(start, bound.name, None, Status.UNREACHABLE, 0, 0.0, 0, ())
    limit = depth_limit(max_depth)
    with StopFlag(stop).arm(timeout) as flag:
        code, seconds, job = off_main_thread(lambda: _one(
            start, bound, target, limit, flag, payload=payload, ncomb=ncomb,
            cache_dir=cache_dir), flag)  # fmt: skip
    state = job.state
    steps = int(state[K.STEPS]) if code == K.FOUND else None
    path = job.out[0, : steps + 1].tolist() if steps is not None else []
    worst_key = int(state[K.WORST_KEY])
    return Trial(
        board=start,
        heuristic=bound.name,
        steps=steps,
        status=Status.of(code if steps is None else steps),
        nodes=int(state[K.NODES]),
        seconds=seconds,
        h0=int(state[K.H0]),
        iterations=tuple((int(b), int(n)) for b, n in job.iters[: state[K.ITERS]]),
        moves=tuple(Move(f, t) for t, f in zip(path, path[1:])),
        checked=int(state[K.CHECKED]),
        overestimates=int(state[K.OVER]) if payload is not None and ncomb > 0 else None,
        worst=None
        if worst_key < 0
        else (
            Board.from_key(worst_key),
            int(state[K.WORST_H]),
            int(state[K.WORST_H] - state[K.WORST]),
        ),
    )


def bound_at(
    board: Board,
    bound: Bound,
    target: Board,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    kernel: Callable | None = None,
) -> int:
    """The value of ``bound`` at ``board``, as the search computes it (with ``kernel``:
    that one, else :func:`kernel_for`'s).

    >>> from bitknights import TARGET
    >>> from bitknights.engines.heuristics import NEAREST
    >>> bound_at(TARGET, NEAREST, TARGET), bound_at(TARGET.play("b5"), NEAREST, TARGET)
    (0, 1)
    """
    import numpy as np

    from . import _ida_layout as K

    tables = _tables_of(bound, target, cache_dir, StopFlag())
    job = _job(kernel or kernel_for(bound), bound, target, -1, tables=tables)
    job(np.array([board.black]), np.array([board.blank]), np.zeros(1, dtype=np.int64))
    return int(job.state[K.H0])


def search_paths(
    board: Board,
    target: Board,
    *,
    limit: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[np.ndarray]:
    """Chunks of every optimal path of ``board`` (at most ``limit``; it must reach
    ``target``: :meth:`~bitknights.service.DistanceService.solution_paths` checks) found
    by search: ``int8`` arrays, one row of the blank's squares per path (the start's
    first), the same paths in the same order as the table's (lexicographic in the squares
    the knights jump from), under the engine's bound (:func:`use_patterns`).  Memory stays
    bounded: one board per depth and one chunk."""
    from functools import partial

    import numpy as np

    from ..results import OVER_BUDGET
    from ..table.solutions import chunk_sizes
    from ..threads import off_main_thread
    from . import _ida_layout as K
    from . import depth_limit
    from .heuristics import NEAREST, PATTERNS

    depth = depth_limit(None)
    flag = StopFlag()
    use = use_patterns([board.key], target, depth, cache_dir, flag)
    blacks, blanks = np.array([board.black]), np.array([board.blank])
    for pdb in (False, True) if use is None else (use,):
        bound = PATTERNS if pdb else NEAREST
        budget = PDB_AFTER_NODES if use is None and not pdb else None
        job = _job(kernel_for(bound), bound, target, depth, every=1, budget=budget,
                   tables=_tables_of(bound, target, cache_dir, flag))  # fmt: skip
        left, out = limit, job.out
        for size in chunk_sizes(limit):
            if size > out.shape[0]:
                out = np.zeros((size, depth + 1), dtype=np.int8)
            call = partial(job.__call__, blacks, blanks, flag.array, out[:size])
            code = off_main_thread(call, flag)
            if code == OVER_BUDGET:
                break
            state = job.state
            chunk = out[: int(state[K.PATHS]), : int(state[K.STEPS]) + 1][:left].copy()
            if left is not None:
                left -= len(chunk)
            if len(chunk):
                yield chunk
            if code != K.CHUNK or left == 0:
                return


# -- the engine ---------------------------------------------------------------------------


def use_patterns(
    keys: np.ndarray | list[int],
    target: Board,
    limit: int,
    cache_dir: str | os.PathLike[str] | None,
    stop: StopFlag,
) -> bool | None:
    """The one pattern-database policy: ``True``/``False`` to bound every search of these
    boards (packed keys) with the pattern databases or not, ``None`` to start with the
    nearest-square bound and switch after ``PDB_AFTER_NODES`` nodes.  Deep searches of
    far boards or large batches build missing databases first (waiting as long as
    ``stop`` allows)."""
    from .common import nearest_bounds
    from .pdb import cached_pattern_tables

    many = len(keys) >= PDB_FROM_BOARDS
    if limit > PDB_FROM_DEPTH and (
        many or nearest_bounds(keys, target).max(initial=0) >= PDB_FROM_BOUND
    ):
        _patterns(target, cache_dir, stop)
    if (limit > PDB_FROM_DEPTH or many) and cached_pattern_tables(target.key, cache_dir):
        return True
    return False if len(keys) > 1 else None


class IdaEngine(Engine):
    """IDA* as an :class:`~bitknights.engines.Engine`.  ``use_pdb`` picks the bound
    for every search: ``True`` the pattern databases, ``False`` the nearest-square sum,
    ``None`` (the default) as :func:`use_patterns` says."""

    name = "ida"

    def __init__(self, use_pdb: bool | None = None) -> None:
        self.use_pdb = use_pdb

    def _choose(
        self, keys: np.ndarray | list[int], target: Board, limit: int, options: SolveOptions,
        stop: StopFlag,
    ) -> bool | None:  # fmt: skip
        if self.use_pdb is not None:
            return self.use_pdb
        return use_patterns(keys, target, limit, options.cache_dir, stop)

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        from ..results import OVER_BUDGET
        from . import _ida_layout as K
        from .heuristics import NEAREST, PATTERNS

        use = self._choose([start.key], target, limit, options, stop)
        nodes = 0
        for pdb in (False, True) if use is None else (use,):
            budget = PDB_AFTER_NODES if use is None and not pdb else None
            code, _, job = _one(start, PATTERNS if pdb else NEAREST, target, limit, stop,
                                budget=budget, cache_dir=options.cache_dir)  # fmt: skip
            nodes += int(job.state[K.NODES])
            if code != OVER_BUDGET:
                break
        if code != K.FOUND:
            return code, (), nodes
        steps = int(job.state[K.STEPS])
        return steps, job.out[0, : steps + 1], nodes

    def steps(
        self, keys: np.ndarray | list[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray:  # fmt: skip
        """Searched on ``options.workers`` threads."""
        import numpy as np

        from ..coords import KEY_SHIFT
        from ..results import STOPPED
        from ..squares import FULL_MASK
        from ..threads import Stopped, parallel_chunks
        from .heuristics import NEAREST, PATTERNS

        keys = np.ascontiguousarray(keys, dtype=np.int64)
        steps = np.full(len(keys), STOPPED, dtype=np.int64)
        stop, limit = stop or StopFlag(), depth_limit(options.max_depth)
        try:
            bound = PATTERNS if self._choose(keys, target, limit, options, stop) else NEAREST
            tables = _tables_of(bound, target, options.cache_dir, stop)
        except Stopped:
            return steps
        blacks, blanks = keys & FULL_MASK, keys >> KEY_SHIFT
        kernel, flag = kernel_for(bound), stop.array

        def run(lo: int, hi: int) -> None:
            if flag[0] == 0:
                job = _job(kernel, bound, target, limit, boards=hi - lo, tables=tables)
                job(blacks[lo:hi], blanks[lo:hi], flag)
                steps[lo:hi] = job.steps

        parallel_chunks(run, len(keys), options.workers, stop=stop)
        return steps


ENGINE = IdaEngine()


def _patterns(
    target: Board, cache_dir: str | os.PathLike[str] | None, stop: StopFlag
) -> tuple[np.ndarray, np.ndarray]:
    """The pattern databases of ``target``: at hand, or built once however many searches
    ask at the same time, each waiting as long as its ``stop`` flag allows (raises
    :class:`~bitknights.threads.Stopped`)."""
    from .. import cache
    from ..threads import shared, wait
    from .pdb import cached_pattern_tables, pattern_tables

    tables = cached_pattern_tables(target.key, cache_dir)
    if tables is not None:
        return tables
    key = ("pattern databases", target.key, cache.cache_directory(cache_dir))
    return wait(shared(key, lambda: pattern_tables(target.key, cache_dir)), lambda: stop.raised)
