"""Check a proposed solution: replay a move list from a board and score it.

>>> from bitknights import TARGET, Move
>>> m = TARGET.moves()[0]
>>> start = TARGET.play(m)
>>> back = Move(TARGET.blank, start.blank)
>>> r = check(start, [back])
>>> r.legal, r.reaches_target, r.length, r.optimum, r.score
(True, True, 1, 1, 1.0)
>>> r = check(start, f'{back} {m} {back}')
>>> r.reaches_target, r.length, r.score
(True, 3, 0.3333333333333333)
>>> check(start, []).score
0.0

The score: ``1.0`` for an optimal solution, ``optimum / length`` for a longer one, ``0.0``
for anything else.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .board import TARGET, Board, Move, as_board
from .errors import BoardError, plural
from .game import parse_moves

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable
    from typing import Any

    from .service import DistanceService


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found: ``illegal_index`` (0-based), ``illegal_move`` and
    ``illegal_reason`` of the first illegal move; ``final``, the board after the legal
    moves; ``optimum``, the exact distance of ``board`` (``None``: never)."""

    board: str
    target: str
    moves: list[str]
    legal: bool
    illegal_index: int | None
    illegal_move: str | None
    illegal_reason: str | None
    final: str
    reaches_target: bool
    length: int
    optimum: int | None
    score: float

    @property
    def optimal(self) -> bool:
        """The moves are an optimal solution."""
        return self.score == 1.0

    def __repr__(self) -> str:
        """One line: what the moves did and the score (three significant digits).

        >>> check("10110/01*11/10111/01001/00000", "e5 a5")
        <CheckResult illegal move 2 (a5): score 0>
        """
        if not self.legal:
            what = f"illegal move {(self.illegal_index or 0) + 1} ({self.illegal_move})"
        elif self.optimum is None:
            what = "legal; the board never reaches the target"
        else:
            done = "reach the target" if self.reaches_target else "stop short of the target"
            what = f"{plural(self.length, 'legal move')} {done} (optimum {self.optimum})"
        return f"<CheckResult {what}: score {self.score:.3g}>"

    def as_dict(self) -> dict[str, Any]:
        """The fields and ``optimal`` as a JSON-ready dictionary."""
        return {**asdict(self), "optimal": self.optimal}


def check(
    board: Board | str,
    moves: str | Iterable[Move | str | int],
    target: Board | str = TARGET,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    answers: DistanceService | None = None,
) -> CheckResult:
    """Replay ``moves`` from ``board`` and score them as a solution reaching ``target``.

    ``moves``: as :meth:`Board.play` takes them, or one string separated by white space or
    commas; moves that are not moves count as illegal.  The optimum comes from ``answers``
    (default: the process's :func:`~bitknights.service.service`).
    """
    from .service import answering

    start, goal = as_board(board), as_board(target)
    answers = answering(goal, cache_dir, answers, BoardError)
    given = parse_moves(moves)
    texts = [str(m) for m in given]
    now = start
    bad: tuple[int | None, str | None, str | None] = (None, None, None)
    for i, m in enumerate(given):
        try:
            now = now.play(m)
        except BoardError as e:
            bad = (i, texts[i], str(e))
            break
    optimum, legal, n = answers.distance(start), bad[0] is None, len(given)
    reaches = legal and now == goal
    score = 0.0 if not reaches or optimum is None else 1.0 if n == optimum else optimum / n
    return CheckResult(
        start.compact, goal.compact, texts, legal, *bad, now.compact, reaches, n, optimum, score
    )


__all__ = ["CheckResult", "check"]
