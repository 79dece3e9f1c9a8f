"""The puzzle as a notebook widget: :func:`play` returns a :class:`PlayWidget`, an
`anywidget <https://anywidget.dev>`_ (the ``notebook`` extra; ``docs/notebook.md``).

Code calls the view's operations as methods; of the traits only ``board`` (a new game),
``new_distance`` and ``show_hints`` may be set.  A bad value raises
:class:`traitlets.TraitError`, a refused method :class:`~bitknights.game.GameError`, and
neither changes anything; a refused request from the page only sets ``message``.  The
output also keeps a static picture of the board, for a notebook reopened without its kernel.
"""

from __future__ import annotations

import html
import uuid
from pathlib import Path

import anywidget
import traitlets

from .board import TARGET, Board, Move
from .errors import BitknightsError, plural
from .game import SEARCH_NEW_LIMIT, Game, GameError
from .squares import square_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

_STATIC = Path(__file__).parent / "static"
SIZE = 360  # the board picture's width and height in pixels
OPS = ("move", "undo", "redo", "hints", "solve", "stop", "new", "reset")  # the page's requests
_PAGE_WRITABLE = ("show_hints", "new_distance")  # traits the page may set through the model


def _short(value: object, limit: int = 24) -> str:
    """``repr(value)``, cut to ``limit`` characters (a huge number in short form)."""
    if isinstance(value, float) and abs(value) >= 1e7:
        text = f"{value:.3g}"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**7:
        text = f"{'-' if value < 0 else ''}~1e+{round((abs(value).bit_length() - 1) * 0.30103)}"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def whole_number(value: object, lo: int, hi: int, what: str) -> int:
    """``value`` (an int, an integral float or its text) as an int in ``lo..hi``, else
    :class:`GameError` naming ``what``.

    >>> whole_number(" 12 ", 0, 24, "a distance"), whole_number(3.0, 0, 24, "a distance")
    (12, 3)
    >>> whole_number("2.5", 0, 24, "a distance")
    Traceback (most recent call last):
    ...
    bitknights.game.GameError: a distance is a whole number from 0 to 24, got '2.5'
    """
    text = value.strip() if isinstance(value, str) else ""
    n: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, float) and value.is_integer():  # not inf, not nan
        n = int(value)
    elif text.isascii() and text.isdigit() and len(text) <= 6:
        n = int(text)
    if n is None or not lo <= n <= hi:
        if isinstance(value, str) and not text:
            raise GameError(f"type {what} first (a whole number from {lo} to {hi})")
        got = _short(n if isinstance(value, str) and n is not None else value)
        raise GameError(f"{what} is a whole number from {lo} to {hi}, got {got}")
    return n


def _synced(trait: Any, *args: Any, **kwargs: Any) -> Any:  # a trait the page sees too
    return trait(*args, **kwargs).tag(sync=True)


def _shown(trait: Any, *args: Any, **kwargs: Any) -> Any:  # one the page sees, read-only
    return _synced(trait, *args, read_only=True, **kwargs)


class PlayWidget(anywidget.AnyWidget):
    """A game of the knights puzzle, played by clicking knights or from code."""

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    # fmt: off
    board = _synced(traitlets.Unicode, help="the board now, 25 characters (set it to start again)")
    new_distance = _synced(traitlets.Int, 8, help="the distance of the next new board")
    show_hints = _synced(traitlets.Bool, False, help="badges with each move's distance")

    start = _shown(traitlets.Unicode, help="the start board")
    target = _shown(traitlets.Unicode, help="the target board")
    distance = _shown(traitlets.Int, None, allow_none=True, help="the board's exact distance")
    optimum = _shown(traitlets.Int, None, allow_none=True, help="the start's exact distance")
    history = _shown(traitlets.List, traitlets.Unicode(), help="the moves made")
    redo_moves = _shown(traitlets.List, traitlets.Unicode(), help="what redo replays, next first")
    legal = _shown(traitlets.List, traitlets.Unicode(), help="squares of knights that may jump")
    hints = _shown(traitlets.List, traitlets.Dict(), help="each legal move and its distance")
    solved = _shown(traitlets.Bool, False, help="the game is won")
    message = _shown(traitlets.Unicode, "", help="why the last request was refused")
    busy = _shown(traitlets.Unicode, "", help="what the widget is working on")
    source = _shown(traitlets.Unicode, "", help="'table' or 'search': where distances come from")
    farthest = _shown(traitlets.Int, SEARCH_NEW_LIMIT,
                      help="the farthest distance a new board may have")
    svg = _shown(traitlets.Unicode, "", help="the board picture")
    fallback_id = _shown(traitlets.Unicode, help="the id of the static picture the live view hides")
    # fmt: on

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._game = game
        self._displayed = False
        self._solve_path: tuple[int, list[Board]] | None = None  # history length, boards
        with self.hold_sync():
            self.set_trait("source", game.answers.source)
            self.set_trait("farthest", game.answers.farthest or SEARCH_NEW_LIMIT)
            self.set_trait("fallback_id", "bk-" + uuid.uuid4().hex)
            self._sync()
        self.on_msg(self._on_msg)

    def __repr__(self) -> str:
        return f"<PlayWidget: {self._game!r}>"

    @property
    def game(self) -> Game:
        """The :class:`~bitknights.game.Game` behind the widget."""
        return self._game

    # -- operations (the buttons call the same) --------------------------------------------

    def move(self, move: Move | str | int) -> Move:
        """Jump the knight on ``move``'s square (or ``'e1-c2'``) into the blank."""

        def op() -> Move:
            if self._game.solved:
                raise GameError("the puzzle is solved: Undo, Reset or a New board to play on")
            if self._names_the_blank(move):
                raise GameError(
                    f"{square_name(self._game.board.blank)} is the blank: click a glowing "
                    "knight, a knight's jump away, to move it there"
                )
            return self._game.move(move)

        return self._do(op, "moving")

    def _names_the_blank(self, move: Move | str | int) -> bool:
        board = self._game.board
        try:
            return board._move_source(move) == board.blank
        except BitknightsError:
            return False

    def undo(self) -> Move:
        """Take back the last move."""
        return self._do(self._game.undo, "taking back a move")

    def redo(self) -> Move:
        """Play again the last move taken back."""
        return self._do(self._game.redo, "playing the move again")

    def hint(self) -> list[dict[str, Any]]:
        """Show the hint badges and return the hints (as in :attr:`hints`)."""
        self.show_hints = True
        return list(self.hints)

    def solve(self) -> list[Move]:
        """Play out an optimal rest; the view animates it (a click or Escape stops it)."""

        def op() -> list[Move]:
            base, boards = len(self._game.history), [self._game.board]
            moves = self._game.solution()
            for m in moves:
                self._game.move(m)
                boards.append(self._game.board)
            frames = [self._picture(b, m, hints=False) for b, m in zip(boards[1:], moves)]
            if moves:
                self._solve_path = (base, boards)
                self.send(
                    {
                        "type": "animate",
                        "frames": frames,
                        "boards": [b.compact for b in boards],
                        "before": [str(m) for m in self._game.history[:base]],
                        "moves": [str(m) for m in moves],
                        "seconds_per_move": 0.4,
                    }
                )
            return moves

        return self._do(op, "finding an optimal rest", keep_animation=True)

    def new(self, distance: int | None = None) -> Board:
        """A fresh board ``distance`` moves from the target (default :attr:`new_distance`,
        which then becomes ``distance``)."""
        d = self.new_distance if distance is None else distance
        if isinstance(d, bool) or not isinstance(d, int):
            raise GameError(f"a distance is a whole number, got {_short(d)}")
        self._new_distance(d)
        board = self._do(lambda: self._game.new(d), f"dealing a board {d} moves from the target")
        self.new_distance = d
        return board

    def reset(self) -> None:
        """Back to the start board."""
        self._do(self._game.reset, "going back to the start")

    # -- validation ------------------------------------------------------------------------

    def _new_distance(self, value: object, what: str = "a new board's distance") -> int:
        try:
            return whole_number(value, 0, self.farthest, what)
        except GameError as e:
            if self.source == "table":
                raise
            raise GameError(f"{e} (without a distance table: `bitknights table build`)") from None

    @traitlets.validate("new_distance")
    def _valid_new_distance(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        try:
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameError(f"a whole number, got {_short(value)}")
            return self._new_distance(value)
        except GameError as e:
            raise traitlets.TraitError(f"new_distance: {e}") from None

    @traitlets.validate("board")
    def _valid_board(self, proposal: dict[str, Any]) -> str:
        try:
            return Board(proposal["value"]).compact
        except BitknightsError as e:
            raise traitlets.TraitError(f"board: {e}") from None

    @traitlets.observe("board")
    def _board_set(self, change: dict[str, Any]) -> None:
        if change["new"] != self._game.board.compact:
            board = Board(change["new"])
            self._do(lambda: self._game._begin(board), "starting on that board")

    @traitlets.observe("show_hints")
    def _hints_toggled(self, _change: dict[str, Any]) -> None:
        self._do(lambda: None, "working out each move's distance", keep_animation=True)

    def set_state(self, sync_data: Any) -> None:
        """State from the page: ``show_hints`` and ``new_distance``, validated; anything else
        is refused on the message line and the page is set right."""
        if not isinstance(sync_data, dict):
            self.set_trait(
                "message", f"the page sent a state that is not a dict: {_short(sync_data)}"
            )
            return
        refused, forbidden = [], []
        for name, value in sync_data.items():
            if name not in _PAGE_WRITABLE:
                ok = isinstance(name, str) and name.isidentifier() and len(name) < 24
                forbidden.append(name if ok else _short(name, 16))
                continue
            try:
                setattr(self, name, value)
            except traitlets.TraitError as e:
                refused.append(str(e))
        if forbidden:
            refused.insert(0, f"the page may not change {', '.join(forbidden)}")
        if refused:
            self.set_trait("message", "; ".join(refused))
        # the page's copy of every key it sent, set to the widget's own value
        self.send_state([k for k in sync_data if isinstance(k, str) and k in self.keys])

    # -- requests from the page ------------------------------------------------------------

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A request from the page: a refusal or a failure only sets :attr:`message`; one
        with an ``id`` is answered ``done``."""
        ident = content.get("id") if isinstance(content, dict) else None
        try:
            self._answer(content)
        except (BitknightsError, traitlets.TraitError) as e:
            self.set_trait("message", str(e))
        except Exception as e:  # noqa: BLE001 - the page gets a message, never a traceback
            self.set_trait("message", f"could not do that: {type(e).__name__}: {str(e)[:80]}")
        finally:
            if self.busy:
                self.set_trait("busy", "")
            if isinstance(ident, int) and not isinstance(ident, bool):
                self.send({"type": "done", "id": ident})

    def _answer(self, content: Any) -> None:
        if not isinstance(content, dict):
            raise GameError(f"a request from the page is a dict, got {_short(content)}")
        op = content.get("op")
        if op not in OPS:
            raise GameError(f"unknown request {_short(op)} (one of {', '.join(OPS)})")
        shown = content.get("board")
        if shown is not None and not isinstance(shown, str):
            raise GameError(f"the board shown is text, got {_short(shown)}")
        if op == "stop":
            self._stop_at(shown)
            return
        if shown is not None and shown != self._game.board.compact:
            raise GameError("the board changed before this request arrived: nothing done")
        if op == "move":
            square = content.get("square")
            if not isinstance(square, str):
                raise GameError(f"a move names a knight's square, got {_short(square)}")
            self.move(square)
        elif op == "new":
            self.new(self._new_distance(content.get("distance"), "a distance"))
        elif op == "hints":
            show = content.get("show", not self.show_hints)
            if not isinstance(show, bool):
                raise GameError(f"show is true or false, got {_short(show)}")
            self.show_hints = show
        else:
            getattr(self, op)()

    def _stop_at(self, shown: str | None) -> None:
        """The page stopped the solve animation on ``shown``: take the game back there (the
        rest to redo), if the game still stands where that solve left it."""
        if self._solve_path is None or shown is None:
            return
        base, boards = self._solve_path
        g = self._game
        compact = [b.compact for b in boards]
        at = compact.index(shown) if shown in compact else None
        if at is None or g.board != boards[-1] or len(g.history) != base + len(boards) - 1:
            return
        for _ in range(len(boards) - 1 - at):
            g.undo()
        self._solve_path = None
        self.set_trait("message", "")
        self._sync()

    # -- plumbing ---------------------------------------------------------------------------

    def _do(self, op: Callable[[], T], doing: str, *, keep_animation: bool = False) -> T:
        """Run ``op`` with :attr:`busy` saying ``doing``; then the state follows the game."""
        self.set_trait("busy", doing + "\u2026")
        try:
            result = op()
            if not keep_animation:  # the game moved on from where the last solve left it
                self._solve_path = None
            self.set_trait("message", "")
            self._sync()
            return result
        finally:
            self.set_trait("busy", "")

    def _picture(self, board: Board, move: Move | None, *, hints: bool) -> str:
        from .render import board_svg

        shown = self._game.hints() if hints and board == self._game.board else ()
        return str(board_svg(board, move=move, hints=shown, size=SIZE))

    def _sync(self) -> None:
        g = self._game
        last = g.history[-1] if g.history else None
        playing = not g.solved
        hints = g.hints() if self.show_hints and playing else []
        state = {
            "board": g.board.compact,
            "start": g.start.compact,
            "target": g.target.compact,
            "distance": g.distance,
            "optimum": g.optimum,
            "history": [str(m) for m in g.history],
            "redo_moves": [str(m) for m in g.redo_moves],
            "legal": [square_name(m.from_square) for m in g.board.moves()] if playing else [],
            "hints": [
                {
                    "move": str(h.move),
                    "square": square_name(h.move.from_square),
                    "distance": h.distance,
                    "optimal": h.optimal,
                }
                for h in hints
            ],  # fmt: skip
            "solved": g.solved,
            "svg": self._picture(g.board, last, hints=bool(hints)),
        }
        with self.hold_sync():
            for name, value in state.items():
                self.set_trait(name, value)
        if self._displayed:
            from IPython.display import update_display

            update_display(self._fallback(), raw=True, display_id=self.fallback_id)

    # -- display ----------------------------------------------------------------------------

    def _fallback(self) -> dict[str, str]:
        """The static picture of the board and a status line, for when the live view cannot
        be shown: in a ``<div>`` the live view hides (by :attr:`fallback_id`), whose style
        hides JupyterLab's "Error displaying widget" in the output just before it."""
        d = self.distance
        status = "never reaches the target" if d is None else f"distance {d}"
        if self.solved:
            status = f"solved in {len(self.history)} moves (the optimum is {self.optimum})"
        elif self.history:
            status += f" after {plural(len(self.history), 'move')}"
        status += " (a picture: run the cell to play)"
        svg = self._picture(self._game.board, None, hints=False)
        key = html.escape(self.fallback_id)
        hide = (
            ".jp-OutputArea-child:has(> .jupyter-widgets):not(:has(.bitknights-play))"
            f':has(+ .jp-OutputArea-child [data-bk-fallback="{key}"]) {{ display: none; }}'
        )
        return {
            "text/html": f'<div class="bitknights-fallback" data-bk-fallback="{key}">'
            f'<style>{hide}</style>{svg}<div class="bk-fallback-status">'
            f"{html.escape(status)}</div></div>"
        }

    def _ipython_display_(self) -> None:
        """The live view, then the static picture in an output of its own."""
        from IPython.display import display

        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        display(data, metadata=metadata, raw=True)
        display(self._fallback(), raw=True, display_id=self.fallback_id)
        self._displayed = True


def play(
    board: Board | str | None = None,
    *,
    target: Board | str = TARGET,
    distance: int | None = None,
    seed: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> PlayWidget:
    """A widget to play ``board`` (the arguments are :class:`~bitknights.game.Game`'s)."""
    return PlayWidget(Game(board, target=target, distance=distance, seed=seed, cache_dir=cache_dir))


__all__ = ["OPS", "SIZE", "GameError", "PlayWidget", "play", "whole_number"]
