"""IDA* engine: iterative-deepening A* over bitboards.

The kernel (:mod:`._ida_kernels`) runs compiled ahead of time when the installed extension
is current (:mod:`bitknights.native`: no numba import), else just in time by numba.

The bound ``h`` is the sum, over all knights, of the knight-jump distance from the
knight's square to the nearest square the target gives its colour (each move moves one
knight one jump, so this never overestimates, and it dominates the misplaced-knight
count).  It is kept incrementally: a move changes one knight's term.  The blank's square
colour fixes the parity of the remaining distance, so ``h`` is rounded up to that parity
and every threshold steps by an even amount.  The move that undoes the previous one is
never tried.
"""

from __future__ import annotations

import time
from functools import lru_cache
from types import ModuleType, SimpleNamespace

import numpy as np

from .. import progress
from ..board import Board
from ..coords import KEY_SHIFT
from ..coords.arrays import POPCOUNT8, RANK_BYTE, SQUARE_COLOR
from ..results import INCONSISTENT, OVER_BUDGET, STOPPED, Status
from ..solution import Solution
from ..squares import FULL_MASK, KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES
from ..threads import default_workers, parallel_chunks
from .common import (
    boards_from_blanks,
    depth_limit,
    nearest_target_distance,
    same_counts,
)
from .options import StopFlag
from .pdb import cached_pattern_tables, inconsistent, pattern_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os


@lru_cache(maxsize=1)
def _kernels() -> ModuleType | SimpleNamespace:
    """The compiled-ahead kernels when installed and current (no numba import), else the
    JIT ones (:mod:`._ida_kernels`)."""
    from ..native import kernels

    return kernels("ida")


def backend() -> str:
    """``'native'`` when IDA* runs the ahead-of-time compiled kernels, else ``'jit'``."""
    from ..native import is_native

    kernels = _kernels()
    return "native" if isinstance(kernels, ModuleType) and is_native(kernels) else "jit"


def heuristic(board: Board, target: Board) -> int:
    """The kernel's lower bound for ``board``: nearest-square sum rounded up to the parity
    of the true distance (for profiling; the kernel keeps it incrementally).

    >>> from bitknights import TARGET
    >>> heuristic(TARGET, TARGET), heuristic(TARGET.play("b5"), TARGET)
    (0, 1)
    """
    hw, hb = nearest_target_distance(target.key)
    h = sum(int(hb[sq]) if board.black >> sq & 1 else int(hw[sq])
            for sq in range(NUM_SQUARES) if sq != board.blank)  # fmt: skip
    return h + ((h ^ int(SQUARE_COLOR[board.blank]) ^ int(SQUARE_COLOR[target.blank])) & 1)


_DUMMY_TABLE = np.zeros(1, dtype=np.uint8)
NO_BUDGET = np.int64(1 << 62)

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
``PDB_FROM_BOARDS`` boards, builds missing pattern databases before it starts (about 3 s,
once: they are cached on disk) instead of after ``PDB_AFTER_NODES`` nodes: without them a
distance-32 board takes 3-5 s, a batch of them ten times that."""
PDB_BUILD_SECONDS = 3


def _deep(keys: list[int], target: Board, limit: int) -> bool:
    """Whether a search of these boards should build the pattern databases up front."""
    if limit <= PDB_FROM_DEPTH:
        return False
    return len(keys) >= PDB_FROM_BOARDS or any(
        heuristic(Board.from_key(k), target) >= PDB_UPFRONT_BOUND for k in keys
    )


def _build_patterns(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> None:
    """Build (or load) the pattern databases, saying so on a terminal when they are built."""
    if cached_pattern_tables(target.key, cache_dir) is None:
        progress.announce("building pattern databases", "once, for deep IDA* searches",
                          PDB_BUILD_SECONDS)  # fmt: skip
        pattern_tables(target.key, cache_dir)


def _bounds(target: Board, use_pdb: bool, cache_dir: str | os.PathLike[str] | None = None) -> tuple:
    """The kernel's bound arguments: (mode, hw, hb, pw, pb, part, pc)."""
    hw, hb = nearest_target_distance(target.key)
    if use_pdb:
        pw, pb = pattern_tables(target.key, cache_dir)
        return np.int64(1), hw, hb, pw, pb, RANK_BYTE, POPCOUNT8
    return np.int64(0), hw, hb, _DUMMY_TABLE, _DUMMY_TABLE, RANK_BYTE, POPCOUNT8


def solve(
    start: Board,
    target: Board,
    max_depth: int | None = 15,
    *,
    timeout: float | None = None,
    use_pdb: bool | None = None,
    stop: StopFlag | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """Solve ``start`` exactly with IDA*: fewest moves to ``target`` if at most
    ``max_depth`` (``None``: no limit), one optimal path, nodes expanded.  With
    ``timeout`` (seconds) a search still running then gives up: status ``'timeout'``.
    ``use_pdb`` picks the bound (default: the pattern databases when the limit exceeds
    ``PDB_FROM_DEPTH`` and they are at hand; else the nearest-square sum, switching to the
    pattern databases if the search runs past ``PDB_AFTER_NODES`` nodes).  ``stop``: a
    batch's flag that stops this search too; ``cache_dir``: where the pattern databases
    are cached."""
    t0 = time.perf_counter()
    if not same_counts(start, target):
        return Solution(start, target, None, engine="ida", max_depth=max_depth,
                        status=Status.UNREACHABLE, seconds=time.perf_counter() - t0)  # fmt: skip
    limit = depth_limit(max_depth)
    path = np.empty(limit + 2, dtype=np.int64)
    nodes = 0
    if use_pdb is None and limit > PDB_FROM_DEPTH:
        if _deep([start.key], target, limit):
            _build_patterns(target, cache_dir)
        if cached_pattern_tables(target.key, cache_dir) is not None:
            use_pdb = True
    with StopFlag(stop).arm(timeout) as stop:
        for pdb in (False, True) if use_pdb is None else (use_pdb,):
            budget = NO_BUDGET if pdb or use_pdb is not None else np.int64(PDB_AFTER_NODES)
            if pdb:
                _build_patterns(target)
            steps, more = _kernels().ida_one(
                np.int64(start.black), np.int64(start.blank), np.int64(target.blank),
                np.int64(limit), KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR,
                *_bounds(target, pdb, cache_dir), budget, path, stop.array,
            )  # fmt: skip
            nodes += more
            if steps != OVER_BUDGET:
                break
    if steps == INCONSISTENT:
        raise inconsistent(target.key, cache_dir)
    seconds = time.perf_counter() - t0
    if steps < 0:
        return Solution(start, target, None, nodes=int(nodes), seconds=seconds, engine="ida",
                        max_depth=max_depth, status=Status.of(steps))  # fmt: skip
    boards = boards_from_blanks(start, path[: steps + 1])
    return Solution(start, target, int(steps), boards, int(nodes), seconds, "ida", max_depth)


def steps_many(
    keys: np.ndarray,
    target: Board,
    max_depth: int | None = 15,
    *,
    workers: int | None = None,
    stop: StopFlag | None = None,
    use_pdb: bool | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """The distance of each board (packed keys, see :attr:`Board.key`) to ``target``, -1
    beyond ``max_depth`` or unreachable, searched on ``workers`` threads (default: every
    CPU).  If ``stop`` is raised the unfinished boards are left at -2.  ``use_pdb``: bound
    every search with the pattern databases (default: when they are at hand and the limit
    exceeds ``PDB_FROM_DEPTH`` or the batch has ``PDB_FROM_BOARDS`` boards)."""
    keys = np.ascontiguousarray(keys, dtype=np.int64)
    blacks = keys & FULL_MASK
    blanks = keys >> KEY_SHIFT
    steps = np.full(len(keys), STOPPED, dtype=np.int64)
    nodes = np.zeros(len(keys), dtype=np.int64)
    stop = stop or StopFlag()
    flag = stop.array
    limit = depth_limit(max_depth)
    if use_pdb is None:
        wanted = limit > PDB_FROM_DEPTH or len(keys) >= PDB_FROM_BOARDS
        if wanted and _deep(keys.tolist(), target, limit):
            _build_patterns(target, cache_dir)
        use_pdb = wanted and cached_pattern_tables(target.key, cache_dir) is not None
    bounds = _bounds(target, use_pdb, cache_dir)
    tblank, tcount = np.int64(target.blank), np.int64(target.counts[1])

    kernel = _kernels().ida_many

    def run(lo: int, hi: int) -> None:
        if flag[0] == 0:
            kernel(blacks[lo:hi], blanks[lo:hi], tblank, tcount, limit, KNIGHT_NEIGHBORS,
                   KNIGHT_COUNTS, SQUARE_COLOR, *bounds, steps[lo:hi], nodes[lo:hi],
                   flag)  # fmt: skip

    parallel_chunks(run, len(keys), workers or default_workers(), stop=stop)
    if use_pdb and (steps == INCONSISTENT).any():
        raise inconsistent(target.key, cache_dir)
    return steps
