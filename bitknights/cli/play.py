"""The ``play`` and ``check`` commands: the puzzle as a game in a terminal (or driven by a
script through a pipe), and the checker of a proposed solution."""

from __future__ import annotations

import contextlib
import os
import sys

from .. import progress
from ..batch import read_board
from ..board import Board, Move, never_reaches
from ..cache import CacheError
from ..errors import BitknightsError, InputError
from ..render.text import GLYPHS
from ..squares import SIZE, parse_square, square_name
from .common import (
    OPTIMAL_MARK,
    UsageError,
    add_format_option,
    add_quiet_option,
    add_target_options,
    board_argument,
    json_line,
    non_negative,
    plural,
    read_source,
    read_target,
)
from .lines import CommandLines, interruptible

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator
    from typing import IO

COMMANDS_HELP = """\
commands:
  SQUARE          the knight on SQUARE jumps into the blank (or FROM-TO: e5-c4)
  hint            each legal move and the distance it leads to (> : optimal)
  undo, redo      take back the last move, play again the last move taken back
  solve           play out an optimal rest, move by move
  new [DISTANCE]  a fresh board DISTANCE moves from the target
  reset           back to the start board
  board           show the board again
  target          show the target, the board to reach
  help            this list
  quit, q, exit   leave (so does the end of the input: Ctrl-D)"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``play`` and ``check`` to the command line's subparsers."""
    p = sub.add_parser(
        "play",
        help="play the puzzle in a terminal (or drive it through a pipe)",
        description="Play the puzzle: move knights into the blank by naming their squares, "
        "ask for hints, undo, redo, or watch the optimal rest. Commands are read a line "
        "at a time from standard input (a terminal or a pipe; a script gets the same "
        "lines a person sees). Distances are exact: from the distance table when there "
        "is one, otherwise from exact search. Type 'help' for the commands.",
        epilog=COMMANDS_HELP,
    )
    p.add_argument(
        "board",
        nargs="?",
        metavar="BOARD",
        help="a file with the board (five rows), the 25-character form, or the rows "
        "joined by '/'; default: a fresh board",
    )
    p.add_argument(
        "--distance",
        type=non_negative,
        metavar="D",
        help="the fresh board's distance from the target (default 8)",
    )
    p.add_argument("--seed", type=non_negative, metavar="S", help="the same seed, the same boards")
    p.add_argument("--ascii", action="store_true", help="draw knights as 0 and 1, not ♘ and ♞")
    add_target_options(p)
    add_quiet_option(p)
    p.set_defaults(run=_cmd_play)

    p = sub.add_parser(
        "check",
        help="check a proposed solution: legal moves, target reached, length, score",
        description="Replay MOVES from BOARD and report whether every move is legal (or "
        "the first illegal one and why), whether they reach the target, their number "
        "against the optimum, and a score: 1 for an optimal solution, optimum/length for "
        "a longer one, 0 otherwise. Exit status 0 when the moves solve the board, 1 when "
        "they do not, 2 for bad input.",
    )
    p.add_argument(
        "board",
        metavar="BOARD",
        help="a file with the board (five rows), the 25-character form, or the rows joined by '/'",
    )
    p.add_argument(
        "moves",
        nargs="*",
        metavar="MOVE",
        help="the moves: the square of the knight that jumps, or FROM-TO",
    )
    add_format_option(
        p,
        "a few lines: the moves, whether they are legal and reach the target, their "
        "length against the optimum, the score",
        "one record",
    )
    add_target_options(p)
    add_quiet_option(p)
    p.set_defaults(run=_cmd_check)


def read_board_argument(text: str) -> Board:
    """The board a BOARD argument names: an existing file (five rows or one 25-character
    line), else the board's own text (25 characters, or rows joined by ``/``)."""
    if os.path.exists(text):
        data = read_source(text, "board ")
        lines = [s for line in data.splitlines() if (s := line.strip())]
        try:
            return Board(lines[0]) if len(lines) == 1 else read_board(data)
        except (InputError, BitknightsError) as e:
            raise UsageError(f"board {text}: {e}") from None
    board = board_argument(text, required=True)
    if board is None:  # '-' or empty
        raise UsageError(f"{text!r} is neither a file nor a board")
    return board


# -- play -----------------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    from ..game import Game
    from ..service import service

    target = read_target(args)
    if args.board is not None and args.distance is not None:
        raise UsageError("give a BOARD or --distance, not both")
    start = None if args.board is None else read_board_argument(args.board)
    answers = service(target, cache_dir=args.cache_dir)
    if answers.source != "table" and not args.quiet:
        sys.stderr.write(f"bitknights: {answers.describe()}\n")
    with _dealing(start is None):
        game = Game(start, target=target, answers=answers, distance=args.distance, seed=args.seed)
    if sys.stdin is None:
        raise UsageError("standard input is closed: play reads its commands from it")
    interactive = sys.stdin.isatty() and out.isatty()
    unicode = (
        not args.ascii
        and out.isatty()
        and (getattr(out, "encoding", "") or "").lower().replace("-", "") == "utf8"
    )
    session = Session(game, out, unicode=unicode)
    if interactive:
        out.write("Move a knight into the blank by naming its square; 'help' lists commands.\n")
    session.start()
    with interruptible() as wakeup:
        lines = CommandLines(sys.stdin, 4 * (LINE_LIMIT + 1), wakeup)
        while True:
            if interactive:
                out.write(PROMPT)
                out.flush()
            line = lines.readline()
            if line == "":
                if interactive:  # Ctrl-D: the shell's prompt goes on a line of its own
                    out.write("\n")
                return 0
            if not session.run(line):
                return 0


PROMPT = "play> "
"""What a terminal shows before each command (not ``>``: that marks optimal moves)."""

LINE_LIMIT = 4096
"""The longest command line, in characters; a longer one is refused (and not kept: at most
four bytes a character of it are read into memory)."""


class Session:
    """A game behind text commands: :meth:`run` takes one line and writes the answer."""

    def __init__(self, game, out: IO[str], *, unicode: bool = False) -> None:  # noqa: ANN001
        self.game = game
        self.out = out
        self.unicode = unicode
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "hint": self._hint,
            "undo": self._undo,
            "redo": self._redo,
            "solve": self._solve,
            "new": self._new,
            "reset": self._reset,
            "board": lambda _: self.show(),
            "target": self._target,
            "help": lambda _: self._say(COMMANDS_HELP),
        }

    def run(self, line: str) -> bool:
        """Carry out one command line; ``False`` when it was ``quit``."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return True
        name, rest = words[0].lower(), words[1:]
        if name in ("quit", "exit", "q"):
            return False
        try:
            if len(line.rstrip("\r\n")) > LINE_LIMIT:
                raise BitknightsError(f"a line longer than {LINE_LIMIT:,} characters")
            if name in self._commands:
                self._commands[name](rest)
            elif len(words) == 1 and _looks_like_move(name):
                self._move(self.game.move(name))
            else:
                raise BitknightsError(f"unknown command {_shown(line)}; 'help' lists commands")
        except CacheError:
            raise  # a damaged or forged file: the session ends with the error
        except BitknightsError as e:
            self._say(f"refused: {e}")
        self.out.flush()
        return True

    # -- output --

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")

    def start(self) -> None:
        """What a game opens with: the target, once, then the board."""
        self._target([])
        self._say("your board:")
        self.show()

    def show(self) -> None:
        """The board with its coordinates, then its distance."""
        d = self.game.distance
        if d is None:
            verdict = never_reaches(self.game.board, self.game.target) or "never reaches the target"
        else:
            verdict = f"distance {d}"
        self._say(f"{self._drawn(self.game.board)}\n{verdict}")
        self.out.flush()

    def _drawn(self, board: Board) -> str:
        """``board`` drawn with its coordinates."""
        files = " ".join(square_name(c)[0] for c in range(SIZE))
        lines = [f"   {files}"]
        for r, row in enumerate(board.rows()):
            cells = " ".join(row.translate(GLYPHS) if self.unicode else row)
            lines.append(f"{square_name(r * SIZE)[1:]:>2} {cells}")
        return "\n".join(lines)

    def _move(self, move: Move, note: str = "") -> None:
        self._say(f"move {len(self.game.history)}: {move}{note}")
        self.show()
        if self.game.solved:
            made, best = len(self.game.history), self.game.optimum
            verdict = "optimal" if made == best else f"{made - best} more than the optimum"
            self._say(f"solved in {plural(made, 'move')}; the optimum is {best} ({verdict})")

    # -- commands --

    def _no_args(self, rest: list[str], name: str) -> None:
        if rest:
            raise BitknightsError(f"{name} takes no argument")

    def _hint(self, rest: list[str]) -> None:
        self._no_args(rest, "hint")
        hints = self.game.hints()
        best = sum(h.optimal for h in hints)
        if self.game.solved:
            lines = ["the board is the target: every move leads away"]
        elif self.game.distance is None:
            lines = ["no move helps: this board never reaches the target"]
        else:
            lines = [f"{best} of {plural(len(hints), 'move')} optimal"]
        for h in hints:
            dist = "-" if h.distance is None else str(h.distance)
            lines.append(f"{OPTIMAL_MARK if h.optimal else ' '} {h.move!s:<6} {dist:>3}")
        self._say("\n".join(lines))

    def _target(self, rest: list[str]) -> None:
        self._no_args(rest, "target")
        self._say(f"the target:\n{self._drawn(self.game.target)}")

    def _undo(self, rest: list[str]) -> None:
        self._no_args(rest, "undo")
        self._say(f"undo {self.game.undo()}")
        self.show()

    def _redo(self, rest: list[str]) -> None:
        self._no_args(rest, "redo")
        self._move(self.game.redo(), " (redo)")

    def _solve(self, rest: list[str]) -> None:
        self._no_args(rest, "solve")
        if self.game.solved:
            raise BitknightsError("the board is already the target")
        for move in self.game.solution():
            self._move(self.game.move(move))

    def _new(self, rest: list[str]) -> None:
        if len(rest) > 1 or rest and not (rest[0].isascii() and rest[0].isdigit()):
            raise BitknightsError(
                f"new takes one distance, a non-negative integer, got {_shown(' '.join(rest))}"
            )
        with _dealing():
            self.game.new(int(rest[0]) if rest else None)
        self._say("new board")
        self.show()

    def _reset(self, rest: list[str]) -> None:
        self._no_args(rest, "reset")
        self.game.reset()
        self._say("back to the start")
        self.show()


@contextlib.contextmanager
def _dealing(show: bool = True) -> Iterator[None]:
    """Say on a terminal's standard error that a fresh board is being dealt (far ones are
    drawn from the table, a second or two the first time); the note is erased after."""
    note = show and progress.active()
    if note:
        sys.stderr.write("dealing a fresh board...")
        sys.stderr.flush()
    try:
        yield
    finally:
        if note:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to 40 characters."""
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _looks_like_move(word: str) -> bool:
    return len(word) in (2, 5) and word[0].isalpha() and word[1].isdigit()


# -- check ----------------------------------------------------------------------------------


def _check_move_text(i: int, move: str) -> None:
    """A move is written as a square (``e5``) or ``FROM-TO`` (``e5-c4``); anything else is
    bad input (a usage error), not an illegal move."""
    for name in move.split("-", 1) if "-" in move else [move]:
        try:
            parse_square(name)
        except ValueError:
            raise UsageError(
                f"move {i}: {_shown(move)} is not a move: {_shown(name)} is not a square "
                "(a1 to e5); write a move as the knight's square (e5) or FROM-TO (e5-c4)"
            ) from None


def _cmd_check(args: argparse.Namespace, out: IO[str]) -> int:
    from ..checker import check

    target = read_target(args)
    board = read_board_argument(args.board)
    moves = [m for arg in args.moves for m in arg.replace(",", " ").split()]
    for i, move in enumerate(moves, 1):
        _check_move_text(i, move)
    result = check(board, moves, target, cache_dir=args.cache_dir)
    if args.format == "json":
        out.write(json_line(result.as_dict()))
    else:
        out.write(f"board {'/'.join(board.rows())}\n")
        out.write(f"moves ({result.length}): {' '.join(result.moves) or 'none'}\n")
        if result.legal:
            out.write("legal: yes\n")
        else:
            out.write(
                f"legal: no, move {(result.illegal_index or 0) + 1} ({result.illegal_move}) is "
                f"illegal: {result.illegal_reason}\n"
            )
        out.write(f"reaches the target: {'yes' if result.reaches_target else 'no'}\n")
        if result.optimum is None:
            why = never_reaches(board, target) or "never reaches the target"
            out.write(f"length {result.length}; the board {why}\n")
        else:
            out.write(f"length {result.length}, optimum {result.optimum}\n")
        verdict = " (optimal)" if result.optimal else ""
        out.write(f"score {result.score:.4g}{verdict}\n")
    return 0 if result.reaches_target else 1
