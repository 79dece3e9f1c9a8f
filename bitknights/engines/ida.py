"""The IDA* engine (``--engine ida``): iterative-deepening A* over bitboards.

Its kernels (:mod:`._ida_kernels`) load through :mod:`bitknights.native`; importing this
module imports neither numpy nor numba.  The bound is the sum over knights of the jump
distance to the nearest square the target gives its colour, or for deep searches the
pattern databases (:mod:`.pdb`), kept incrementally and rounded up to the parity the
blank's square colour fixes.  The move undoing the previous one is never tried.
"""

from __future__ import annotations

from . import Engine, depth_limit
from .options import StopFlag

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
second) starts again with the pattern databases."""

PDB_FROM_DEPTH = 20
"""Searches allowed deeper than this use the pattern databases from the start when they
are at hand (in memory or in a valid cache file)."""

PDB_FROM_BOARDS = 64
"""Batches this large use the pattern databases whenever they are at hand."""

PDB_UPFRONT_BOUND = 16
"""Searches allowed deeper than ``PDB_FROM_DEPTH`` of a board whose nearest-square bound
is at least this, or of ``PDB_FROM_BOARDS`` boards, build missing pattern databases
before they start."""


def _kernels() -> ModuleType | SimpleNamespace:
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
    true distance.

    >>> from bitknights import TARGET
    >>> heuristic(TARGET, TARGET), heuristic(TARGET.play("b5"), TARGET)
    (0, 1)
    """
    from .common import nearest_sum, parity

    h = nearest_sum(board, target)
    return h + ((h ^ parity(board, target)) & 1)


class IdaEngine(Engine):
    """IDA* as an :class:`~bitknights.engines.Engine`.  ``use_pdb`` picks the bound
    for every search: ``True`` the pattern databases, ``False`` the nearest-square sum,
    ``None`` (the default) as the module's ``PDB_*`` constants say."""

    name = "ida"

    def __init__(self, use_pdb: bool | None = None) -> None:
        self.use_pdb = use_pdb

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        import numpy as np

        from ..results import NO_BUDGET, OVER_BUDGET

        path = np.empty(limit + 2, dtype=np.int64)
        nodes = 0
        use_pdb = self._choose_bound([start.key], target, limit, options.cache_dir, stop)
        for pdb in (False, True) if use_pdb is None else (use_pdb,):
            budget = NO_BUDGET if pdb or use_pdb is not None else PDB_AFTER_NODES
            steps, more = _kernels().ida_one(
                np.int64(start.black), np.int64(start.blank), np.int64(target.blank),
                np.int64(limit), *_bounds(target, pdb, options.cache_dir, stop),
                np.int64(budget), path, stop.array,
            )  # fmt: skip
            nodes += more
            if steps != OVER_BUDGET:
                break
        return int(steps), path[: steps + 1] if steps >= 0 else (), nodes

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

        keys = np.ascontiguousarray(keys, dtype=np.int64)
        steps = np.full(len(keys), STOPPED, dtype=np.int64)
        nodes = np.zeros(len(keys), dtype=np.int64)
        stop, limit = stop or StopFlag(), depth_limit(options.max_depth)
        try:
            use_pdb = self._choose_bound(keys, target, limit, options.cache_dir, stop)
            bounds = _bounds(target, bool(use_pdb), options.cache_dir, stop)
        except Stopped:
            return steps
        blacks, blanks = keys & FULL_MASK, keys >> KEY_SHIFT
        fixed = (np.int64(target.blank), np.int64(limit), *bounds)
        kernel, flag = _kernels().ida_many, stop.array

        def run(lo: int, hi: int) -> None:
            if flag[0] == 0:
                kernel(blacks[lo:hi], blanks[lo:hi], *fixed, steps[lo:hi], nodes[lo:hi], flag)

        parallel_chunks(run, len(keys), options.workers, stop=stop)
        return steps

    def _choose_bound(
        self,
        keys: np.ndarray | list[int],
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
        from .common import nearest_bounds
        from .pdb import cached_pattern_tables

        many = len(keys) >= PDB_FROM_BOARDS
        if limit > PDB_FROM_DEPTH and (
            many or nearest_bounds(keys, target).max(initial=0) >= PDB_UPFRONT_BOUND
        ):
            _patterns(target, cache_dir, stop)
        if (limit > PDB_FROM_DEPTH or many) and cached_pattern_tables(target.key, cache_dir):
            return True
        return False if len(keys) > 1 else None


ENGINE = IdaEngine()


def _bounds(
    target: Board,
    use_pdb: bool,
    cache_dir: str | os.PathLike[str] | None = None,
    stop: StopFlag | None = None,
) -> tuple:
    """The kernels' arguments after the move limit: (nbr, cnt, color, mode, hw, hb, pw,
    pb, part, pc)."""
    import numpy as np

    from ..coords.arrays import POPCOUNT8, RANK_BYTE, SQUARE_COLOR
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
    from .common import nearest_target_distance

    if use_pdb:
        pw, pb = _patterns(target, cache_dir, stop or StopFlag())
    else:
        pw = pb = np.zeros(1, dtype=np.uint8)
    return (KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, np.int64(use_pdb),
            *nearest_target_distance(target.key), pw, pb, RANK_BYTE, POPCOUNT8)  # fmt: skip


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
