"""A game of the knights puzzle (``bitknights play``, the widget): undo, redo, hints and
the optimal rest, on exact distances from the distance service.  Every operation either
does what it says or raises :class:`GameError` and leaves the game as it was.

>>> from bitknights import TARGET, Board
>>> g = Game(TARGET.play(TARGET.moves()[0].from_square))
>>> g.distance, g.solved
(1, False)
>>> best = [h.move for h in g.hints() if h.optimal]
>>> g.move(best[0]) == best[0], g.distance, g.solved
(True, 0, True)
>>> g.undo() == best[0], g.distance
(True, 1)
"""

from __future__ import annotations

import random

from .board import TARGET, Board, Move, as_board, never_reaches
from .errors import BitknightsError, BoardError, plural
from .solution import Hint, moves_along

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator

    from .service import DistanceService

DEFAULT_DISTANCE = 8
"""The distance of a fresh board when none is asked for."""

SEARCH_NEW_LIMIT = 24
"""The farthest :meth:`Game.new` climbs; farther boards are drawn from the distance table."""


class GameError(BitknightsError):
    """A game operation was refused; the game is unchanged."""


class Game:
    """One game from ``board`` (default: a fresh board ``distance`` moves from ``target``,
    see :meth:`new`); ``answers`` supplies the distances (default: the process's
    :func:`~bitknights.service.service` for ``target`` and ``cache_dir``)."""

    def __init__(
        self,
        board: Board | str | None = None,
        *,
        target: Board | str = TARGET,
        distance: int | None = None,
        seed: int | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        answers: DistanceService | None = None,
    ) -> None:
        from .service import answering

        self.target = target = as_board(target)
        self.answers = answering(target, cache_dir, answers, GameError)
        self._rng = random.Random(seed)
        if board is None:
            board = self._fresh(distance)
        elif distance is not None:
            raise GameError("give a board or a distance, not both")
        self._begin(as_board(board))

    def _begin(self, start: Board) -> None:
        self.start = start
        self._boards = [start]  # the boards from the start to the board now
        self._redo: list[Move] = []

    def __repr__(self) -> str:
        """One line: the board now, the moves made and how many can be redone.

        >>> g = Game('1011*/01011/10111/01001/00000')
        >>> g.move('c4-e5')
        Move('c4-e5')
        >>> g
        <Game 10110/01*11/10111/01001/00000 after 1 move (c4-e5), 0 to redo>
        """
        history = self.history
        made = len(history)
        shown = " ".join(map(str, history[-6:]))
        more = "... " if made > 6 else ""
        moves = plural(made, "move") + (f" ({more}{shown})" if made else "")
        return f"<Game {'/'.join(self.board.rows())} after {moves}, {len(self._redo)} to redo>"

    @property
    def board(self) -> Board:
        """The board now."""
        return self._boards[-1]

    @property
    def history(self) -> list[Move]:
        """The moves made from :attr:`start` to :attr:`board`, first first."""
        return moves_along(self._boards)

    @property
    def redo_moves(self) -> list[Move]:
        """The moves :meth:`redo` would replay, next first."""
        return self._redo[::-1]

    @property
    def distance(self) -> int | None:
        """The exact distance of the board now (``None``: out of reach)."""
        return self.answers.distance(self.board)

    @property
    def optimum(self) -> int | None:
        """The exact distance of :attr:`start`."""
        return self.answers.distance(self.start)

    @property
    def solved(self) -> bool:
        """Whether the board now is the target."""
        return self.board == self.target

    def hints(self) -> list[Hint]:
        """Every legal move with the distance it leads to."""
        return self.answers.hints(self.board)

    def solution(self) -> list[Move]:
        """One optimal rest from the board now (:class:`GameError` when out of reach)."""
        path = self.answers.path(self.board)
        if path is None:
            why = never_reaches(self.board, self.target) or "never reaches the target"
            raise GameError(f"this board {why}")
        return moves_along(path)

    def move(self, move: Move | str | int) -> Move:
        """Jump a knight into the blank (as :meth:`Board.play` takes it); returns the move
        made and clears the moves to redo."""
        try:
            child = self.board.play(move)
        except BoardError as e:
            raise GameError(str(e)) from None
        made = Move(child.blank, self.board.blank)
        self._boards.append(child)
        self._redo.clear()
        return made

    def undo(self) -> Move:
        """Take back the last move; returns it."""
        if len(self._boards) == 1:
            raise GameError("nothing to undo")
        child = self._boards.pop()
        self._redo.append(Move(child.blank, self.board.blank))
        return self._redo[-1]

    def redo(self) -> Move:
        """Play again the last move taken back; returns it."""
        if not self._redo:
            raise GameError("nothing to redo")
        rest = self._redo[:-1]
        made = self.move(self._redo[-1])
        self._redo = rest
        return made

    def solve_step(self) -> Move:
        """Play one optimal move; returns it."""
        if self.solved:
            raise GameError("the board is already the target")
        return self.move(self.solution()[0])

    def new(self, distance: int | None = None, *, seed: int | None = None) -> Board:
        """Start again on a fresh board exactly ``distance`` moves from the target (default
        :data:`DEFAULT_DISTANCE`); ``seed`` restarts the random choices.  Up to
        :data:`SEARCH_NEW_LIMIT` moves it is climbed to from the target (the same seed, the
        same board, table or not); farther ones are drawn from the table."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._begin(self._fresh(distance))
        return self.start

    def reset(self) -> None:
        """Back to the start board; the moves made and undone are forgotten."""
        self._begin(self.start)

    def _fresh(self, distance: int | None) -> Board:
        distance = DEFAULT_DISTANCE if distance is None else distance
        if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
            raise GameError(f"a distance is a non-negative integer, got {distance!r}")
        farthest = self.answers.farthest
        if farthest is not None and distance > farthest:
            raise GameError(f"no board is {distance} moves from the target (farthest {farthest})")
        if distance <= SEARCH_NEW_LIMIT:
            board = self._climb(distance)
            if board is not None:
                return board
        if farthest is None:
            raise GameError(
                f"without a distance table new boards go up to {SEARCH_NEW_LIMIT} moves; "
                "`bitknights table build` makes one"
            )
        return self.answers.random_boards(distance, 1, self._rng.randrange(1 << 32))[0]

    def _climb(self, distance: int) -> Board | None:
        """A board exactly ``distance`` moves away by a climb from the target, each step to
        a random farther neighbour, stepping back from dead ends (``None``: none)."""
        rng, dist = self._rng, self.answers.distance

        def shuffled(board: Board) -> Iterator[Board]:
            children = [child for _, child in board.children()]
            rng.shuffle(children)
            return iter(children)

        climb = [(self.target, shuffled(self.target))]
        while climb:
            board, untried = climb[-1]
            if len(climb) > distance:
                return board
            farther = next((c for c in untried if dist(c) == len(climb)), None)
            if farther is None:
                climb.pop()
            else:
                climb.append((farther, shuffled(farther)))
        return None


def parse_moves(moves: str | Iterable[Move | str | int]) -> list[Move | str | int]:
    """A move list: an iterable, or one string separated by white space or commas."""
    if isinstance(moves, str):
        return list(moves.replace(",", " ").split())
    return list(moves)


__all__ = ["DEFAULT_DISTANCE", "Game", "GameError", "Hint", "parse_moves"]
