"""What every command shares: the error a command reports, argument types, reading a
file, a board given as an argument or standard input, the options every command takes
(declared once, :func:`command`), and one JSON style."""

from __future__ import annotations

import os

from ..batch import decode, read_board
from ..board import TARGET, Board, board_problem, looks_like_board
from ..errors import BitknightsError, InputError
from ..service import MAX_TIMEOUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import IO, Any

    from .environment import Environment

    Argument = tuple[tuple[str, ...], dict[str, Any]]  # add_argument's flags and keywords

FORMATS = ("text", "json")
"""The ``--format`` names every command takes: ``text`` for people (``solve``'s is the
classic output), ``json`` for one JSON object per line."""

BOARD_CHARS = frozenset("01*/")


class UsageError(Exception):
    """A problem the command line reports as ``bitknights: error: ...`` with status 2."""


class ResourceError(Exception):
    """The system refused something a command needs (a full disk, a file size limit): the
    command line reports it as ``bitknights: error: ...`` with status 3."""


def one_line(text: str) -> str:
    """``text`` with every character that is not printable (a line break, a tab, a control
    character, an undecodable byte of a file name) written as its escape, so that a
    message naming what the user typed stays one line.

    >>> print(one_line("cannot read 1\\n10110\\udcff: No such file"))
    cannot read 1\\n10110\\udcff: No such file
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def refused(e: OSError) -> bool:
    """Whether the system refused ``e``'s operation for want of room (ENOSPC, EDQUOT,
    EFBIG past ``ulimit -f``), memory or file handles: status 3, not a bad path's 2."""
    import errno

    from ..cache import no_room

    return no_room(e) or e.errno in (errno.ENOMEM, errno.EMFILE, errno.ENFILE)


OPTIMAL_MARK = ">"
"""Marks the optimal moves in every hint list (``hint``, ``play``): ``*`` is the blank."""

BOARD_FILE_LIMIT = 1 << 16
"""The most bytes read from a file that holds one board (``--target``, ``hint``): a board
is 30 bytes; generous room for blank lines and spaces, never a whole device."""


def read_source(
    path: str, env: Environment, what: str = "", *, limit: int = BOARD_FILE_LIMIT
) -> str:
    """The text of ``path`` (``-``: standard input), at most ``limit`` bytes: a longer
    input is an error, read no further than that; so is a file that is not a regular
    file (FIFO, device), which is refused before a byte is read."""
    import stat

    try:
        if path == "-":
            data = stdin_bytes(env).read(limit + 1)
        else:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with open(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
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
    """Standard input's bytes (a stream without a binary buffer beneath is read as
    UTF-8); a closed one is an error (``closed``: what to do instead)."""
    import io

    if env.stdin is None:
        raise UsageError(f"standard input is closed{closed}")
    buffer = getattr(env.stdin, "buffer", None)
    if buffer is None:  # a text stream alone (embedding, tests)
        return io.BytesIO(env.stdin.read().encode("utf-8", "surrogateescape"))
    return buffer  # type: ignore[no-any-return]


def read_error(path: str, e: OSError, what: str = "") -> Exception:
    """The error for ``path`` that cannot be read: the system's refusal (no file handles
    or memory left: :class:`ResourceError`, status 3) or a bad path (:class:`UsageError`,
    status 2)."""
    return (ResourceError if refused(e) else UsageError)(
        f"cannot read {what}{'standard input' if path == '-' else path}: {e.strerror or e}"
    )


def where(path: str) -> str:
    return "" if path == "-" else f"{path}: "


def non_negative(text: str) -> int:
    """An option's non-negative integer, in ASCII digits (as everywhere in the input)."""
    try:
        value = int(text) if text.isascii() else -1
    except ValueError:
        value = -1
    if value < 0:
        raise _type_error(f"expected a non-negative integer, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An option's positive number of seconds (ASCII), at most ``MAX_TIMEOUT``."""
    try:
        value = float(text) if text.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_TIMEOUT:
        raise _type_error(
            f"expected a positive number of seconds up to {MAX_TIMEOUT:,.0f}, got {text!r}"
        )
    return value


def _type_error(message: str) -> Exception:
    import argparse

    return argparse.ArgumentTypeError(message)


def arg(*flags: str, **kwargs: Any) -> Argument:
    """An argument of a command, for :func:`command`: what ``add_argument`` takes."""
    return flags, kwargs


BOARD_HELP = "a file with the board (five rows), the 25-character form, or the rows joined by '/'"
BOARD = arg("board", metavar="BOARD", help=BOARD_HELP)
"""The ``BOARD`` operand of ``check`` and ``solutions`` (``play``'s is optional)."""


def number(flag: str, metavar: str, help: str, **kwargs: Any) -> Argument:
    """An option taking a non-negative integer (:func:`non_negative`)."""
    return arg(flag, type=non_negative, metavar=metavar, help=help, **kwargs)


SEED = number("--seed", "S", "the same seed, the same boards")
"""``--seed S`` of ``random`` and ``play``."""


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
    command takes, declared here once, then its own ``arguments`` (:func:`arg`; a list of
    them: mutually exclusive).  Every command takes ``--target FILE``, ``--cache-dir DIR``,
    ``--quiet`` (:func:`bitknights.cli.main` applies it) and, when it has a choice of
    output, ``--format text|json`` (``formats``: what each prints; ``classic`` is another
    name for ``text``)."""
    cache_help = cache_dir_help or (
        "where tables live (default: $BITKNIGHTS_CACHE_DIR, else the user cache "
        "directory, $XDG_CACHE_HOME/bitknights or ~/.cache/bitknights)"
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


def plural(n: int, noun: str) -> str:
    """``'1 board'``, ``'2 boards'``, ``'1,234 boards'``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def board_argument(text: str, *, required: bool = False) -> Board | None:
    """The board ``text`` spells when a command's FILE argument is a board rather than a
    file: 25 characters of ``0 1 *``, or five rows joined by ``/``.  ``None`` when it
    names a file (or is ``-``), or, unless ``required``, looks nothing like a board
    (:func:`~bitknights.board.looks_like_board`; a board with a typo is a bad board, the
    error naming the character, not a missing file).

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
    if not (required or set(text) <= BOARD_CHARS or looks_like_board(text)):
        return None
    problem = board_problem(text)
    if problem:
        shown = repr(text if len(text) <= 60 else text[:57] + "...")
        raise UsageError(f"{shown} is neither a file nor a board: {problem}")
    return Board(text)


def read_board_argument(text: str, env: Environment) -> Board:
    """The board a BOARD argument names: an existing file (five rows or one 25-character
    line), else the board's own text (25 characters, or rows joined by ``/``)."""
    if os.path.exists(text):
        data = read_source(text, env, "board ")
        lines = [s for line in data.splitlines() if (s := line.strip())]
        try:
            return Board(lines[0]) if len(lines) == 1 else read_board(data)
        except (InputError, BitknightsError) as e:
            raise UsageError(f"board {text}: {e}") from None
    board = board_argument(text, required=True)
    if board is None:  # '-' or empty
        raise UsageError(f"{text!r} is neither a file nor a board")
    return board


def shown(text: str) -> str:
    """``text`` quoted for a message, cut to 40 characters."""
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:37] + "...")


def slashed(board: Board) -> str:
    """The board's rows joined by ``/``, as a board is given on the command line."""
    return "/".join(board.rows())


def stdin_notice(path: str, what: str, form: str, env: Environment, quiet: bool = False) -> None:
    """When FILE is standard input and that is a terminal, say at once on standard error
    what is being read, in what form and how to end it (silent with ``--quiet`` or when
    standard error is not a terminal)."""
    if path != "-" or not env.stdin_isatty or not env.feedback(quiet):
        return
    env.say(f"bitknights: reading {what} from standard input: {form}; end with Ctrl-D\n")


def terminal_input(env: Environment) -> bytes:
    """Everything typed on the terminal that is standard input, up to one Ctrl-D at the
    start of a line.  (A buffered read may swallow that end of input while filling its
    buffer and then wait for a second one; reading the descriptor stops at the first.)"""
    chunks = []
    while chunk := os.read(env.stdin.fileno(), 1 << 16):  # type: ignore[union-attr]
        chunks.append(chunk)
    return b"".join(chunks)
