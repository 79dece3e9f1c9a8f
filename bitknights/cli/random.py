"""``bitknights random``: a batch of distinct boards drawn uniformly at an exact
distance (from the table)."""

from __future__ import annotations

from .. import estimates
from ..batch import json_line
from ..solution import moves_along
from .common import SEED, Environment, UsageError, command, number, read_answers

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _cmd_random(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    if args.count == 0:
        raise UsageError("--count must be at least 1")
    answers = read_answers(args, env)
    boards = answers.random_boards(args.distance, args.count, args.seed)
    if args.format == "json":
        for b in boards:
            path = answers.path(b)
            assert path is not None  # a drawn board lies at its distance
            moves = [str(m) for m in moves_along(path)]
            record = {"board": b.compact, "distance": len(moves), "moves": moves}
            out.write(json_line(record))
        return 0
    out.write(f"{len(boards)}\n")
    for b in boards:
        out.write(f"{b}\n")
    return 0


register = command(
    "random",
    _cmd_random,
    number("--distance", "D", "moves to the target", required=True),
    number("--count", "N", "how many boards", required=True),
    SEED,
    help="a batch of random boards at an exact distance",
    description="Print a classic batch (T, then the boards) of N distinct boards "
    "drawn uniformly from those exactly D moves from the target: from the distance "
    "table, else from the compact table (built once when needed, said on a terminal), "
    "which draws at random until it has them; the rarest distances need the distance "
    f"table (bitknights table build, {estimates.about(estimates.TABLE_BUILD)} once), "
    "which lists every board at each.",
    formats=(
        "a classic batch (T, then the boards)",
        "one record a line with the board, its distance and one optimal solution",
    ),
)  # fmt: skip
