"""IDA* under any bound: the search behind the heuristic lab (:mod:`bitknights.lab`) and
behind every optimal solution of a board when there is no distance table.

A :class:`Bound` is the maximum of some built-in parts (the misplaced-knight count, the
engine's nearest-square bound, the pattern databases) and, optionally, a user's numba
function ``h(white, black, blank) -> int``.  The kernel (:mod:`._lab_kernels`) keeps the
built-in parts incrementally, as the engine's kernel does, and runs compiled ahead of time
(:mod:`bitknights.native`); a user's function is compiled into a copy of the same kernel
just in time, once per function and process (announced on a terminal).

:func:`search` finds one optimal solution (the first in move order) and reports the work
per threshold; :func:`every_path` streams every solution at the first threshold that has
one, a chunk of paths at a time, in lexicographic order of the squares the knights jump
from; for an admissible bound these are exactly the optimal solutions
(:func:`search_solutions`).
"""

from __future__ import annotations

import time
import types
from functools import lru_cache, partial

import numpy as np

from .. import estimates, progress
from .._records import Record
from ..board import Board
from ..coords.arrays import POPCOUNT8, RANK_BYTE, SQUARE_COLOR
from ..errors import BitknightsError
from ..results import OVER_LIMIT, STOPPED, UNREACHABLE
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES
from ..threads import off_main_thread
from . import _lab_layout as K
from . import depth_limit
from .common import nearest_target_distance
from .options import StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterable, Iterator

BUILTINS = {"misplaced": K.MISPLACED, "knight_distance": K.NEAREST, "pdb": K.PATTERNS}
"""The built-in parts of a bound by name (see :mod:`._lab_kernels`)."""

USER_COMPILE_SECONDS = 4  # compiling the kernel with a user's function, measured here


class Bound(Record):
    """A heuristic: the maximum of the built-in parts in ``flags`` and of ``user`` (a
    numba ``@njit`` function ``h(white, black, blank) -> int``, or ``None``); ``name``
    is what records call it."""

    name: str
    flags: int
    user: object = None


def builtin(name: str) -> Bound:
    """The built-in bound ``name``, or a maximum of them written ``max(a,b,...)``.

    >>> builtin("max(misplaced,pdb)").flags == BUILTINS["misplaced"] | BUILTINS["pdb"]
    True
    """
    text = name.replace(" ", "")
    parts = text[4:-1].split(",") if text.startswith("max(") and text.endswith(")") else [text]
    flags = 0
    for part in parts:
        if part not in BUILTINS:
            known = ", ".join(BUILTINS)
            raise BitknightsError(
                f"unknown heuristic {part!r}: the built-ins are {known}, and max(a,b,...) of them"
            )
        flags |= BUILTINS[part]
    return Bound(text, flags)


# -- kernels ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _builtin_kernel() -> Callable:
    """``ida_run`` compiled ahead of time when installed and current, else just in time
    (compiled here, announced, so that no search's time includes it)."""
    from ..board import TARGET
    from ..native import EXTENSIONS, kernels, load

    kernel = kernels("lab").ida_run
    if load("lab") is None:
        ext = EXTENSIONS["lab"]
        progress.announce(f"loading {ext.what} kernel just in time",
                          "no current ahead-of-time build; cached after the first compile",
                          ext.jit_seconds)  # fmt: skip
        bound_at(TARGET, Bound("misplaced", K.MISPLACED), tables_for(TARGET, 0), kernel)
    return kernel  # type: ignore[no-any-return]


_USER_KERNELS: dict[int, tuple[object, Callable]] = {}


def _as_numba(fn: object) -> object:
    """``fn`` as a numba dispatcher (a plain Python function is compiled with ``njit``)."""
    from numba import njit
    from numba.core.registry import CPUDispatcher

    if isinstance(fn, CPUDispatcher):
        return fn
    if not callable(fn):
        raise TypeError(f"a heuristic is a built-in's name or a function, got {fn!r}")
    return njit(nogil=True)(fn)


def user_kernel(fn: object, name: str = "") -> Callable:
    """``ida_run`` compiled just in time with ``fn`` as its ``USER`` part (once per
    function and process; announced on a terminal, it takes a few seconds)."""
    hit = _USER_KERNELS.get(id(fn))
    if hit is not None and hit[0] is fn:
        return hit[1]
    from numba import njit

    user = _as_numba(fn)
    progress.announce(
        f"compiling IDA* with the heuristic {name or getattr(fn, '__name__', '?')!r}",
        "a user's heuristic is compiled into the search kernel, once per process",
        USER_COMPILE_SECONDS,
    )
    from . import _lab_kernels

    space = dict(vars(_lab_kernels))
    space["user_h"] = user

    def rebuild(dispatcher: object, inline: bool = False) -> object:
        f = dispatcher.py_func  # type: ignore[attr-defined]
        copy = types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        return njit(nogil=True, inline="always" if inline else "never")(copy)

    space["_bound"] = rebuild(_lab_kernels._bound, inline=True)
    kernel = rebuild(_lab_kernels.ida_run)
    _compile_now(kernel, user, name or getattr(fn, "__name__", "?"))  # type: ignore[arg-type]
    _USER_KERNELS[id(fn)] = (fn, kernel)  # type: ignore[assignment]
    return kernel  # type: ignore[return-value]


def _compile_now(kernel: Callable, user: object, name: str) -> None:
    """Compile the user's function for three ``int64`` arguments, check that it returns
    a number, and compile ``kernel`` by running it once: a heuristic numba cannot compile
    is a :class:`BitknightsError` naming numba's reason."""
    from numba import types as nt
    from numba.core.errors import NumbaError

    from ..board import TARGET

    try:
        user.compile((nt.int64, nt.int64, nt.int64))  # type: ignore[attr-defined]
        returns = user.overloads[(nt.int64, nt.int64, nt.int64)].signature.return_type  # type: ignore[attr-defined]
        if not isinstance(returns, (nt.Integer, nt.Boolean, nt.Float)):
            raise BitknightsError(
                f"heuristic {name!r} returns {returns}, not a number: a heuristic is a "
                "function h(white, black, blank) -> int"
            )
        bound_at(TARGET, Bound(name, K.USER), tables_for(TARGET, K.USER), kernel)
    except NumbaError as e:
        lines = [x.strip() for x in str(e).splitlines()]
        reasons = [x for x in lines if x and not x.startswith(("Failed in", "During", "File"))]
        raise BitknightsError(
            f"heuristic {name!r} does not compile with numba: "
            f"{reasons[0] if reasons else type(e).__name__} (a heuristic is a function "
            "h(white, black, blank) -> int that numba's nopython mode accepts)"
        ) from None


def kernel_for(bound: Bound) -> Callable:
    """The kernel that computes ``bound``."""
    return _builtin_kernel() if bound.user is None else user_kernel(bound.user, bound.name)


# -- per-target tables --------------------------------------------------------------------


_NO_BYTES = np.zeros(1, dtype=np.uint8)
_NO_BYTES.setflags(write=False)


@lru_cache(maxsize=16)
def _additive(target_key: int) -> np.ndarray:
    """``add`` rows: misplaced terms (white, black), nearest-square distances (white,
    black), for each square."""
    target = Board.from_key(target_key)
    near_w, near_b = nearest_target_distance(target_key)
    mis_w = np.array([0 if target.white >> sq & 1 else 1 for sq in range(NUM_SQUARES)])
    mis_b = np.array([0 if target.black >> sq & 1 else 1 for sq in range(NUM_SQUARES)])
    add = np.ascontiguousarray(np.stack([mis_w, mis_b, near_w, near_b]), dtype=np.int64)
    add.setflags(write=False)
    return add


def pattern_tables(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> tuple:
    """The pattern databases of ``target`` (built once and cached, announced on a
    terminal when they are built)."""
    from .pdb import cached_pattern_tables
    from .pdb import pattern_tables as tables

    if cached_pattern_tables(target.key, cache_dir) is None:
        progress.announce("building pattern databases", "once, for the 'pdb' heuristic",
                          estimates.PATTERN_BUILD)  # fmt: skip
    return tables(target.key, cache_dir)


class Tables(Record):
    """Everything a bound reads for one target."""

    target: Board
    add: np.ndarray
    pw: np.ndarray
    pb: np.ndarray


def tables_for(
    target: Board, flags: int, cache_dir: str | os.PathLike[str] | None = None
) -> Tables:
    """The tables a bound with ``flags`` needs for ``target``."""
    pw = pb = _NO_BYTES
    if flags & K.PATTERNS:
        pw, pb = pattern_tables(target, cache_dir)
    return Tables(target, _additive(target.key), pw, pb)


# -- searches -----------------------------------------------------------------------------


class Outcome(Record):
    """One IDA* run: ``steps`` (``None`` when none was found), the result ``code`` (a
    distance, ``OVER_LIMIT``, ``STOPPED`` or ``UNREACHABLE``), the blank's squares along
    the path, nodes expanded, the bound at the start (``h0``), ``(threshold, nodes)`` per
    iteration, seconds, and the comparison with a table when one was given: bound values
    ``checked``, how many ``over`` the true distance, the ``worst`` excess and a board
    ``worst_board`` with it (``None`` when none)."""

    steps: int | None
    code: int
    blanks: tuple[int, ...]
    nodes: int
    h0: int
    iterations: tuple[tuple[int, int], ...]
    seconds: float
    checked: int = 0
    over: int = 0
    worst: int = 0
    worst_board: Board | None = None
    worst_h: int = 0


def _state(limit: int, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    state[K.WORST_KEY] = -1
    stack = np.zeros((limit + 2, K.STACK_COLUMNS), dtype=np.int64)
    iters = np.zeros((limit + 2, 2), dtype=np.int64)
    out = np.zeros((rows, limit + 1), dtype=np.int8)
    return state, stack, iters, out


def _tables_arguments(tables: Tables) -> tuple:
    return (KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, tables.add, tables.pw, tables.pb,
            RANK_BYTE, POPCOUNT8)  # fmt: skip


def search(
    start: Board,
    bound: Bound,
    tables: Tables,
    max_depth: int | None = None,
    *,
    stop: StopFlag | None = None,
    timeout: float | None = None,
    payload: np.ndarray | None = None,
    ncomb: int = 0,
) -> Outcome:
    """IDA* from ``start`` to ``tables.target`` under ``bound``, stopping at the first
    solution (in move order, at the first threshold that has one).  With ``payload`` (a
    distance table's bytes, boards with ``C(24, k)`` = ``ncomb`` black sets per blank
    square) every value of the bound is compared with the truth."""
    target = tables.target
    if start.counts != target.counts:
        return Outcome(None, UNREACHABLE, (), 0, 0, (), 0.0)
    kernel = kernel_for(bound)
    limit = depth_limit(max_depth)
    state, stack, iters, out = _state(limit, 1)
    check = payload is not None and ncomb > 0
    with StopFlag(stop).arm(timeout) as flag:
        run = partial(
            kernel, np.int64(bound.flags), np.int64(start.black), np.int64(start.blank),
            np.int64(target.black), np.int64(target.blank), np.int64(limit), np.int64(0),
            *_tables_arguments(tables), payload if check else _NO_BYTES,
            np.int64(ncomb if check else 0), state, stack, iters, out, flag.array,
        )  # fmt: skip

        def timed() -> tuple[int, float]:
            t0 = time.perf_counter()
            code = run()
            return code, time.perf_counter() - t0

        code, seconds = off_main_thread(timed, flag)
    steps = int(state[K.STEPS]) if code == K.FOUND else None
    blanks = tuple(int(x) for x in out[0, : steps + 1]) if steps is not None else ()
    worst_key = int(state[K.WORST_KEY])
    return Outcome(
        steps=steps,
        code=steps if steps is not None else (STOPPED if code == STOPPED else OVER_LIMIT),
        blanks=blanks,
        nodes=int(state[K.NODES]),
        h0=int(state[K.H0]),
        iterations=tuple((int(b), int(n)) for b, n in iters[: state[K.ITERS]]),
        seconds=seconds,
        checked=int(state[K.CHECKED]),
        over=int(state[K.OVER]),
        worst=int(state[K.WORST]),
        worst_board=None if worst_key < 0 else Board.from_key(worst_key),
        worst_h=int(state[K.WORST_H]),
    )


def bound_at(board: Board, bound: Bound, tables: Tables, kernel: Callable | None = None) -> int:
    """The value of ``bound`` at ``board``, as the search computes it (``kernel``:
    default, the one :func:`kernel_for` gives)."""
    state, stack, iters, out = _state(0, 1)
    target = tables.target
    (kernel or kernel_for(bound))(
        np.int64(bound.flags), np.int64(board.black), np.int64(board.blank),
        np.int64(target.black), np.int64(target.blank), np.int64(-1), np.int64(0),
        *_tables_arguments(tables), _NO_BYTES, np.int64(0), state, stack, iters, out,
        np.zeros(1, dtype=np.int64),
    )  # fmt: skip
    return int(state[K.H0])


def every_path(
    start: Board,
    bound: Bound,
    tables: Tables,
    max_depth: int | None = None,
    *,
    chunks: Iterable[int] = (4096,),
    stop: StopFlag | None = None,
) -> Iterator[np.ndarray]:
    """Every solution at the first threshold that has one, as chunks (``int8`` arrays,
    one row of the blank's squares per path, the start's first), in lexicographic order of
    the squares the knights jump from; ``chunks`` gives the chunks' sizes (its last
    repeats).  For an admissible ``bound`` these are every optimal solution.  Memory stays
    bounded: one board per depth and one chunk.  Nothing when ``start`` cannot reach the
    target or is beyond ``max_depth``; a raised ``stop`` ends the stream."""
    target = tables.target
    if start.counts != target.counts:
        return
    kernel = kernel_for(bound)
    limit = depth_limit(max_depth)
    state, stack, iters, out = _state(limit, 1)
    flag = stop or StopFlag()
    fixed = (np.int64(bound.flags), np.int64(start.black), np.int64(start.blank),
             np.int64(target.black), np.int64(target.blank), np.int64(limit), np.int64(1),
             *_tables_arguments(tables), _NO_BYTES, np.int64(0), state, stack, iters)  # fmt: skip
    for size in _repeat_last(chunks):
        if size > out.shape[0]:
            out = np.zeros((size, limit + 1), dtype=np.int8)
        code = off_main_thread(partial(kernel, *fixed, out[:size], flag.array), flag)
        rows = int(state[K.PATHS])
        if rows:
            yield out[:rows, : int(state[K.STEPS]) + 1].copy()
        if code != K.CHUNK:
            return


def _repeat_last(sizes: Iterable[int]) -> Iterator[int]:
    size = 1
    for size in sizes:
        yield size
    while True:
        yield size


def search_solutions(
    start: Board,
    target: Board,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    chunks: Iterable[int] = (4096,),
    stop: StopFlag | None = None,
) -> Iterator[np.ndarray]:
    """Every optimal solution of ``start`` by search (no table): :func:`every_path`
    under the pattern databases when they are cached or the board is far (they are then
    built, once), else under the nearest-square bound; both are admissible.  A board whose
    knight counts differ from the target's has none, known at once."""
    from .pdb import cached_pattern_tables

    if start.counts != target.counts:
        return
    deep = _nearest_bound(start, target) >= PDB_FROM_BOUND
    use_pdb = deep or cached_pattern_tables(target.key, cache_dir) is not None
    bound = builtin("pdb" if use_pdb else "knight_distance")
    yield from every_path(start, bound, tables_for(target, bound.flags, cache_dir), None,
                          chunks=chunks, stop=stop)  # fmt: skip


PDB_FROM_BOUND = 12
"""Boards whose nearest-square bound is at least this (some 18 moves or more away) are
searched with the pattern databases, built if need be: without them every optimal
solution of a distance-30 board takes minutes."""


def _nearest_bound(board: Board, target: Board) -> int:
    add = _additive(target.key)
    return sum(
        int(add[3, sq]) if board.black >> sq & 1 else int(add[2, sq])
        for sq in range(NUM_SQUARES)
        if sq != board.blank
    )


def search_paths(
    board: Board,
    target: Board,
    *,
    limit: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[np.ndarray]:
    """Chunks of every optimal path of ``board`` found by search, without a table: the
    same paths, in the same order, as the table's."""
    from ..table.solutions import chunk_sizes

    left = limit
    for chunk in search_solutions(board, target, cache_dir=cache_dir,
                                  chunks=chunk_sizes(limit)):  # fmt: skip
        if left is not None:
            chunk = chunk[:left]
            left -= len(chunk)
        if len(chunk):
            yield chunk
        if left == 0:
            return
