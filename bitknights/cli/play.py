"""``bitknights play``: the puzzle as a game in a terminal (or driven by a script through
a pipe); Ctrl-C always ends the wait for a command (:class:`CommandLines`)."""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time

from ..board import Board, Move, never_reaches, quoted
from ..cache import CacheError
from ..errors import BitknightsError, plural
from ..render.text import GLYPHS
from ..squares import SIZE, square_name
from .common import (
    BOARD_HELP,
    SEED,
    Environment,
    UsageError,
    arg,
    command,
    hint_line,
    number,
    read_answers,
    read_boards,
    read_error,
    shows_knights,
)

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


def _cmd_play(args: argparse.Namespace, env: Environment) -> int:
    from ..game import Game

    out = env.out
    answers = read_answers(args, env)
    if args.board is not None and args.distance is not None:
        raise UsageError("give a BOARD or --distance, not both")
    start = None if args.board is None else read_boards(args.board, env)[0]
    if answers.source != "table" and not args.quiet:
        env.say(f"bitknights: {answers.describe()}\n")
    with _dealing(None if args.quiet or start is not None else env):
        game = Game(
            start, target=answers.target, answers=answers, distance=args.distance, seed=args.seed
        )
    if env.stdin is None:
        raise UsageError("standard input is closed: play reads its commands from it")
    interactive = env.stdin_isatty and env.stdout_isatty
    unicode = not args.ascii and shows_knights(out, env.stdout_isatty)
    session = Session(game, out, unicode, None if args.quiet else env)
    if interactive:
        out.write("Move a knight into the blank by naming its square; 'help' lists commands.\n")
    session.start()
    lines = CommandLines(env.stdin)
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
    """A game behind text commands: :meth:`run` takes one line and writes the answer to
    ``out``; ``env``: where to say on a terminal that a fresh board is being dealt."""

    def __init__(self, game, out: IO[str], unicode: bool, env: Environment | None) -> None:
        self.game = game
        self.out = out
        self.unicode = unicode
        self.env = env
        self._commands: dict[str, Callable[[], None]] = {
            "hint": self._hint,
            "undo": lambda: self.show(f"undo {self.game.undo()}"),
            "redo": lambda: self._move(self.game.redo(), " (redo)"),
            "solve": self._solve,
            "reset": self._reset,
            "board": self.show,
            "target": self._target,
            "help": lambda: self._say(COMMANDS_HELP),
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
            if name == "new":
                self._new(rest)
            elif name in self._commands:
                if rest and name not in ("board", "help"):
                    raise BitknightsError(f"{name} takes no argument")
                self._commands[name]()
            elif (
                len(words) == 1 and len(name) in (2, 5) and name[0].isalpha() and name[1].isdigit()
            ):
                self._move(self.game.move(name))
            else:
                raise BitknightsError(
                    f"unknown command {quoted(line.strip())}; 'help' lists commands"
                )
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
        self._target()
        self.show("your board:")

    def show(self, heading: str = "") -> None:
        """``heading`` (if any), the board with its coordinates, then its distance."""
        if heading:
            self._say(heading)
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
        self.show(f"move {len(self.game.history)}: {move}{note}")
        if self.game.solved:
            made, best = len(self.game.history), self.game.optimum
            verdict = "optimal" if made == best else f"{made - best} more than the optimum"
            self._say(f"solved in {plural(made, 'move', ',')}; the optimum is {best} ({verdict})")

    # -- commands --

    def _hint(self) -> None:
        hints = self.game.hints()
        best = sum(h.optimal for h in hints)
        if self.game.solved:
            lines = ["the board is the target: every move leads away"]
        elif self.game.distance is None:
            lines = ["no move helps: this board never reaches the target"]
        else:
            lines = [f"{best} of {plural(len(hints), 'move', ',')} optimal"]
        lines.extend(hint_line(h) for h in hints)
        self._say("\n".join(lines))

    def _target(self) -> None:
        self._say(f"the target:\n{self._drawn(self.game.target)}")

    def _solve(self) -> None:
        if self.game.solved:
            raise BitknightsError("the board is already the target")
        for move in self.game.solution():
            self._move(self.game.move(move))

    def _new(self, rest: list[str]) -> None:
        if len(rest) > 1 or rest and not (rest[0].isascii() and rest[0].isdigit()):
            raise BitknightsError(
                f"new takes one distance, a non-negative integer, got {quoted(' '.join(rest))}"
            )
        with _dealing(self.env):
            self.game.new(int(rest[0]) if rest else None)
        self.show("new board")

    def _reset(self) -> None:
        self.game.reset()
        self.show("back to the start")


@contextlib.contextmanager
def _dealing(env: Environment | None) -> Iterator[None]:
    """Say on a terminal's standard error that a fresh board is being dealt (far ones are
    drawn from the table, a second or two the first time); the note is erased after."""
    note = env is not None and env.feedback()
    if note:
        env.say("dealing a fresh board...")  # type: ignore[union-attr]
    try:
        yield
    finally:
        if note:
            env.say("\r\033[K")  # type: ignore[union-attr]


CHUNK = 1 << 16
POLL = 0.1  # seconds between looks for Ctrl-C while waiting for a command


class CommandLines:
    """The lines of ``stream`` (standard input) as UTF-8 (else U+FFFD), each at most
    four bytes a character of ``LINE_LIMIT`` (the rest is read and dropped).  A thread
    reads the descriptor; the caller waits for its bytes ``POLL`` seconds at a time, so
    Ctrl-C ends the wait at once on every system (no ``select`` on a pipe or a console,
    which Windows has not)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        try:
            self._fd: int | None = stream.fileno()
        except (OSError, ValueError, AttributeError):  # no descriptor (embedding, tests)
            self._fd = None
        self._keep = 4 * (LINE_LIMIT + 1)
        self._chunks: queue.SimpleQueue[bytes | OSError] = queue.SimpleQueue()
        self._reader: threading.Thread | None = None
        self._pending = b""
        self._ended = False

    def readline(self) -> str:
        """The next line with its line break, the last one without; ``''`` at the end."""
        line = bytearray()
        while True:
            end = self._pending.find(b"\n") + 1
            piece = self._pending[:end] if end else self._pending
            self._pending = self._pending[len(piece) :]
            line += piece[: max(0, self._keep - len(line))]
            if end or self._ended:
                return line.decode("utf-8", "replace")
            self._pending = self._read()
            self._ended = not self._pending

    def _read(self) -> bytes:
        if self._fd is None:
            buffer = getattr(self._stream, "buffer", None)
            if buffer is None:  # a text stream without bytes beneath
                return self._stream.readline(CHUNK).encode("utf-8", "surrogateescape")
            try:
                return buffer.read1(CHUNK)  # type: ignore[no-any-return]
            except OSError as e:
                raise read_error("-", e) from None
        if self._reader is None:
            self._reader = threading.Thread(target=self._pump, args=(self._fd,), daemon=True)
            self._reader.start()
        while True:
            with contextlib.suppress(queue.Empty):
                chunk = self._chunks.get(timeout=POLL)
                if isinstance(chunk, OSError):
                    raise read_error("-", chunk) from None
                return chunk

    def _pump(self, fd: int) -> None:
        """The reader thread: every chunk of ``fd`` to the queue, up to its end or error."""
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:  # a descriptor left non-blocking: wait for it
                time.sleep(POLL)
                continue
            except OSError as e:
                self._chunks.put(e)
                return
            self._chunks.put(chunk)
            if not chunk:
                return


register = command(
    "play",
    _cmd_play,
    arg("board", nargs="?", metavar="BOARD", help=f"{BOARD_HELP}; default: a fresh board"),
    number("--distance", "D", "the fresh board's distance from the target (default 8)"),
    SEED,
    arg("--ascii", action="store_true", help="draw knights as 0 and 1, not ♘ and ♞"),
    help="play the puzzle in a terminal (or drive it through a pipe)",
    description="Play the puzzle: move knights into the blank by naming their squares, "
    "ask for hints, undo, redo, or watch the optimal rest. Commands are read a line "
    "at a time from standard input (a terminal or a pipe; a script gets the same "
    "lines a person sees). Distances are exact: from the distance table when there "
    "is one, otherwise from exact search. Type 'help' for the commands.",
    epilog=COMMANDS_HELP,
)  # fmt: skip
