"""The IDA* engine (``--engine ida``): iterative-deepening A* over bitboards.

Its kernels (:mod:`._ida_kernels`) load through :mod:`bitknights.native`; importing this
module imports neither numpy nor numba.  The bound is the sum over knights of the jump
distance to the nearest square the target gives its colour (admissible, and it dominates
the misplaced count), or for deep searches the pattern databases (:mod:`.pdb`), kept
incrementally and rounded up to the parity the blank's square colour fixes, so every
threshold steps by two.  The move undoing the previous one is never tried.  Memory: a
stack as deep as the limit, plus the pattern databases (10 MB) when used.
"""

from __future__ import annotations

from .. import estimates, progress
from . import Engine
from .options import Capabilities, StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from types import ModuleType, SimpleNamespace

    import numpy as np

    from ..board import Board
    from . import Found
    from .options import SolveOptions

PDB_AFTER_NODES = 1 << 25
"""A search with the nearest-square bound that expands more nodes than this (about a
second) starts again with the pattern databases, which take seconds to build once (then
they are cached on disk) but cut deep searches by orders of magnitude (distance 32:
0.12 s against 3-5 s)."""

PDB_FROM_DEPTH = 20
"""Searches allowed deeper than this use the pattern databases from the start when they
are at hand (in memory or in a valid cache file)."""

PDB_FROM_BOARDS = 64
"""Batches this large use the pattern databases whenever they are at hand, whatever the
limit: loading them takes ~10 ms, and they cut the classic hard batch (limit 15) from
0.8-1.2 s of search to 0.12-0.18 s."""

PDB_UPFRONT_BOUND = 16
"""A search allowed deeper than ``PDB_FROM_DEPTH`` from a board whose nearest-square bound
is at least this (boards some 22 or more moves away), or such a batch of
``PDB_FROM_BOARDS`` boards, builds missing pattern databases before it starts
(:data:`bitknights.estimates.PATTERN_BUILD` seconds, once: they are cached on disk)
instead of after ``PDB_AFTER_NODES`` nodes: without them a distance-32 board takes
3-5 s, a batch of them ten times that."""


def _kernels() -> ModuleType | SimpleNamespace:
    """The compiled-ahead kernels when installed and current (no numba import), else the
    JIT ones (:mod:`._ida_kernels`)."""
    from ..native import kernels

    return kernels("ida")


def backend() -> str:
    """``'native'`` when IDA* runs the ahead-of-time compiled kernels, else ``'jit'``."""
    from types import ModuleType

    from ..native import is_native

    kernels = _kernels()
    return "native" if isinstance(kernels, ModuleType) and is_native(kernels) else "jit"


def heuristic(board: Board, target: Board) -> int:
    """The kernel's nearest-square bound for ``board``, rounded up to the parity of the
    true distance (for profiling; the kernel keeps it incrementally).

    >>> from bitknights import TARGET
    >>> heuristic(TARGET, TARGET), heuristic(TARGET.play("b5"), TARGET)
    (0, 1)
    """
    from ..squares import NUM_SQUARES, square_color
    from .common import nearest_target_distance

    hw, hb = nearest_target_distance(target.key)
    h = sum(int(hb[sq]) if board.black >> sq & 1 else int(hw[sq])
            for sq in range(NUM_SQUARES) if sq != board.blank)  # fmt: skip
    return h + ((h ^ square_color(board.blank) ^ square_color(target.blank)) & 1)


class IdaEngine(Engine):
    """IDA* as an :class:`~bitknights.engines.Engine`.  ``use_pdb`` picks the bound
    for every search: ``True`` the pattern databases, ``False`` the nearest-square sum,
    ``None`` (the default) as the module's ``PDB_*`` constants say."""

    name = "ida"
    capabilities = Capabilities(
        lookup=False, exact_at_any_depth=False, numpy_depth=-1, counts_solutions=False
    )

    def __init__(self, use_pdb: bool | None = None) -> None:
        self.use_pdb = use_pdb

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        """``timeout`` covers any pattern-database build the search waits for."""
        import numpy as np

        from ..results import NO_BUDGET, OVER_BUDGET

        path = np.empty(limit + 2, dtype=np.int64)
        nodes = 0
        use_pdb = self._choose_bound([start.key], target, limit, options.cache_dir, stop)
        for pdb in (False, True) if use_pdb is None else (use_pdb,):
            bounds = _bounds(target, pdb, options.cache_dir, stop)
            budget = NO_BUDGET if pdb or use_pdb is not None else PDB_AFTER_NODES
            steps, more = _kernels().ida_one(
                np.int64(start.black), np.int64(start.blank), np.int64(target.blank),
                np.int64(limit), *_tables(), *bounds, np.int64(budget), path, stop.array,
            )  # fmt: skip
            nodes += more
            if steps != OVER_BUDGET:
                break
        return int(steps), path[: steps + 1] if steps >= 0 else (), nodes

    def _steps(
        self, keys: np.ndarray | list[int], target: Board, limit: int, options: SolveOptions,
        stop: StopFlag | None,
    ) -> np.ndarray:  # fmt: skip
        """Searched on ``options.workers`` threads."""
        import numpy as np

        from ..coords import KEY_SHIFT
        from ..results import STOPPED
        from ..squares import FULL_MASK
        from ..threads import Stopped, parallel_chunks

        keys = np.ascontiguousarray(keys, dtype=np.int64)
        steps = np.full(len(keys), STOPPED, dtype=np.int64)
        nodes = np.zeros(len(keys), dtype=np.int64)
        stop = stop or StopFlag()
        try:
            use_pdb = self._choose_bound(keys.tolist(), target, limit, options.cache_dir, stop)
            bounds = _bounds(target, bool(use_pdb), options.cache_dir, stop)
        except Stopped:
            return steps
        blacks, blanks = keys & FULL_MASK, keys >> KEY_SHIFT
        tblank, tcount = np.int64(target.blank), np.int64(target.counts[1])
        kernel, tables, flag = _kernels().ida_many, _tables(), stop.array

        def run(lo: int, hi: int) -> None:
            if flag[0] == 0:
                kernel(blacks[lo:hi], blanks[lo:hi], tblank, tcount, np.int64(limit), *tables,
                       *bounds, steps[lo:hi], nodes[lo:hi], flag)  # fmt: skip

        parallel_chunks(run, len(keys), options.workers, stop=stop)
        return steps

    # -- the bound ----------------------------------------------------------------------

    def _choose_bound(
        self,
        keys: list[int],
        target: Board,
        limit: int,
        cache_dir: str | os.PathLike[str] | None,
        stop: StopFlag,
    ) -> bool | None:
        """``True``/``False`` to bound every search with the pattern databases or not,
        ``None`` to start with the nearest-square bound and switch after
        ``PDB_AFTER_NODES`` nodes.  Deep searches build missing databases first (waiting
        as long as ``stop`` allows)."""
        if self.use_pdb is not None:
            return self.use_pdb
        from .pdb import cached_pattern_tables

        wanted = limit > PDB_FROM_DEPTH or len(keys) >= PDB_FROM_BOARDS
        if not wanted:
            return False if len(keys) > 1 else None
        if _deep(keys, target, limit):
            _patterns(target, cache_dir, stop)
        if cached_pattern_tables(target.key, cache_dir) is not None:
            return True
        return False if len(keys) > 1 else None


ENGINE = IdaEngine()


def _bounds(
    target: Board,
    use_pdb: bool,
    cache_dir: str | os.PathLike[str] | None = None,
    stop: StopFlag | None = None,
) -> tuple:
    """The kernel's bound arguments: (mode, hw, hb, pw, pb, part, pc)."""
    import numpy as np

    from ..coords.arrays import POPCOUNT8, RANK_BYTE
    from .common import nearest_target_distance

    hw, hb = nearest_target_distance(target.key)
    if use_pdb:
        pw, pb = _patterns(target, cache_dir, stop or StopFlag())
        return np.int64(1), hw, hb, pw, pb, RANK_BYTE, POPCOUNT8
    empty = np.zeros(1, dtype=np.uint8)
    return np.int64(0), hw, hb, empty, empty, RANK_BYTE, POPCOUNT8


def _tables() -> tuple:
    from ..coords.arrays import SQUARE_COLOR
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

    return KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR


def _deep(keys: list[int], target: Board, limit: int) -> bool:
    """Whether a search of these boards should build the pattern databases up front."""
    from ..board import Board

    if limit <= PDB_FROM_DEPTH:
        return False
    return len(keys) >= PDB_FROM_BOARDS or any(
        heuristic(Board.from_key(k), target) >= PDB_UPFRONT_BOUND for k in keys
    )


def _patterns(
    target: Board, cache_dir: str | os.PathLike[str] | None, stop: StopFlag
) -> tuple[np.ndarray, np.ndarray]:
    """The pattern databases of ``target`` (cached in ``cache_dir``): at hand, or built
    once however many searches ask at the same time (announced on a terminal), each
    waiting as long as its ``stop`` flag allows (raises :class:`~bitknights.threads.Stopped`)."""
    from .. import cache
    from ..threads import shared, wait
    from .pdb import cached_pattern_tables, pattern_tables

    tables = cached_pattern_tables(target.key, cache_dir)
    if tables is not None:
        return tables

    def build() -> tuple[np.ndarray, np.ndarray]:
        progress.announce("building pattern databases", "once, for deep IDA* searches",
                          estimates.PATTERN_BUILD)  # fmt: skip
        return pattern_tables(target.key, cache_dir)

    key = ("pattern databases", target.key, cache.cache_directory(cache_dir))
    return wait(shared(key, build), lambda: stop.raised)
