"""What answers are made of: the :class:`Solution` of one board (replayable), and the
:class:`Hint` of one move (the board it makes, that board's distance, whether optimal)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._records import Record
from .board import Board, Move
from .errors import BoardError, plural
from .results import Status

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class Hint(Record):
    """One legal move of a board: the board it makes, that board's exact distance to the
    target (``None``: never) and whether the move is optimal (one step nearer).

    >>> from bitknights import TARGET
    >>> move, child = next(TARGET.children())
    >>> h = Hint(move, child, 1, False)
    >>> str(h.move), h.board, h.distance
    ('b5-c3', Board('1*111/01111/00111/00001/00000'), 1)
    """

    move: Move
    board: Board
    distance: int | None
    optimal: bool

    @staticmethod
    def every(board: Board, distance: Callable[[Board], int | None]) -> list[Hint]:
        """A hint for every legal move of ``board``, the distances from ``distance``."""
        here = distance(board)
        found = [(move, child, distance(child)) for move, child in board.children()]
        return [Hint(m, c, d, here is not None and d is not None and d < here) for m, c, d in found]


@dataclass(frozen=True)
class Solution:
    """What an engine found for one board.

    ``steps``: the exact fewest moves from ``start`` to ``target`` (``None``: none, see
    ``status``, a :class:`~bitknights.results.Status`); ``boards``: one optimal path;
    ``nodes``: the engine's work; ``optimal_solutions``: their count when counted.
    """

    start: Board
    target: Board
    steps: int | None
    boards: list[Board] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    engine: str = ""
    max_depth: int | None = None
    status: Status = Status.SOLVED
    optimal_solutions: int | None = None

    def __post_init__(self) -> None:
        if type(self.status) is not Status:
            object.__setattr__(self, "status", Status(self.status))

    @property
    def moves(self) -> list[Move]:
        """The moves along ``boards``."""
        return moves_along(self.boards)

    @property
    def solved(self) -> bool:
        return self.steps is not None

    def verify(self) -> None:
        """Replay the path; ``BoardError`` unless it leads from ``start`` to ``target`` in
        exactly ``steps`` legal moves."""
        if self.steps is None:
            if self.boards:
                raise BoardError("an unsolved result carries a path")
            return
        if len(self.boards) != self.steps + 1:
            raise BoardError(f"path has {len(self.boards) - 1} moves, steps is {self.steps}")
        if self.boards[0] != self.start or self.boards[-1] != self.target:
            raise BoardError("path does not run from start to target")
        for a, b in zip(self.boards, self.boards[1:]):
            if a.play(b.blank) != b:
                raise BoardError(f"illegal step in path:\n{a}\nto\n{b}")

    def to_dict(self, *, path: bool = False) -> dict[str, Any]:
        """The JSON Lines record (with ``path``: the ``boards`` and ``moves``)."""
        status = self.status.value
        d: dict[str, Any] = {"board": self.start.compact, "steps": self.steps, "status": status}
        if path:
            d.update(boards=[b.compact for b in self.boards], moves=[str(m) for m in self.moves])
        if self.optimal_solutions is not None:
            d["optimal_solutions"] = self.optimal_solutions
        seconds = round(self.seconds, 6)
        return {**d, "nodes": self.nodes, "seconds": seconds, "engine": self.engine}

    def __repr__(self) -> str:
        """One line: the status, the number of moves and the first of them.

        >>> from bitknights import solve
        >>> solve("10110/01*11/10111/01001/00000")
        <Solution solved in 7 moves: e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5>
        >>> solve("01011/110*1/01110/01010/00100")
        <Solution over_limit: more than 15 moves>
        """
        if self.steps is None:
            return f"<Solution {self.status}: {_why_unsolved(self)}>"
        moves = [str(m) for m in self.moves]
        if len(moves) > _REPR_MOVES:
            moves[_REPR_MOVES - 2 :] = [f"\u2026 ({len(moves) - _REPR_MOVES + 2} more)"]
        counted = self.optimal_solutions
        sequences = "" if counted is None else f" ({plural(counted, 'optimal sequence', ',')})"
        listed = ": " + " ".join(moves) if moves else ": the start is the target"
        return f"<Solution solved in {plural(self.steps, 'move')}{sequences}{listed}>"

    def __str__(self) -> str:
        """The long form: every move and the boards along the path; unsolved, why."""
        from .render.text import path_text

        if self.steps is None:
            return f"{self.start}\nno solution: {_why_unsolved(self)}"
        return path_text(self)

    def _repr_html_(self) -> str:
        """The notebook view (:func:`bitknights.render.solution_html`)."""
        from .render import solution_html

        return solution_html(self)


def moves_along(boards: list[Board]) -> list[Move]:
    """The moves along a path of ``boards`` (first to last)."""
    return [Move(b.blank, a.blank) for a, b in zip(boards, boards[1:])]


_REPR_MOVES = 8  # a solution's repr lists up to this many moves


def _why_unsolved(solution: Solution) -> str:
    if solution.status is Status.OVER_LIMIT:
        limit = solution.max_depth
        return "over the move limit" if limit is None else f"more than {limit} moves"
    if solution.status is Status.UNREACHABLE:
        return "never reaches the target (other knight counts)"
    return "no answer in the time given"
