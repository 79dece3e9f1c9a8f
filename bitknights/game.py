"""A game of the knights puzzle: a board to play on, with undo, redo, hints and the
optimal rest, on exact distances.

:class:`Game` is what ``bitknights play`` and the notebook widget (:func:`bitknights.play`)
drive.  Every operation either does what it says or raises :class:`GameError` (a
``ValueError``) and leaves the game exactly as it was.

>>> from bitknights import TARGET, Board
>>> g = Game(TARGET.play(TARGET.moves()[0].from_square))
>>> g.distance, g.solved
(1, False)
>>> best = [h.move for h in g.hints() if h.optimal]
>>> g.move(best[0]) == best[0], g.distance, g.solved
(True, 0, True)
>>> g.undo() == best[0], g.distance
(True, 1)

Distances come from a :class:`DistanceOracle`: the distance table of the target when a
valid one is in the cache directory (``bitknights table build``), otherwise exact search
(IDA*, no depth limit), which answers the distances a person plays in a moment each.
Importing this module imports neither numba nor numpy.
"""

from __future__ import annotations

import random

from .board import TARGET, Board, Move, as_board
from .errors import BitknightsError, BoardError
from .solution import Hint

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

DEFAULT_DISTANCE = 8
"""The distance of a fresh board when none is asked for: a handful of minutes' thought."""

SEARCH_NEW_LIMIT = 24
"""The farthest :meth:`Game.new` goes without a distance table: climbing walks reach
farther boards less and less often, and exact search of them grows slow."""

_RESTARTS = 50  # climbing walks tried before new() gives up on them


class GameError(BitknightsError):
    """A game operation was refused (illegal move, nothing to undo, ...); the game is
    unchanged."""


class DistanceOracle:
    """Exact distances to one target, from the best source at hand.

    ``source`` is ``'table'`` when a valid distance table of ``target`` is in
    ``cache_dir`` (one byte read a board), else ``'search'``: IDA* without a depth limit,
    each answer and its optimal path remembered (a path's boards all get their distances
    from one search).  ``source='search'`` forces search even when a table is there.
    """

    def __init__(
        self,
        target: Board | str = TARGET,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        source: str | None = None,
    ) -> None:
        self.target = as_board(target)
        if source not in (None, "table", "search"):
            raise BitknightsError(f"unknown distance source {source!r} (table or search)")
        self._file = None
        self._cache_dir = cache_dir
        if source != "search":
            from .table import store

            try:
                self._file = store.load(self.target, cache_dir)
            except store.TableError:
                if source == "table":
                    raise
        self.source = "table" if self._file is not None else "search"
        self._dist: dict[Board, int | None] = {self.target: 0}
        self._next: dict[Board, Board] = {}

    def describe(self) -> str:
        """One line saying where the distances come from."""
        if self.source == "table":
            return "distances from the distance table"
        return (
            "no distance table for this target: distances from exact search (IDA*); "
            "`bitknights table build` makes them instant"
        )

    @property
    def farthest(self) -> int | None:
        """The farthest any board is from the target, when the table knows it."""
        return None if self._file is None else self._file.max_distance

    def distance(self, board: Board) -> int | None:
        """The exact fewest moves from ``board`` to the target; ``None`` when it never gets
        there (another number of black knights)."""
        if board not in self._dist:
            self._learn(board)
        return self._dist[board]

    def next_board(self, board: Board) -> Board | None:
        """The board one optimal move on from ``board`` (``None`` at the target or when
        the target cannot be reached)."""
        self.distance(board)  # every board learned with a distance > 0 has a next one
        return self._next.get(board)

    def random_board(self, distance: int, seed: int) -> Board | None:
        """A board drawn uniformly from those exactly ``distance`` moves from the target
        (the table only; ``None`` without one)."""
        if self._file is None:
            return None
        from .table import load_table

        table = load_table(self.target, cache_dir=self._cache_dir)
        return table.random_boards(distance, 1, seed)[0]

    def _learn(self, board: Board) -> None:
        if self._file is not None:
            from .table import probe

            steps, blanks, _ = probe.walk(
                self._file, board.black, board.blank, self._file.max_distance
            )
            boards = [board]
            for sq in blanks[1:]:
                boards.append(boards[-1].play(sq))
        else:
            from .engines import get_engine
            from .engines.options import SolveOptions

            solution = get_engine("ida").solve(board, self.target, SolveOptions(max_depth=None))
            steps = -1 if solution.steps is None else solution.steps
            boards = solution.boards
        if steps < 0:
            self._dist[board] = None
            return
        for i, b in enumerate(boards):
            self._dist[b] = steps - i
            if i + 1 < len(boards):
                self._next[b] = boards[i + 1]


class Game:
    """One game: a start board, the board now, the moves made and the moves undone.

    ``board`` is the start (a :class:`Board` or its text); without it a fresh board
    ``distance`` moves from ``target`` (default :data:`DEFAULT_DISTANCE`; see
    :meth:`new`), drawn with ``seed``.  ``oracle`` supplies the distances (default: a
    :class:`DistanceOracle` for ``target`` in ``cache_dir``).
    """

    def __init__(
        self,
        board: Board | str | None = None,
        *,
        target: Board | str = TARGET,
        distance: int | None = None,
        seed: int | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        oracle: DistanceOracle | None = None,
    ) -> None:
        target = as_board(target)
        if oracle is None:
            oracle = DistanceOracle(target, cache_dir=cache_dir)
        elif oracle.target != target:
            raise GameError("the oracle answers for another target")
        self.oracle = oracle
        self.target = target
        self._rng = random.Random(seed)
        if board is None:
            board = self._fresh(DEFAULT_DISTANCE if distance is None else distance)
        elif distance is not None:
            raise GameError("give a board or a distance, not both")
        self._begin(as_board(board))

    def _begin(self, start: Board) -> None:
        self.start = start
        self._boards = [start]
        self._history: list[Move] = []
        self._redo: list[Move] = []

    # -- state ----------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board now."""
        return self._boards[-1]

    @property
    def history(self) -> list[Move]:
        """The moves made from :attr:`start` to :attr:`board`, first first."""
        return list(self._history)

    @property
    def redo_moves(self) -> list[Move]:
        """The moves :meth:`redo` would replay, next first."""
        return self._redo[::-1]

    @property
    def distance(self) -> int | None:
        """The exact distance of the board now (``None``: the target is out of reach)."""
        return self.oracle.distance(self.board)

    @property
    def optimum(self) -> int | None:
        """The exact distance of :attr:`start`: the fewest moves the game can take."""
        return self.oracle.distance(self.start)

    @property
    def solved(self) -> bool:
        """Whether the board now is the target."""
        return self.board == self.target

    def hints(self) -> list[Hint]:
        """Every legal move with the distance it leads to; optimal ones one step nearer."""
        here = self.distance
        out = []
        for move, child in self.board.children():
            d = self.oracle.distance(child)
            out.append(Hint(move, child, d, here is not None and d is not None and d < here))
        return out

    def solution(self) -> list[Move]:
        """One optimal rest from the board now (empty at the target); raises
        :class:`GameError` when the target cannot be reached."""
        moves, board = [], self.board
        if self.distance is None:
            raise GameError(_unreachable(self.board, self.target))
        while board != self.target:
            nxt = self.oracle.next_board(board)
            assert nxt is not None  # a reachable board has a next one until the target
            moves.append(Move(nxt.blank, board.blank))
            board = nxt
        return moves

    # -- operations -----------------------------------------------------------------------

    def move(self, move: Move | str | int) -> Move:
        """Jump a knight into the blank: ``move`` is the square (name or index) of the
        knight, ``'e5-c4'`` text or a :class:`Move`.  Returns the move made; clears the
        moves :meth:`redo` would replay."""
        try:
            child = self.board.play(move)
        except BoardError as e:
            raise GameError(str(e)) from None
        made = Move(child.blank, self.board.blank)
        self._push(made, child)
        self._redo.clear()
        return made

    def undo(self) -> Move:
        """Take back the last move; returns it."""
        if not self._history:
            raise GameError("nothing to undo")
        made = self._history.pop()
        self._boards.pop()
        self._redo.append(made)
        return made

    def redo(self) -> Move:
        """Play again the last move taken back; returns it."""
        if not self._redo:
            raise GameError("nothing to redo")
        made = self._redo[-1]
        self._push(made, self.board.play(made))
        self._redo.pop()
        return made

    def solve_step(self) -> Move:
        """Play one optimal move; returns it."""
        if self.solved:
            raise GameError("the board is already the target")
        (first, *_) = self.solution()
        return self.move(first)

    def new(self, distance: int | None = None, *, seed: int | None = None) -> Board:
        """Start again on a fresh board exactly ``distance`` moves from the target (default
        :data:`DEFAULT_DISTANCE`); ``seed`` restarts the random choices.

        The board comes from a *climbing walk*: from the target, each step goes to a
        random neighbour one move farther (every neighbour is one nearer or one farther,
        and each is checked by the oracle: exact search without a table), restarting
        when a walk finds no farther neighbour.  Such boards are not uniform over their
        distance; the same seed gives the same board with or without the table.  Walks
        rarely climb past about 26 moves: with a table, a distance they fail to reach is
        drawn uniformly from the table instead (:meth:`DistanceTable.random_boards`, a
        second or two the first time); without one, :data:`SEARCH_NEW_LIMIT` is the
        limit.
        """
        if seed is not None:
            self._rng = random.Random(seed)
        board = self._fresh(DEFAULT_DISTANCE if distance is None else distance)
        self._begin(board)
        return board

    def reset(self) -> None:
        """Back to the start board; the moves made and undone are forgotten."""
        self._begin(self.start)

    # -- helpers --------------------------------------------------------------------------

    def _push(self, made: Move, child: Board) -> None:
        self._history.append(made)
        self._boards.append(child)

    def _fresh(self, distance: int) -> Board:
        if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
            raise GameError(f"a distance is a non-negative integer, got {distance!r}")
        farthest = self.oracle.farthest
        if farthest is not None and distance > farthest:
            raise GameError(f"no board is {distance} moves from the target (farthest {farthest})")
        if farthest is None and distance > SEARCH_NEW_LIMIT:
            raise GameError(
                f"without a distance table new boards go up to {SEARCH_NEW_LIMIT} moves; "
                "`bitknights table build` makes one"
            )
        board = self._climb(distance)
        if board is None and self.oracle.source == "table":
            board = self.oracle.random_board(distance, self._rng.randrange(1 << 32))
        if board is None:
            raise GameError(f"found no board {distance} moves from the target")
        return board

    def _climb(self, distance: int) -> Board | None:
        rng, dist = self._rng, self.oracle.distance
        for _ in range(_RESTARTS):
            board: Board | None = self.target
            for d in range(distance):
                assert board is not None
                children = [child for _, child in board.children()]
                rng.shuffle(children)
                board = next((c for c in children if dist(c) == d + 1), None)
                if board is None:
                    break
            else:
                return board
        return None


def parse_moves(moves: str | Iterable[Move | str | int]) -> list[Move | str | int]:
    """A move list: an iterable of moves, or one string of moves separated by white space
    or commas (``'e5 d3-e5, b2'``)."""
    if isinstance(moves, str):
        return [m for m in moves.replace(",", " ").split()]
    return list(moves)


def _unreachable(board: Board, target: Board) -> str:
    return (
        f"this board never reaches the target: it has {board.counts[1]} black knights, "
        f"the target {target.counts[1]}"
    )


__all__ = ["DEFAULT_DISTANCE", "DistanceOracle", "Game", "GameError", "Hint", "parse_moves"]
