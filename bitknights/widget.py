"""The puzzle as a notebook widget: :func:`play` returns a :class:`PlayWidget`.

The widget is an `anywidget <https://anywidget.dev>`_ (the ``notebook`` extra:
``pip install 'bitknights[notebook]'``), so it works in JupyterLab, Jupyter Notebook and
VS Code.  Its JavaScript (``static/widget.js``) ships inside the package: nothing is
fetched at run time.  The game itself (:class:`~bitknights.game.Game`) and the picture
(:func:`bitknights.render.board_svg`, the same drawing as every other picture) live in
Python; the view shows them, and turns a click on a knight into a move.

The same operations are methods for code, and the state is in traitlets that both sides
see: ``board`` (the 25-character form), ``distance``, ``history`` (square names),
``hints`` (with ``show_hints``), ``message`` (why the last click was refused).  A method
that cannot do what it is asked raises :class:`~bitknights.game.GameError` and changes
nothing; a refused click only sets ``message``.

Where widgets cannot render (a static notebook viewer, a terminal) the output falls back
to the SVG picture of the board.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from .board import TARGET, Board, Move, as_board
from .errors import BitknightsError
from .game import Game, GameError
from .squares import square_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any

_STATIC = Path(__file__).parent / "static"
SIZE = 360
"""The board picture's width and height in pixels."""


class PlayWidget(anywidget.AnyWidget):
    """A game of the knights puzzle, played by clicking knights or from code."""

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    board = traitlets.Unicode(help="the board now, 25 characters").tag(sync=True)
    start = traitlets.Unicode(help="the start board").tag(sync=True)
    target = traitlets.Unicode(help="the target board").tag(sync=True)
    distance = traitlets.Int(None, allow_none=True, help="the board's exact distance").tag(
        sync=True
    )
    optimum = traitlets.Int(None, allow_none=True, help="the start's exact distance").tag(sync=True)
    history = traitlets.List(traitlets.Unicode(), help="the moves made").tag(sync=True)
    redo_moves = traitlets.List(traitlets.Unicode(), help="what redo replays").tag(sync=True)
    legal = traitlets.List(traitlets.Unicode(), help="squares of knights that may jump").tag(
        sync=True
    )
    show_hints = traitlets.Bool(False, help="badges with each move's distance").tag(sync=True)
    hints = traitlets.List(traitlets.Dict(), help="each legal move and its distance").tag(sync=True)
    new_distance = traitlets.Int(8, help="the distance of the next new board").tag(sync=True)
    solved = traitlets.Bool(False).tag(sync=True)
    message = traitlets.Unicode("", help="why the last request was refused").tag(sync=True)
    source = traitlets.Unicode("", help="'table' or 'search': where distances come from").tag(
        sync=True
    )
    svg = traitlets.Unicode("", help="the board picture").tag(sync=True)

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._game = game
        self.source = game.answers.source
        self._sync()
        self.on_msg(self._on_msg)

    @property
    def game(self) -> Game:
        """The :class:`~bitknights.game.Game` behind the widget."""
        return self._game

    # -- operations (the buttons call the same) --------------------------------------------

    def move(self, move: Move | str | int) -> Move:
        """Jump the knight on ``move``'s square (or ``'e1-c2'``) into the blank."""
        return self._do(lambda: self._game.move(move))

    def undo(self) -> Move:
        """Take back the last move."""
        return self._do(self._game.undo)

    def redo(self) -> Move:
        """Play again the last move taken back."""
        return self._do(self._game.redo)

    def hint(self) -> list[dict[str, Any]]:
        """Show the hint badges and return the hints (as in :attr:`hints`)."""
        self.show_hints = True
        return list(self.hints)

    def solve(self) -> list[Move]:
        """Play out an optimal rest; the view animates it move by move."""
        before = self._game.board
        moves = self._game.solution()
        frames = []
        board = before
        for m in moves:
            board = board.play(m)
            frames.append(self._picture(board, m, hints=False))
        for m in moves:
            self._game.move(m)
        self.message = ""
        if frames:
            self.send({"type": "animate", "frames": frames, "seconds_per_move": 0.4})
        self._sync()
        return moves

    def new(self, distance: int | None = None) -> Board:
        """A fresh board ``distance`` moves from the target (default :attr:`new_distance`,
        which then becomes ``distance``)."""
        d = self.new_distance if distance is None else distance
        board = self._do(lambda: self._game.new(d))
        self.new_distance = d
        return board

    def reset(self) -> None:
        """Back to the start board."""
        self._do(self._game.reset)

    # -- plumbing ---------------------------------------------------------------------------

    def _do(self, op: Any) -> Any:
        result = op()
        self.message = ""
        self._sync()
        return result

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """A request from the view; a refusal only sets :attr:`message`."""
        ops = {
            "move": lambda: self.move(str(content.get("square", ""))),
            "undo": self.undo,
            "redo": self.redo,
            "solve": self.solve,
            "new": lambda: self.new(int(content.get("distance", self.new_distance))),
            "reset": self.reset,
        }
        op = ops.get(str(content.get("op")))
        if op is None:
            return
        try:
            op()
        except (BitknightsError, ValueError) as e:
            self.message = str(e)

    @traitlets.observe("show_hints")
    def _hints_toggled(self, _change: dict[str, Any]) -> None:
        self._sync()

    @traitlets.observe("board")
    def _board_set(self, change: dict[str, Any]) -> None:
        """``w.board = '...'`` from code starts a new game on that board."""
        if change["new"] == self._game.board.compact:
            return
        try:
            board = Board(change["new"])
        except BitknightsError:
            self.board = change["old"]
            raise
        self._game._begin(board)
        self._sync()

    def _picture(self, board: Board, move: Move | None, *, hints: bool) -> str:
        from .render import board_svg

        shown = self._game.hints() if hints and board == self._game.board else ()
        return str(board_svg(board, move=move, hints=shown, size=SIZE))

    def _sync(self) -> None:
        g = self._game
        last = g.history[-1] if g.history else None
        hints = g.hints() if self.show_hints else []
        with self.hold_sync():
            self.board = g.board.compact
            self.start = g.start.compact
            self.target = g.target.compact
            self.distance = g.distance
            self.optimum = g.optimum
            self.history = [str(m) for m in g.history]
            self.redo_moves = [str(m) for m in g.redo_moves]
            self.legal = [square_name(m.from_square) for m in g.board.moves()]
            self.hints = [
                {"move": str(h.move), "square": square_name(h.move.from_square),
                 "distance": h.distance, "optimal": h.optimal}
                for h in hints
            ]  # fmt: skip
            self.solved = g.solved
            self.svg = self._picture(g.board, last, hints=self.show_hints)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget view, and the SVG board (with its distance in HTML) for frontends
        that cannot show widgets."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            from .render import board_svg

            svg = str(board_svg(self._game.board, size=SIZE))
            d = self.distance
            caption = "never reaches the target" if d is None else f"distance {d}"
            data.setdefault("image/svg+xml", svg)
            data.setdefault("text/html", f"<div>{svg}<div>{caption}</div></div>")
        return bundle


def play(
    board: Board | str | None = None,
    *,
    target: Board | str = TARGET,
    distance: int | None = None,
    seed: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> PlayWidget:
    """A widget to play ``board`` (default: a fresh board ``distance`` moves from
    ``target``, see :meth:`bitknights.game.Game.new`).  Distances come from the distance
    table in ``cache_dir`` when there is one, else from exact search."""
    target = as_board(target)
    game = Game(board, target=target, distance=distance, seed=seed, cache_dir=cache_dir)
    return PlayWidget(game)


__all__ = ["SIZE", "GameError", "PlayWidget", "play"]
