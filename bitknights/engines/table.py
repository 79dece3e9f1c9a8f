"""Table engine: answers from the exhaustive distance table (:mod:`bitknights.table`).

It never builds the table: without a valid table file for the target it raises
:class:`~bitknights.table.store.TableError`, which tells the user to run
``bitknights table build``.  ``nodes`` counts table probes.
"""

from __future__ import annotations

import time

import numpy as np

from ..board import Board
from ..solution import Solution
from ..table import load_table, lookup, store
from .common import boards_from_blanks, depth_limit, same_counts


def solve(
    start: Board,
    target: Board,
    max_depth: int | None = 15,
    *,
    timeout: float | None = None,
    count_solutions: bool = False,
) -> Solution:
    """Solve ``start`` exactly from the distance table of ``target``: fewest moves if at
    most ``max_depth`` (``None``: no limit), one optimal path, probes made.  ``timeout``
    is accepted for the engines' common signature; a table answer takes microseconds.
    ``count_solutions`` sets a solved result's ``optimal_solutions`` (distinct optimal
    move sequences), and so its JSON record's.  The path is walked in plain
    Python (:mod:`bitknights.table.lookup`); only counting solutions needs numba."""
    t0 = time.perf_counter()
    file = store.load(target)
    if not same_counts(start, target):
        return Solution(
            start,
            target,
            None,
            engine="table",
            max_depth=max_depth,
            status="unreachable",
            seconds=time.perf_counter() - t0,
        )
    steps, blanks, probes = lookup.walk(file, start.black, start.blank, depth_limit(max_depth))
    if steps < 0:  # OVER_LIMIT (-2): farther than the limit; -1: cannot reach the target
        return Solution(
            start,
            target,
            None,
            nodes=probes,
            seconds=time.perf_counter() - t0,
            engine="table",
            max_depth=max_depth,
            status="over_limit" if steps == lookup.OVER_LIMIT else "unreachable",
        )
    counted = load_table(target).count_solutions(start) if count_solutions else None
    boards = boards_from_blanks(start, blanks)
    return Solution(
        start,
        target,
        steps,
        boards,
        probes,
        time.perf_counter() - t0,
        "table",
        max_depth,
        optimal_solutions=counted,
    )


def steps_many(
    keys: np.ndarray,
    target: Board,
    max_depth: int | None = 15,
    *,
    workers: int | None = None,
    stop: object = None,
) -> np.ndarray:
    """The distance of each board (packed keys, see :attr:`Board.key`) to ``target``, -1
    beyond ``max_depth`` or unreachable: one table read a board, with numpy alone.
    ``workers`` and ``stop`` are accepted for the engines' common signature."""
    from ..table import nplookup, store

    keys = np.ascontiguousarray(keys, dtype=np.int64)
    return nplookup.distances(store.load(target), keys, depth_limit(max_depth))
