"""IDA* under any bound (:class:`Bound`): the search behind the heuristic lab
(:mod:`bitknights.lab`) and behind every optimal solution of a board when there is no
distance table.  The kernel (:mod:`._lab_kernels`) runs compiled ahead of time
(:mod:`bitknights.native`); a user's function is compiled into a copy of it just in time,
once per function and process (announced on a terminal).
"""

from __future__ import annotations

import time
import types
from functools import lru_cache, partial

import numpy as np

from .. import progress
from .._records import Record
from ..board import Board
from ..coords.arrays import POPCOUNT8, RANK_BYTE, SQUARE_COLOR
from ..errors import BitknightsError
from ..results import OVER_LIMIT, STOPPED, UNREACHABLE
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES
from ..threads import off_main_thread
from . import _lab_layout as K
from . import depth_limit
from .common import nearest_sum, nearest_target_distance
from .options import StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterator

BUILTINS = {"misplaced": K.MISPLACED, "knight_distance": K.NEAREST, "pdb": K.PATTERNS}
"""The built-in parts of a bound by name (see :mod:`._lab_kernels`)."""

USER_COMPILE_SECONDS = 4  # compiling the kernel with a user's function, measured here

PDB_FROM_BOUND = 12
"""Every optimal solution of a board whose nearest-square sum is at least this is searched
with the pattern databases, built if need be."""


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


def user_kernel(fn: object, name: str = "") -> Callable:
    """``ida_run`` compiled just in time with ``fn`` (a numba dispatcher, or a function
    to compile with ``njit``) as its ``USER`` part, once per function and process."""
    hit = _USER_KERNELS.get(id(fn))
    if hit is not None and hit[0] is fn:
        return hit[1]
    from numba import njit
    from numba import types as nt
    from numba.core.errors import NumbaError
    from numba.core.registry import CPUDispatcher

    from ..board import TARGET
    from . import _lab_kernels

    if not callable(fn):
        raise TypeError(f"a heuristic is a built-in's name or a function, got {fn!r}")
    user = fn if isinstance(fn, CPUDispatcher) else njit(nogil=True)(fn)
    name = name or getattr(fn, "__name__", "?")
    progress.announce(f"compiling IDA* with the heuristic {name!r}",
                      "a user's heuristic is compiled into the search kernel, once per process",
                      USER_COMPILE_SECONDS)  # fmt: skip
    space = dict(vars(_lab_kernels), user_h=user)

    def rebuild(dispatcher: object, inline: bool = False) -> object:
        f = dispatcher.py_func  # type: ignore[attr-defined]
        copy = types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        return njit(nogil=True, inline="always" if inline else "never")(copy)

    space["_bound"] = rebuild(_lab_kernels._bound, inline=True)
    kernel: Callable = rebuild(_lab_kernels.ida_run)  # type: ignore[assignment]
    try:  # compiled now, by a run: numba's reason when it cannot; it must return a number
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
    _USER_KERNELS[id(fn)] = (fn, kernel)
    return kernel


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
    rows = [[0 if mask >> sq & 1 else 1 for sq in range(NUM_SQUARES)]
            for mask in (target.white, target.black)]  # fmt: skip
    add = np.array([*rows, *nearest_target_distance(target_key)], dtype=np.int64)
    add.setflags(write=False)
    return add


def pattern_tables(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> tuple:
    """The pattern databases of ``target`` (built once and cached, announced)."""
    from .pdb import pattern_tables as tables

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
    pw, pb = pattern_tables(target, cache_dir) if flags & K.PATTERNS else (_NO_BYTES, _NO_BYTES)
    return Tables(target, _additive(target.key), pw, pb)


# -- searches -----------------------------------------------------------------------------


class Outcome(Record):
    """One IDA* run: ``steps`` (``None`` when none was found), the result ``code`` (a
    distance, ``OVER_LIMIT``, ``STOPPED`` or ``UNREACHABLE``), the blank's squares along
    the path, nodes expanded, the bound at the start (``h0``), ``(threshold, nodes)`` per
    iteration, seconds, and the comparison with a table when one was given: bound values
    ``checked``, how many ``over`` the true distance, the ``worst`` excess and a board
    ``worst_board`` with it (``None`` when none) and its bound ``worst_h``."""

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


def _run(
    kernel: Callable, bound: Bound, start: Board, tables: Tables, limit: int, every: int,
    payload: np.ndarray = _NO_BYTES, ncomb: int = 0,
) -> tuple[Callable, np.ndarray, np.ndarray]:  # fmt: skip
    """``(call, state, iters)``: the kernel with every argument but ``out`` and ``stop``,
    and the arrays it reports in."""
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    state[K.WORST_KEY] = -1
    stack = np.zeros((limit + 2, K.STACK_COLUMNS), dtype=np.int64)
    iters = np.zeros((limit + 2, 2), dtype=np.int64)
    t = tables.target
    call = partial(kernel, *map(np.int64, (bound.flags, start.black, start.blank, t.black,
                                           t.blank, limit, every)),
                   KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, tables.add, tables.pw,
                   tables.pb, RANK_BYTE, POPCOUNT8, payload, np.int64(ncomb), state, stack,
                   iters)  # fmt: skip
    return call, state, iters


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
    if start.counts != tables.target.counts:
        return Outcome(None, UNREACHABLE, (), 0, 0, (), 0.0)
    limit = depth_limit(max_depth)
    check = payload is not None and ncomb > 0
    call, state, iters = _run(kernel_for(bound), bound, start, tables, limit, 0,
                              payload if check else _NO_BYTES, ncomb if check else 0)  # type: ignore[arg-type]  # fmt: skip
    out = np.zeros((1, limit + 1), dtype=np.int8)
    with StopFlag(stop).arm(timeout) as flag:

        def timed() -> tuple[int, float]:
            t0 = time.perf_counter()
            return call(out, flag.array), time.perf_counter() - t0

        code, seconds = off_main_thread(timed, flag)
    steps = int(state[K.STEPS]) if code == K.FOUND else None
    worst_key = int(state[K.WORST_KEY])
    return Outcome(
        steps=steps,
        code=steps if steps is not None else (STOPPED if code == STOPPED else OVER_LIMIT),
        blanks=tuple(int(x) for x in out[0, : steps + 1]) if steps is not None else (),
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
    call, state, _ = _run(kernel or kernel_for(bound), bound, board, tables, -1, 0)
    call(np.zeros((1, 1), dtype=np.int8), np.zeros(1, dtype=np.int64))
    return int(state[K.H0])


def search_paths(
    board: Board,
    target: Board,
    *,
    limit: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Iterator[np.ndarray]:
    """Chunks of every optimal path of ``board`` (at most ``limit``) found by search,
    without a table: ``int8`` arrays, one row of the blank's squares per path (the start's
    first), the same paths in the same order as the table's (lexicographic in the squares
    the knights jump from).  The bound is the pattern databases when they are cached or
    the board is far (they are then built, once), else the nearest-square sum; both are
    admissible.  Memory stays bounded: one board per depth and one chunk."""
    from ..table.solutions import chunk_sizes
    from .pdb import cached_pattern_tables

    if board.counts != target.counts:
        return
    deep = nearest_sum(board, target) >= PDB_FROM_BOUND
    use_pdb = deep or cached_pattern_tables(target.key, cache_dir) is not None
    bound = builtin("pdb" if use_pdb else "knight_distance")
    tables = tables_for(target, bound.flags, cache_dir)
    depth = depth_limit(None)
    call, state, _ = _run(kernel_for(bound), bound, board, tables, depth, 1)
    flag = StopFlag()
    out = np.zeros((1, depth + 1), dtype=np.int8)
    left = limit
    for size in chunk_sizes(limit):
        if size > out.shape[0]:
            out = np.zeros((size, depth + 1), dtype=np.int8)
        code = off_main_thread(partial(call, out[:size], flag.array), flag)
        chunk = out[: int(state[K.PATHS]), : int(state[K.STEPS]) + 1][:left].copy()
        if left is not None:
            left -= len(chunk)
        if len(chunk):
            yield chunk
        if code != K.CHUNK or left == 0:
            return
