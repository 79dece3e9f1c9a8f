"""``bitknights stats``: how many boards lie at each distance (from the table's header)."""

from __future__ import annotations

from .. import estimates
from ..batch import json_line
from ..service import service
from .common import Environment, command, read_target, slashed

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _cmd_stats(args: argparse.Namespace, env: Environment) -> int:
    from ..board import Board

    out = env.out
    # the header has it all (no numba), but a damaged file is reported, not summarised
    record = service(read_target(args, env), cache_dir=args.cache_dir).table_stats()
    if args.format == "json":
        out.write(json_line(record))
        return 0
    layers, boards = record["layers"], record["boards"]
    reach = sum(layers)
    out.write(
        f"target {slashed(Board(record['target']))}: {boards:,} boards, "
        f"{'all' if reach == boards else f'{reach:,}'} reach it\n"
        f"{'distance':>8}  {'boards':>12}  {'cumulative':>12}\n"
    )
    cumulative = 0
    for d, n in enumerate(layers):
        cumulative += n
        out.write(f"{d:>8}  {n:>12,}  {cumulative:>12,}\n")
    out.write(f"farthest: {record['max_distance']} moves, for example\n"
              f"{Board(record['example'])}\n")  # fmt: skip
    return 0


register = command(
    "stats",
    _cmd_stats,
    help="how many boards lie at each distance (needs the table)",
    description="How many boards lie at each distance from the target, the largest "
    "distance and a board there. Needs the distance table (bitknights table build, "
    f"{estimates.about(estimates.TABLE_BUILD)} once): the counts are over all the "
    "boards there are.",
    formats=("a table of distances", "one JSON object"),
)
