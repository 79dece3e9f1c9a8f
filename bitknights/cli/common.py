"""What every command shares: the run's :class:`Environment` and :class:`ExitStatus`, the
errors a command reports, argument types, reading a file or a board given as an argument,
and the options every command takes (declared once, :func:`command`)."""

from __future__ import annotations

import enum
import os
import sys

from ..batch import decode, read_batch, read_board
from ..board import TARGET, Board, board_problem, looks_like_board, parse_row
from ..errors import BitknightsError, InputError
from ..service import MAX_TIMEOUT, DistanceService, service

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Mapping
    from types import ModuleType
    from typing import IO, Any, TypeVar

    from ..solution import Hint

    T = TypeVar("T")

    Argument = tuple[tuple[str, ...], dict[str, Any]]  # add_argument's flags and keywords

COMMANDS = ("solve", "table", "stats", "random", "hint", "play", "check", "solutions")
"""The commands in the order ``bitknights --help`` lists them, each registered by the
module ``bitknights.cli.NAME``, imported only when its command runs (:func:`command_module`)."""


def command_module(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"{__package__}.{name}")


FORMATS = ("text", "json")  # --format: text for people (solve's: the classic), JSON Lines


class UsageError(Exception):
    """Bad input or request: ``bitknights: error: ...``, status 2."""


class ResourceError(Exception):
    """The system refused something a command needs: ``bitknights: error: ...``, status 3."""


def one_line(text: str) -> str:
    """``text`` with every character that is not printable written as its escape, so that
    a message naming what the user typed stays one line.

    >>> print(one_line("cannot read 1\\n10110\\udcff: No such file"))
    cannot read 1\\n10110\\udcff: No such file
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def refused(e: OSError) -> bool:
    """Whether the system refused ``e``'s operation for want of room, memory or file handles
    (status 3, not a bad path's 2)."""
    import errno

    from ..cache import no_room

    return no_room(e) or e.errno in (errno.ENOMEM, errno.EMFILE, errno.ENFILE)


OPTIMAL_MARK = ">"  # marks the optimal moves in every hint list (``*`` is the blank)


def hint_line(h: Hint) -> str:
    """A move of a hint list (``hint``, ``play``): its mark, the move, the distance."""
    dist = "-" if h.distance is None else str(h.distance)
    return f"{OPTIMAL_MARK if h.optimal else ' '} {h.move!s:<6} {dist:>3}"


BOARD_FILE_LIMIT = 1 << 16  # the most bytes read from a file of one board: never a device


def read_source(
    path: str, env: Environment, what: str = "", *, limit: int = BOARD_FILE_LIMIT
) -> str:
    """The text of ``path`` (``-``: standard input), at most ``limit`` bytes (a longer one
    is an error); a file that is not a regular file is refused before a byte is read."""
    import stat

    from .. import system

    try:
        if path == "-":
            data = stdin_bytes(env).read(limit + 1)
        else:
            with open(system.open_read(path), "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    raise UsageError(f"{what}{path}: not a regular file")
                data = f.read(limit + 1)
    except OSError as e:
        raise read_error(path, e, what) from None
    if len(data) > limit:
        raise UsageError(f"{what}{where(path) or 'standard input: '}more than {limit:,} bytes")
    try:
        return decode(data)
    except InputError as e:
        raise UsageError(f"{what}{where(path)}{e}") from None


def stdin_bytes(env: Environment, closed: str = "") -> IO[bytes]:
    """Standard input's bytes; a closed one is an error (``closed``: what to do instead)."""
    import io

    if env.stdin is None:
        raise UsageError(f"standard input is closed{closed}")
    buffer = getattr(env.stdin, "buffer", None)
    if buffer is None:  # a text stream alone (embedding, tests)
        return io.BytesIO(env.stdin.read().encode("utf-8", "surrogateescape"))
    return buffer  # type: ignore[no-any-return]


def read_error(path: str, e: OSError, what: str = "") -> Exception:
    """The error for ``path`` that cannot be read: the system's refusal or a bad path."""
    return (ResourceError if refused(e) else UsageError)(
        f"cannot read {what}{'standard input' if path == '-' else path}: {e.strerror or e}"
    )


def where(path: str) -> str:
    return "" if path == "-" else f"{path}: "


def _option(text: str, kind: Callable[[str], T], ok: Callable[[T], bool], expected: str) -> T:
    """An option's number (ASCII, as everywhere in the input) of ``kind``, ``ok``, else an
    argparse error saying what was ``expected``."""
    try:
        value: T | None = kind(text) if text.isascii() else None
    except ValueError:
        value = None
    if value is None or not ok(value):
        import argparse

        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def non_negative(text: str) -> int:
    return _option(text, int, lambda n: n >= 0, "a non-negative integer")


def positive_float(text: str) -> float:
    """An option's positive number of seconds, at most ``MAX_TIMEOUT``."""
    expected = f"a positive number of seconds up to {MAX_TIMEOUT:,.0f}"
    return _option(text, float, lambda x: 0 < x <= MAX_TIMEOUT, expected)


def arg(*flags: str, **kwargs: Any) -> Argument:
    """An argument of a command, for :func:`command`: what ``add_argument`` takes."""
    return flags, kwargs


BOARD_HELP = "a file with the board (five rows), the 25-character form, or the rows joined by '/'"
BOARD = arg("board", metavar="BOARD", help=BOARD_HELP)  # of check and solutions


def number(flag: str, metavar: str, help: str, **kwargs: Any) -> Argument:
    """An option taking a non-negative integer (:func:`non_negative`)."""
    return arg(flag, type=non_negative, metavar=metavar, help=help, **kwargs)


SEED = number("--seed", "S", "the same seed, the same boards")  # of random and play


def file_operand(what: str, **kwargs: Any) -> Argument:
    """The ``FILE|BOARD`` operand of ``solve`` and ``hint``: ``what`` it may be."""
    help = f"{what}; '-' or nothing reads standard input"
    return arg("file", nargs="?", metavar="FILE|BOARD", help=help, **kwargs)


def count_solutions(how: str) -> Argument:
    """``--count-solutions`` of ``solve`` and ``hint``: ``how`` the counts are given."""
    help = f"also count each board's distinct optimal move sequences {how}"
    return arg("--count-solutions", action="store_true", help=help)


def command(
    name: str,
    run: Callable[[argparse.Namespace, Environment], int],
    *arguments: Argument | list[Argument],
    formats: tuple[str, str] | None = None,
    cache_dir_help: str | None = None,
    defaults: dict[str, object] | None = None,
    **kwargs: Any,
) -> Callable[[argparse._SubParsersAction], argparse.ArgumentParser]:
    """The ``register(sub)`` of command ``name``: it adds the command's parser (``kwargs``:
    ``help``, ``description``, ...), which calls ``run(args, env)``, with the options every
    command takes (``--format`` when ``formats`` says what each prints), then its own
    ``arguments`` (:func:`arg`; a list of them: mutually exclusive)."""
    cache_help = cache_dir_help or (
        "where tables live (default: $BITKNIGHTS_CACHE_DIR, else the user cache directory: "
        "$XDG_CACHE_HOME/bitknights or ~/.cache/bitknights on Linux, "
        "~/Library/Caches/bitknights on macOS, %%LOCALAPPDATA%%\\bitknights\\Cache on Windows)"
    )
    common = [
        arg("--target", metavar="FILE",
            help="a file with the target board (five rows); default: the classic target"),
        arg("--cache-dir", metavar="DIR", help=cache_help),
        arg("--quiet", action="store_true",
            help="nothing on standard error but errors (no notices, no progress bar)"),
    ]  # fmt: skip
    if formats is not None:
        common.insert(0, arg("--format", choices=FORMATS, default="text",
                             type=lambda name: "text" if name == "classic" else name,
                             help=f"text (the default; 'classic' is the same): {formats[0]}; "
                             f"json: {formats[1]}"))  # fmt: skip

    def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, **kwargs)
        shared = p.add_argument_group("options every command takes")
        for flags, options in common:
            shared.add_argument(*flags, **options)
        for argument in arguments:
            into = p.add_mutually_exclusive_group() if isinstance(argument, list) else p
            for flags, options in argument if isinstance(argument, list) else [argument]:
                into.add_argument(*flags, **options)
        p.set_defaults(**(defaults or {}), run=run)
        return p

    return register


def read_target(args: argparse.Namespace, env: Environment) -> Board:
    """The board ``--target`` names, or the classic target."""
    if args.target is None:
        return TARGET
    try:
        return read_board(read_source(args.target, env, "target "))
    except InputError as e:
        raise UsageError(f"target {args.target}: {e}") from None


def read_answers(args: argparse.Namespace, env: Environment) -> DistanceService:
    """The distance service for the command's ``--target`` and ``--cache-dir``."""
    return service(read_target(args, env), cache_dir=args.cache_dir)


def board_argument(text: str, *, required: bool = False) -> Board | None:
    """The board ``text`` spells when a FILE argument is a board (25 characters, or five
    rows joined by ``/``); ``None`` when it names a file, is ``-``, or (unless
    ``required``) looks nothing like a board.  A board with a typo is a bad board.

    >>> board_argument("10110/01*11/10111/01001/00000").compact
    '1011001*11101110100100000'
    >>> board_argument("-") is None
    True
    >>> board_argument("10110/01*11/10111/01001/0000O")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bitknights.cli.common.UsageError: ... nor a board: character 29 is 'O' (cells are 0, 1, *)
    """
    if text == "-" or not text or os.path.exists(text):
        return None
    if not (required or set(text) <= set("01*/") or looks_like_board(text)):
        return None
    problem = board_problem(text)
    if problem:
        shown = repr(text if len(text) <= 60 else text[:57] + "...")
        raise UsageError(f"{shown} is neither a file nor a board: {problem}")
    return Board(text)


def read_boards(text: str, env: Environment, *, batch: str = "") -> list[Board]:
    """The boards a BOARD argument names: the board itself, else a file (``-``: standard
    input, for a batch) holding one board (five rows, or its 25 characters) or, when
    ``batch`` says what the file may hold, a classic batch."""
    board = board_argument(text, required=not batch)
    if board is not None:
        return [board]
    if not (batch or os.path.exists(text)):  # '-' or empty
        raise UsageError(f"{text!r} is neither a file nor a board")
    what = "" if batch else "board "
    data = read_source(text, env, what)
    lines = [s for line in data.splitlines() if (s := line.strip())]
    if batch and not lines:
        raise UsageError(f"{where(text)}empty input: expected a board ({batch})")
    try:
        if len(lines) == 1:
            return [Board(lines[0])]
        if batch and lines[0].isdigit() and parse_row(lines[0]) is not None:
            return read_batch(data)  # T, then T boards (a first line like 10110 is a row)
        return [read_board(data)]
    except (InputError, BitknightsError) as e:
        raise UsageError(f"{what}{text}: {e}" if what else f"{where(text)}{e}") from None


def slashed(board: Board) -> str:
    """The board's rows joined by ``/``, as a board is given on the command line."""
    return "/".join(board.rows())


def stdin_notice(path: str, what: str, form: str, env: Environment, quiet: bool = False) -> None:
    """When FILE is a terminal's standard input, say what is read and how to end it."""
    if path != "-" or not env.stdin_isatty or not env.feedback(quiet):
        return
    env.say(f"bitknights: reading {what} from standard input: {form}; end with Ctrl-D\n")


def shows_knights(out: IO[str], isatty: bool) -> bool:
    """Whether ``out``, a terminal when ``isatty``, can show the knight glyphs (its
    encoding has them: not an ANSI code page)."""
    from ..render.text import GLYPHS

    try:
        "".join(GLYPHS.values()).encode(getattr(out, "encoding", None) or "ascii")
    except (LookupError, UnicodeError):
        return False
    return isatty


class ExitStatus(enum.IntEnum):
    """The exit statuses of ``bitknights`` (each failure: one line ``bitknights: error:``):
    ``INVALID`` is a verdict (no valid table, moves that do not solve, no solution),
    ``USAGE`` bad input or request, ``RESOURCES`` the system's refusal (output closed or
    full, out of memory, no threads, a library that cannot load): README, "exit statuses"."""

    OK = 0
    INVALID = 1
    USAGE = 2
    RESOURCES = 3
    INTERRUPTED = 130

    __str__ = int.__repr__  # ``0``, not ``ExitStatus.OK``, on every Python (3.11's IntEnum)


class _Process:  # the default of an Environment stream: the process's own
    def __repr__(self) -> str:
        return "PROCESS"


PROCESS = _Process()


class Environment:
    """The standard streams and environment variables of one run of
    :func:`bitknights.cli.main` and whether each stream is a terminal (default: the
    process's own, and ``isatty()``); a stream may be ``None`` (closed).

    >>> import io
    >>> env = Environment(stdin=io.StringIO("1\\n"), stdout=io.StringIO(), environ={})
    >>> env.stdin_isatty, env.stdout_isatty, env.cache_dir("/data/bk")
    (False, False, '/data/bk')
    """

    def __init__(
        self,
        *,
        stdin: IO[str] | None | _Process = PROCESS,
        stdout: IO[str] | None | _Process = PROCESS,
        stderr: IO[str] | None | _Process = PROCESS,
        environ: Mapping[str, str] | None = None,
        stdin_isatty: bool | None = None,
        stdout_isatty: bool | None = None,
        stderr_isatty: bool | None = None,
    ) -> None:
        self.stdin: IO[str] | None = sys.stdin if isinstance(stdin, _Process) else stdin
        self.stdout: IO[str] | None = sys.stdout if isinstance(stdout, _Process) else stdout
        self.stderr: IO[str] | None = sys.stderr if isinstance(stderr, _Process) else stderr
        self.environ: Mapping[str, str] = os.environ if environ is None else environ
        self.stdin_isatty = _isatty(self.stdin) if stdin_isatty is None else stdin_isatty
        self.stdout_isatty = _isatty(self.stdout) if stdout_isatty is None else stdout_isatty
        self.stderr_isatty = _isatty(self.stderr) if stderr_isatty is None else stderr_isatty

    def __repr__(self) -> str:
        ttys = [n for n in ("stdin", "stdout", "stderr") if getattr(self, f"{n}_isatty")]
        return f"<Environment, terminals: {', '.join(ttys) or 'none'}>"

    @property
    def out(self) -> IO[str]:
        """Standard output (``OSError`` when it is closed)."""
        if self.stdout is None:
            import errno

            raise OSError(errno.EBADF, "standard output is closed")
        return self.stdout

    def feedback(self, quiet: bool = False) -> bool:
        """Whether notices and progress bars are wanted: a terminal, and not ``quiet``."""
        return self.stderr_isatty and not quiet and self.stderr is not None

    def cache_dir(self, given: str | None) -> str:
        """``given`` (``--cache-dir``), else :func:`~bitknights.cache.cache_directory` here."""
        from ..cache import cache_directory

        return cache_directory(given, self.environ)

    def say(self, text: str) -> None:
        """Write ``text`` on standard error now (nothing when it is closed or broken)."""
        if self.stderr is None:
            return
        try:
            self.stderr.write(text)
            self.stderr.flush()
        except (OSError, ValueError):
            pass


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False
