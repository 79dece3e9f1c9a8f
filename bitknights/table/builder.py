"""Exhaustive layered breadth-first search from a target over every board of its kind,
for both tables' builds.

``dist[rank]`` (``uint8``, :data:`UNSEEN` until found) is filled one distance at a time.
Layer ``d`` lives on the blank squares of one colour and layer ``d + 1`` on the other; a
layer is made whichever way touches fewer boards: *push* (every board of layer ``d`` marks
its unseen neighbours) or *pull* (every unseen board of the other colour with a neighbour
in layer ``d`` marks itself), over blocks of ranks on parallel threads (two threads of a
push may write one byte, always the same value: no atomics).  A small layer is kept as a
list of ranks and pushed on one thread.
"""

from __future__ import annotations

import time

import numpy as np

from .. import cache, estimates, native, progress
from ..board import TARGET, Board
from ..coords import comb_count, rank, state_count
from ..coords.arrays import SQUARE_COLOR
from ..results import UNSEEN
from ..squares import KNIGHT_COUNTS, NUM_SQUARES, square_color
from ..threads import parallel_blocks
from . import store
from .layout import BLOCK, kernel_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

# frontiers up to this size are kept as rank lists (no scan of the whole table)
_LIST_MAX = 1 << 18
_PULL_RATIO = 1.8
_HOW = {"list": "pushed from a list", "push": "pushed", "pull": "pulled"}
LOG_LEGEND = (
    "one line per distance: the boards found there, how, and the seconds so far",
    "  pushed: each board of the layer marks its unseen neighbours (from a list: few boards)",
    "  pulled: each unseen board looks for a neighbour in the layer (once they are fewer)",
)


def _over_jobs(kernel, dist: np.ndarray, value: int, blanks: np.ndarray, *tail) -> list[int]:  # noqa: ANN001
    """``kernel(dist, value, blanks, *tail, j0, j1)`` over every job (:mod:`.kernels`) of
    ``blanks``, in threads."""
    jobs = len(blanks) * -(-(len(dist) // NUM_SQUARES) // BLOCK)
    fixed = (dist, np.int64(value), blanks, *tail)
    return parallel_blocks(lambda j0, j1: kernel(*fixed, np.int64(j0), np.int64(j1)), jobs)


_BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n:,}/{total:,} {unit}{postfix}"


def bfs_distances(
    target: Board, *, what: str = "searching every board's distance"
) -> tuple[np.ndarray, list[int]]:
    """``(dist, layers)``: the exact distance to ``target`` of every board of its kind by
    rank (``uint8``; :data:`UNSEEN` where it cannot reach), and the boards at each
    distance; a progress bar described as ``what``, and the per-distance log."""
    progress.log("bitknights: " + "\n".join(LOG_LEGEND))
    k = target.black.bit_count()
    total = state_count(k)
    with progress.bar(total, "boards", what, delay=0, bar_format=_BAR_FORMAT) as shown:
        shown.set_postfix_str("distance 0")
        kern = native.kernels("table")
        ncomb = comb_count(k)
        dist = np.full(total, UNSEEN, dtype=np.uint8)
        squares = np.arange(NUM_SQUARES, dtype=np.int64)
        by_colour = [squares[c == SQUARE_COLOR] for c in (0, 1)]
        unseen = [len(by_colour[c]) * ncomb for c in (0, 1)]
        # average degree of a blank square of each colour, for the push/pull estimate
        degree = [float(KNIGHT_COUNTS[by_colour[c]].mean()) for c in (0, 1)]
        t0 = time.perf_counter()
        target_rank = rank(target.black, target.blank)
        dist[target_rank] = 0
        colour = square_color(target.blank)
        unseen[colour] -= 1
        layers = [1]
        progress.log(f"distance  0: {1:>12,} board")
        shown.update(1)
        args = kernel_args(k)
        frontier_list: np.ndarray | None = np.array([target_rank], dtype=np.int64)
        d = 0
        while True:
            other = 1 - colour
            shown.set_postfix_str(f"distance {d + 1}")
            frontier = layers[-1]
            if frontier_list is not None and frontier <= _LIST_MAX:
                how = "list"
                frontier_list = kern.push_list(dist, np.int64(d), frontier_list, *args)
                found = len(frontier_list)
            else:
                frontier_list = None
                # a pull pays once the unseen are few (measured: about 1.8 per frontier board)
                pull = frontier * degree[colour] * _PULL_RATIO > unseen[other] * degree[other]
                how = "pull" if pull else "push"
                blanks = by_colour[other if pull else colour]
                found = sum(_over_jobs(kern.sweep, dist, d, blanks, *args, np.bool_(pull)))
                if not pull:  # two threads may mark one board: count them after
                    found = sum(_over_jobs(kern.count, dist, d + 1, by_colour[other], args[0]))
            if found == 0:
                break
            d += 1
            layers.append(found)
            unseen[other] -= found
            colour = other
            shown.update(found)
            noun = "board " if found == 1 else "boards"
            seconds = time.perf_counter() - t0
            progress.log(f"distance {d:2d}: {found:>12,} {noun}  ({_HOW[how]}, {seconds:.1f} s)")
        reached = sum(layers)
        progress.log(
            f"{reached:,} of {total:,} boards reach the target; farthest {len(layers) - 1} moves"
            f" ({time.perf_counter() - t0:.1f} s)"
        )
        return dist, layers


def estimate(target: Board) -> float:
    """Seconds :func:`build_table` takes for ``target``, in proportion to the boards."""
    share = state_count(target.black.bit_count()) / state_count(TARGET.black.bit_count())
    return estimates.TABLE_BUILD * share


def build_table(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> store.ByteTable:
    """Enumerate every board's distance to ``target``, write the table file atomically
    (replacing whatever was there) and return it, loaded."""
    path = store.table_path(target, cache_dir)
    cache.ensure_directory(path.parent)  # a directory that cannot take it fails at once
    what = f"building the distance table ({estimates.about(estimate(target))})"
    dist, layers = bfs_distances(target, what=what)
    unreachable = int(dist.shape[0] - sum(layers))
    example = int((dist == len(layers) - 1).argmax())  # the first board at the farthest
    store.ByteTable.write(path, target, dist, layers, unreachable, example)
    del dist
    return store.ByteTable.load(target, cache_dir)  # type: ignore[return-value]
