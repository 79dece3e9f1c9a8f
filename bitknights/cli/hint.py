"""``bitknights hint``: every legal move of a board and the distance it leads to."""

from __future__ import annotations

from .. import progress
from ..batch import json_line
from ..board import Board, never_reaches
from ..errors import plural
from .common import (
    OPTIMAL_MARK,
    Environment,
    command,
    count_solutions,
    file_operand,
    hint_line,
    read_answers,
    read_boards,
    slashed,
    stdin_notice,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import IO, Any


def _cmd_hint(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    form = "five rows of 0 1 *, or a batch (T, then T boards)"
    stdin_notice(args.file, "a board", form, env, args.quiet)
    boards = read_boards(args.file, env, batch=form)
    answers = read_answers(args, env)
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
