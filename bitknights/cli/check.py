"""``bitknights check``: the checker of a proposed solution (:mod:`bitknights.checker`)."""

from __future__ import annotations

from ..batch import json_line
from ..board import never_reaches, quoted
from ..squares import parse_square
from .common import (
    BOARD,
    Environment,
    UsageError,
    arg,
    command,
    read_boards,
    read_target,
    slashed,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _cmd_check(args: argparse.Namespace, env: Environment) -> int:
    from ..checker import check

    out = env.out
    target = read_target(args, env)
    board = read_boards(args.board, env)[0]
    moves = [m for arg in args.moves for m in arg.replace(",", " ").split()]
    for i, move in enumerate(moves, 1):  # text that is no move is bad input, not illegal
        for name in move.split("-", 1):
            try:
                parse_square(name)
            except ValueError:
                raise UsageError(
                    f"move {i}: {quoted(move)} is not a move: {quoted(name)} is not a square "
                    "(a1 to e5); write a move as the knight's square (e5) or FROM-TO (e5-c4)"
                ) from None
    result = check(board, moves, target, cache_dir=args.cache_dir)
    if args.format == "json":
        out.write(json_line(result.as_dict()))
    else:
        out.write(f"board {slashed(board)}\n")
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


register = command(
    "check",
    _cmd_check,
    BOARD,
    arg("moves", nargs="*", metavar="MOVE",
        help="the moves: the square of the knight that jumps, or FROM-TO"),
    help="check a proposed solution: legal moves, target reached, length, score",
    description="Replay MOVES from BOARD and report whether every move is legal (or "
    "the first illegal one and why), whether they reach the target, their number "
    "against the optimum, and a score: 1 for an optimal solution, optimum/length for "
    "a longer one, 0 otherwise. Exit status 0 when the moves solve the board, 1 when "
    "they do not, 2 for bad input.",
    formats=(
        "a few lines: the moves, whether they are legal and reach the target, their "
        "length against the optimum, the score",
        "one record",
    ),
)  # fmt: skip
