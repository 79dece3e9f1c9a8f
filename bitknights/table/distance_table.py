"""Exact answers from a loaded, proved distance table (:mod:`bitknights.table.store`):
single boards in plain Python (:mod:`.probe`), batches, counting and random boards in
numba kernels."""

from __future__ import annotations

from itertools import accumulate

import numpy as np

from .. import progress
from ..board import Board
from ..errors import BitknightsError
from ..solution import Hint
from . import probe
from .compact import batch_distances, boards_of, check_draw, draw_ranks, path_graph

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from .store import TableFile

_PIECE = 1 << 16  # boards made between two updates of the progress bar
_last: DistanceTable | None = None


class DistanceTable:
    """Exact distances to one target, from a proved table file (boards with another
    number of black knights than the target never reach it: distance ``None``); the
    file's fields (``target``, ``black_count``, ``state_count``, ``max_distance``,
    ``example()``) read as its own."""

    def __init__(self, file: TableFile) -> None:
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
        """:func:`.probe.walk`: ``(steps, blank squares along one optimal path, probes)``."""
        limit = self.max_distance if cap is None else min(int(cap), self.max_distance)
        return probe.walk(self.file, board.black, board.blank, limit)

    def distance(self, board: Board) -> int | None:
        """The exact fewest moves from ``board`` to the target; ``None`` if unreachable."""
        d = probe.distances(self.file, [board.key], self.max_distance)[0]
        return None if d < 0 else d

    def path(self, board: Board) -> list[Board] | None:
        """One optimal path from ``board`` to the target (``board`` first), or ``None``."""
        steps, blanks, _ = self.walk(board)
        return None if steps < 0 else list(accumulate(blanks[1:], Board.play, initial=board))

    def hints(self, board: Board) -> list[Hint]:
        """Every legal move of ``board`` with the board it makes and that board's distance;
        ``optimal`` marks the moves one step nearer the target."""
        return Hint.every(board, self.distance)

    def count_solutions(self, board: Board) -> int:
        """How many distinct optimal move sequences lead from ``board`` to the target
        (``0`` when it cannot reach it, ``1`` for the target itself)."""
        d = self.distance(board)
        return 0 if d is None else path_graph(self.file, board, d).total

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
        cap = self.max_distance if limit is None else max(0, min(int(limit), self.max_distance))
        out = np.empty(keys.shape[0], dtype=np.int64)
        batch_distances(self.file, keys, cap, 1 << 16, out)
        return out

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves
        from the target, reproducible with ``seed``: common distances by rejection over
        uniform ranks, rare ones (or a large share of a layer) from the whole layer."""
        check_draw(distance, count, seed)
        layers = self.file.layers
        if distance < 0 or distance >= len(layers) or layers[distance] < count:
            have = layers[distance] if 0 <= distance < len(layers) else 0
            raise BitknightsError(
                f"asked for {count} board{'s' if count != 1 else ''} at distance {distance}, "
                f"but only {have} {'board lies' if have == 1 else 'boards lie'} at that distance"
            )
        if count <= 0:
            return []
        rng = np.random.default_rng(seed)
        size = layers[distance]
        boards: list[Board] = []
        with progress.bar(count, "boards", f"drawing boards {distance} moves away",
                          unit_scale=True) as shown:  # fmt: skip
            if size / self.state_count >= 1e-3 and count <= size // 2:
                batch = int(min(1 << 22, max(1 << 12, 2 * count * self.state_count // size)))
                hit = lambda ranks: self.file.payload[ranks] == distance  # noqa: E731
                pieces: Iterable[np.ndarray] = draw_ranks(rng, self.state_count, count, batch, hit)
            else:
                layer = np.flatnonzero(self.file.payload == distance)
                ranks = layer[rng.choice(layer.shape[0], size=count, replace=False)]
                pieces = (ranks[lo : lo + _PIECE] for lo in range(0, count, _PIECE))
            for piece in pieces:
                boards += boards_of(piece, self.black_count)
                shown.update(len(piece))
        return boards


__all__ = ["DistanceTable", "Hint"]


def table_of(file: TableFile) -> DistanceTable:
    """The :class:`DistanceTable` of a loaded ``file`` (the last one made is kept)."""
    global _last
    if _last is None or _last.file is not file:
        _last = DistanceTable(file)
    return _last
