"""``bitknights hint``: every legal move of a board and the distance it leads to."""

from __future__ import annotations

from .. import progress
from ..batch import json_line
from ..board import Board, never_reaches
from ..errors import BitknightsError, InputError, plural
from .common import (
    OPTIMAL_MARK,
    Environment,
    UsageError,
    board_argument,
    command,
    count_solutions,
    file_operand,
    hint_line,
    read_source,
    read_target,
    slashed,
    stdin_notice,
    where,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import IO, Any


def _read_boards(path: str, env: Environment, quiet: bool) -> list[Board]:
    """The boards to hint: a board given as the argument, or a file (or standard input)
    holding one board (five rows, or its 25 characters) or a classic batch."""
    from ..batch import read_batch, read_board
    from ..board import parse_row

    board = board_argument(path)
    if board is not None:
        return [board]
    form = "five rows of 0 1 *, or a batch (T, then T boards)"
    stdin_notice(path, "a board", form, env, quiet)
    text = read_source(path, env)
    lines = [s for line in text.splitlines() if (s := line.strip())]
    if not lines:
        raise UsageError(f"{where(path)}empty input: expected a board ({form})")
    try:
        if len(lines) == 1:
            return [Board(lines[0])]
        if lines[0].isdigit() and parse_row(lines[0]) is not None:
            return read_batch(text)  # T, then T boards (a first line like 10110 is a row)
        return [read_board(text)]
    except (InputError, BitknightsError) as e:
        raise UsageError(f"{where(path)}{e}") from None


def _cmd_hint(args: argparse.Namespace, env: Environment) -> int:
    from ..service import service

    out = env.out
    boards = _read_boards(args.file, env, args.quiet)
    answers = service(read_target(args, env), cache_dir=args.cache_dir)
    if answers.source != "table":
        progress.announce(answers.describe())
    for i, board in enumerate(boards):
        if args.format == "text" and i:
            out.write("\n")
        _hint(board, answers, args, out)
    return 0


def _hint(board: Board, answers: Any, args: argparse.Namespace, out: IO[str]) -> None:
    here = answers.distance(board)
    hints = answers.hints(board)
    solutions = answers.count_solutions(board) if args.count_solutions else None
    if args.format == "json":
        record: dict[str, Any] = {"board": board.compact, "distance": here}
        if solutions is not None:
            record["optimal_solutions"] = solutions
        record["moves"] = [
            {"move": str(h.move), "board": h.board.compact, "distance": h.distance,
             "optimal": h.optimal}
            for h in hints
        ]  # fmt: skip
        out.write(json_line(record))
        return
    out.write(f"{board}\n")
    if here is None:
        out.write(f"{never_reaches(board, answers.target) or 'never reaches the target'}\n")
    else:
        best = sum(h.optimal for h in hints)
        tail = "" if here == 0 else f"; {best} of {plural(len(hints), 'move', ',')} optimal"
        if solutions is not None:
            tail += f"; {plural(solutions, 'optimal move sequence', ',')}"
        out.write(f"distance {here}{tail}\n")
    for h in hints:
        out.write(f"{hint_line(h)}  {slashed(h.board)}\n")


register = command(
    "hint",
    _cmd_hint,
    file_operand("a file with a board (five rows, or its 25 characters) or a batch, or a "
                 "board itself written 10110/01*11/10111/01001/00000", default="-"),
    count_solutions("(optimal_solutions in JSON)"),
    help="every legal move of a board and the distance it leads to",
    description="For a board, each legal move, the board it makes and that board's "
    f"distance; optimal moves are marked '{OPTIMAL_MARK}'. A batch file (T, then T "
    "boards) is hinted board by board. Distances come from the distance table, or "
    "without one from exact search (said on a terminal); --count-solutions counts "
    "from the table, else from the compact table (built once when needed).",
    formats=(
        "the board, its distance and one line per move",
        "one JSON object per board (distance, moves)",
    ),
)  # fmt: skip
