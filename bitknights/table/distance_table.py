"""Exact answers from a loaded, proved distance table (:mod:`bitknights.table.store`):
single boards in plain Python (:mod:`.probe`), batches in numba kernels."""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

import numpy as np

from ..board import Board
from ..errors import BitknightsError
from ..solution import Hint
from . import probe
from .compact import batch_distances, count_solutions, random_boards

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .store import ByteTable


class DistanceTable:
    """Exact distances to one target, from a proved table file (boards with another
    number of black knights than the target never reach it: distance ``None``); the
    file's fields (``target``, ``black_count``, ``state_count``, ``max_distance``,
    ``example()``) read as its own."""

    def __init__(self, file: ByteTable) -> None:
        self.file = file

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)

    def __repr__(self) -> str:
        """One line: the target, the boards and the farthest distance, and the file."""
        target, boards = "/".join(self.target.rows()), self.file.state_count
        return (f"<DistanceTable of {target}: {boards:,} boards, farthest "
                f"{self.max_distance} moves, {self.file.path}>")  # fmt: skip

    @property
    def layers(self) -> list[int]:
        """``layers[d]``: how many boards are exactly ``d`` moves from the target."""
        return list(self.file.layers)

    def walk(self, board: Board, cap: int | None = None) -> tuple[int, list[int], int]:
        """:meth:`~.store.TableFile.walk_plain` of ``board``."""
        return self.file.walk_plain(board.black, board.blank, cap)

    def distance(self, board: Board) -> int | None:
        """The exact fewest moves from ``board`` to the target; ``None`` if unreachable."""
        d = probe.distances(self.file, [board.key], self.max_distance)[0]
        return None if d < 0 else d

    def path(self, board: Board) -> list[Board] | None:
        """One optimal path from ``board`` to the target (``board`` first), or ``None``."""
        steps, blanks, _ = self.walk(board)
        return None if steps < 0 else list(accumulate(blanks[1:], Board.play, initial=board))

    def hints(self, board: Board) -> list[Hint]:
        """Every legal move of ``board``: the board it makes, its distance, whether optimal."""
        return Hint.every(board, self.distance)

    def distances(self, boards: np.ndarray | list[Board], limit: int | None = None) -> np.ndarray:
        """Exact distances of many boards (:class:`Board` objects or an ``int64`` array of
        keys) as an ``int64`` array, ``-1`` where a board cannot reach the target or is
        more than ``limit`` moves away; on parallel threads."""
        if isinstance(boards, np.ndarray):
            if boards.ndim != 1 or boards.dtype.kind not in "iu":
                raise BitknightsError(
                    "distances() takes Board objects or a 1-D integer array of board keys, "
                    f"got a {boards.ndim}-D {boards.dtype} array"
                )
            keys = np.ascontiguousarray(boards, dtype=np.int64)
        else:
            keys = np.array([b.key for b in boards], dtype=np.int64)
        cap = self.file.limit(limit)
        out = np.empty(keys.shape[0], dtype=np.int64)
        batch_distances(self.file, keys, cap, 1 << 16, out)
        return out

    def count_solutions(self, board: Board) -> int:
        """:func:`.compact.count_solutions` (one count for both tables)."""
        return count_solutions(self.file, board)

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """:func:`.compact.random_boards` (one draw for both tables)."""
        return random_boards(self.file, distance, count, seed)


__all__ = ["DistanceTable", "Hint"]


table_of = lru_cache(maxsize=1)(DistanceTable)
"""The :class:`DistanceTable` of a loaded file (the last one made is kept)."""
