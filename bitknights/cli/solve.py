"""``bitknights solve``: the classic batch job, and JSON Lines."""

from __future__ import annotations

import contextlib
import io
import os

from .. import progress
from ..batch import BatchReader, json_lines
from ..board import Board, never_reaches
from ..errors import InputError, plural
from ..service import DEFAULT_MAX_DEPTH, ENGINE_CHOICES, DistanceService, plain, service
from ..squares import FULL_MASK
from . import streams
from .common import (
    Environment,
    UsageError,
    arg,
    board_argument,
    command,
    count_solutions,
    file_operand,
    number,
    positive_float,
    read_target,
    shows_knights,
    slashed,
    stdin_notice,
    where,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Iterator, Sequence
    from typing import IO

    import numpy as np

    from ..solution import Solution

STDIN_FORM = (
    "first the number of boards T, then T boards of five rows of 0 1 *, or one board on "
    "one line (it can also be given as the argument: "
    "bitknights solve '10110/01*11/10111/01001/00000')"
)


DEFAULTS: dict[str, object] = {
    "file": "-",
    "engine": "auto",
    "max_depth": DEFAULT_MAX_DEPTH,
    "exact": False,
    "target": None,
    "cache_dir": None,
    "count_solutions": False,
    "path": False,
    "format": "text",
    "timeout": None,
    "workers": 0,
    "ascii": False,
    "quiet": False,
}


def classic_args(argv: list[str]) -> argparse.Namespace | None:
    """What the parser would give for ``bitknights solve [FILE]`` (no option), without
    argparse; ``None`` for anything else."""
    if argv[:1] != ["solve"] or len(argv) > 2:
        return None
    if len(argv) == 2 and argv[1].startswith("-") and argv[1] != "-":
        return None
    from types import SimpleNamespace

    values = {**DEFAULTS, "command": "solve", "run": _cmd_solve}
    if len(argv) == 2:
        values["file"] = argv[1]
    return SimpleNamespace(**values)  # type: ignore[return-value]


def _cmd_solve(args: argparse.Namespace, env: Environment) -> int:
    target = read_target(args, env)
    args.board = board_argument(args.file)
    if args.board is None:
        stdin_notice(args.file, "boards", STDIN_FORM, env, args.quiet)
    if args.count_solutions and args.engine not in ("auto", "table", "compact"):
        raise UsageError("--count-solutions needs --engine table or compact (or auto)")
    out = env.out
    max_depth = None if args.exact else args.max_depth
    answers = service(target, engine=args.engine, cache_dir=args.cache_dir)
    counts_only = (
        args.format == "text" and args.timeout is None and not (args.path or args.count_solutions)
    )
    never = _NeverReaches(target, args, env)
    with _open_input(args, env) as stream:
        prefix: bytes | None = b""
        if counts_only and (args.engine == "auto" or plain(args.engine)):
            prefix = streams.small_input(stream, args.file)
            small = _small(prefix, args.file, answers, max_depth)
            if small is not None:
                out.write(never.counts(*small))
                never.say()
                return 0
        engine = answers.choose(max_depth, counts_only=counts_only)
        chunks, total = streams.checked_chunks(stream, args.file, prefix or b"")
        bar = progress.bar(total, "board", "solving")
        try:
            if counts_only:
                pieces: Iterator[tuple[str, int]] = (
                    (never.counts(keys, steps), len(keys))
                    for keys, steps in answers.step_pieces(
                        chunks, max_depth=max_depth, workers=args.workers, engine=engine
                    )
                )
            else:
                boards = (Board.from_key(k) for chunk in chunks for k in chunk.tolist())
                solutions = answers.solutions(
                    boards, max_depth=max_depth, timeout=args.timeout, workers=args.workers,
                    count_solutions=args.count_solutions, engine=engine,
                )  # fmt: skip
                pieces = ((line, 1) for line in _lines(never.solutions(solutions), args, out))
            for text, boards_done in pieces:
                with progress.writing(out):
                    out.write(text)
                    out.flush()
                bar.update(boards_done)
        finally:
            bar.close()
    never.say()
    return 0


class _NeverReaches:
    """The boards of a batch whose knight counts differ from the target's (answered -1): on
    a terminal, one line on standard error says why once the answers are out."""

    def __init__(self, target: Board, args: argparse.Namespace, env: Environment) -> None:
        self.target = target
        self.given = args.board is not None  # the board was the argument: name it so
        self.env = env
        self.active = env.feedback(args.quiet)
        self.seen = 0  # boards answered so far
        self.first: tuple[int, int] | None = None  # (index, key) of the first such board
        self.count = 0

    def counts(self, keys: Sequence[int] | np.ndarray, steps: Sequence[int] | np.ndarray) -> str:
        """The classic answers to ``keys``, one a line."""
        if self.active:
            black = self.target.counts[1]
            for i, d in enumerate(steps):
                if d == -1 and (int(keys[i]) & FULL_MASK).bit_count() != black:
                    self._found(self.seen + i, int(keys[i]))
        self.seen += len(steps)
        return "\n".join(map(str, steps)) + "\n"

    def solutions(self, solutions: Iterable[Solution]) -> Iterator[Solution]:
        from ..results import Status

        for s in solutions:
            if s.status == Status.UNREACHABLE:
                self._found(self.seen, s.start.key)
            self.seen += 1
            yield s

    def _found(self, index: int, key: int) -> None:
        self.count += 1
        if self.first is None:
            self.first = index, key

    def say(self) -> None:
        if not (self.active and self.first):
            return
        index, key = self.first
        board = Board.from_key(key)
        rows = slashed(board)
        what = rows if self.given else f"board {index + 1:,} ({rows})"
        n = self.count - 1
        more = f"; as {'does' if n == 1 else 'do'} {plural(n, 'more board', ',')}" if n else ""
        self.env.say(f"bitknights: {what} {never_reaches(board, self.target)}{more}\n")


def _small(
    data: bytes | None, path: str, answers: DistanceService, max_depth: int | None
) -> tuple[list[int], Sequence[int] | np.ndarray] | None:
    """A small input's keys and answers, in plain Python (no numpy); None when the input is
    not small or ``auto`` chooses an engine that needs numpy."""
    if data is None or len(data) > streams.SMALL_INPUT:
        return None
    try:
        reader = BatchReader(io.BytesIO(data))
        engine = answers.choose(max_depth, counts_only=True, boards=reader.count)
        if not plain(engine):
            return None  # numpy parses it faster
        keys = [k for chunk in reader.key_lists() for k in chunk]
    except InputError as e:
        raise UsageError(f"{where(path)}{e}") from None
    return keys, answers.steps(keys, max_depth=max_depth, engine=engine)


def _lines(solutions: Iterator[Solution], args: argparse.Namespace, out: IO[str]) -> Iterator[str]:
    """One Solution a board: JSON Lines, paths, or the classic answers (with counts)."""
    if args.format == "json":
        return json_lines(solutions, path=args.path)
    if args.path:
        from ..render.text import path_text

        unicode = not args.ascii and shows_knights(out, out.isatty())
        return (f"{_answer(s)}\n{path_text(s, unicode=unicode)}\n\n" for s in solutions)
    return (f"{_answer(s)}\n" for s in solutions)


def _answer(s: Solution) -> str:
    """The classic answer, and the count when counted: ``7 (1 optimal move sequence)``."""
    steps = -1 if s.steps is None else s.steps
    if s.optimal_solutions is None:
        return str(steps)
    return f"{steps} ({plural(s.optimal_solutions, 'optimal move sequence', ',')})"


def _open_input(args: argparse.Namespace, env: Environment) -> contextlib.AbstractContextManager:
    """The batch: the board given as the argument, else FILE or stdin."""
    if args.board is not None:
        return contextlib.nullcontext(io.BytesIO(f"1\n{args.board}\n".encode()))
    if args.file == "-" and env.stdin_isatty:
        # what is typed, up to one Ctrl-D (a buffered read may wait for a second one)
        typed = iter(lambda: os.read(env.stdin.fileno(), 1 << 16), b"")  # type: ignore[union-attr]
        return contextlib.nullcontext(io.BytesIO(b"".join(typed)))
    return streams.open_input(args.file, env)


register = command(
    "solve",
    _cmd_solve,
    file_operand("the batch to read (T, then T boards), or one board written "
                 "10110/01*11/... or as its 25 characters"),
    arg("--engine", choices=ENGINE_CHOICES, help="search engine (default: auto)"),
    [
        number("--max-depth", "N", f"answer -1 beyond N moves (default: {DEFAULT_MAX_DEPTH})"),
        arg("--exact", action="store_true",
            help="no move limit: every board is solved exactly, however far"),
    ],
    count_solutions("(from the distance table, else from the compact table, built once "
                    "when needed): after each answer in text, optimal_solutions in JSON"),
    arg("--path", action="store_true", help="follow each answer with one optimal move sequence"),
    arg("--timeout", type=positive_float, metavar="SECONDS",
        help="give up on a board after SECONDS (reported as timed out: -1, "
        "status 'timeout' in JSON)"),
    number("--workers", "N", "threads for the search engines (default 0: one per CPU; at "
           "most 4 per CPU, a larger N is lowered to that)"),
    arg("--ascii", action="store_true",
        help="with --path: draw boards with 0 1 * even on a UTF-8 terminal"),
    help="solve a batch of boards in the classic format",
    description="Read T and then T boards (classic SCOI2005 format) and print, for each, "
    "the fewest moves to the target, or -1 when that is more than the limit.",
    formats=(
        "the classic output, one integer per line (-1: over the limit)",
        "one JSON object per board (steps, status, ...)",
    ),
    cache_dir_help="where distance tables live (for --engine table/auto)",
    defaults=DEFAULTS,
)  # fmt: skip
