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

The score, for puzzle data sets: ``1.0`` for an optimal solution, ``optimum / length``
for a longer one, ``0.0`` for anything else (an illegal move, a list that stops short of
the target, a board that never reaches it); exact, the optimum from the distance service.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .board import TARGET, Board, Move, as_board
from .errors import BoardError
from .game import parse_moves

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable
    from typing import Any

    from .service import DistanceService


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found.

    ``legal``: every move is legal; otherwise ``illegal_index`` is the 0-based position
    of the first illegal move, ``illegal_move`` its text and ``illegal_reason`` why.
    ``final`` is the board after the legal moves (the 25-character form);
    ``reaches_target``: every move is legal and ``final`` is the target.  ``length`` is
    the number of moves given, ``optimum`` the exact distance of ``board`` (``None`` when
    it never reaches the target) and ``score`` as in the module documentation.
    """

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
            n = self.length
            done = "reach the target" if self.reaches_target else "stop short of the target"
            what = f"{n} legal move{'' if n == 1 else 's'} {done} (optimum {self.optimum})"
        return f"<CheckResult {what}: score {self.score:.3g}>"

    def as_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dictionary (the fields, plus ``optimal``)."""
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

    A move is the square of the knight that jumps (name or index), ``'e5-c4'`` text or a
    :class:`Move`; ``moves`` may be one string of them separated by white space or commas.
    Moves that are not moves at all count as illegal (they are what is being checked);
    a malformed ``board`` or ``target`` raises :class:`~bitknights.BoardError`.  The optimum
    comes from the distance service ``answers`` (default: the process's
    :func:`~bitknights.service.service` for ``target`` and ``cache_dir``: the distance table
    when there is one, else exact search; confirmed either way).
    """
    from .service import service

    start, goal = as_board(board), as_board(target)
    if answers is None:
        answers = service(goal, cache_dir=cache_dir)
    elif answers.target != goal:
        raise BoardError("the distance service answers for another target")
    given = parse_moves(moves)
    texts = [str(m) for m in given]
    now = start
    bad: tuple[int, str, str] | None = None
    for i, m in enumerate(given):
        try:
            now = now.play(m)
        except BoardError as e:
            bad = (i, texts[i], str(e))
            break
    optimum = answers.distance(start)
    reaches = bad is None and now == goal
    if not reaches or optimum is None:
        score = 0.0
    else:
        score = 1.0 if len(given) == optimum else optimum / len(given)
    return CheckResult(
        board=start.compact,
        target=goal.compact,
        moves=texts,
        legal=bad is None,
        illegal_index=None if bad is None else bad[0],
        illegal_move=None if bad is None else bad[1],
        illegal_reason=None if bad is None else bad[2],
        final=now.compact,
        reaches_target=reaches,
        length=len(given),
        optimum=optimum,
        score=score,
    )


__all__ = ["CheckResult", "check"]
