"""The ``solutions`` command: every optimal move sequence of a board, streamed one a line
(:mod:`bitknights.table.solutions`)."""

from __future__ import annotations

import time

from .. import progress
from ..board import never_reaches
from .common import (
    BOARD,
    command,
    number,
    plural,
    read_board_argument,
    read_target,
    slashed,
)
from .environment import ExitStatus

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import IO

    from .environment import Environment


def _cmd_solutions(args: argparse.Namespace, env: Environment) -> int:
    from ..api import solution_paths

    out = env.out
    board = read_board_argument(args.board, env)
    target = read_target(args, env)
    why = never_reaches(board, target)
    if why is not None:  # a verdict, said even through a pipe: stdout stays empty
        env.say(f"bitknights: no solution: {slashed(board)} {why}\n")
        return ExitStatus.INVALID
    t0 = time.perf_counter()
    written, steps = 0, None
    if args.limit != 0:
        from ..service import solution_lines

        source, chunks = solution_paths(board, limit=args.limit, target=target,
                                        cache_dir=args.cache_dir, quiet=args.quiet)  # fmt: skip
        with _Progress(chunks, args) as shown:
            for data, rows, moves in solution_lines(chunks, json=args.format == "json"):
                with progress.writing(out):
                    _write(out, data)
                written, steps = written + rows, moves
                shown.update(rows)
    else:
        source = "--limit 0"
    if env.feedback(args.quiet):
        _summary(env, written, steps, args.limit, source, time.perf_counter() - t0)
    return 0


def _summary(
    env: Environment,
    written: int,
    steps: int | None,
    limit: int | None,
    source: str,
    seconds: float,
) -> None:
    if limit == 0:
        what = "nothing listed"
    elif steps is None:
        what = "no optimal move sequence (the board never reaches the target)"
    else:
        what = f"{plural(written, 'optimal move sequence')} of {plural(steps, 'move')}"
        if limit is not None and written == limit:
            what += f" (--limit {limit}; there may be more)"
    from_ = {"table": "from the distance table", "compact": "from the compact distance table",
             "search": "by search"}.get(source, source)  # fmt: skip
    env.say(f"bitknights: {what}, {from_}, {seconds:.2f} s\n")


def _write(out: IO[str], data: bytes | memoryview) -> None:
    """Write ASCII bytes to ``out`` in one call: to its binary buffer when it has one."""
    binary = getattr(out, "buffer", None)
    if binary is None:
        out.write(bytes(data).decode("ascii"))
        return
    out.flush()
    binary.write(data)
    binary.flush()


class _Progress:
    """On a terminal (standard error), a progress line while a listing runs: sequences
    so far, of how many there are once a table has counted them (it does as it starts,
    after the first line); gone at the end."""

    def __init__(self, chunks: object, args: argparse.Namespace) -> None:
        self._chunks = chunks
        self._limit = args.limit
        self._bar = progress.bar(None, " sequences", "listing", quiet=args.quiet or None)

    def update(self, n: int) -> None:
        count = getattr(self._chunks, "count", None)
        if count is not None and self._bar.total is None:
            progress.set_total(self._bar, count if self._limit is None else min(count, self._limit))
        self._bar.update(n)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.close()


register = command(
    "solutions",
    _cmd_solutions,
    BOARD,
    number("--limit", "N", "stop after the first N sequences"),
    help="every optimal move sequence of a board, one a line",
    description="List every distinct optimal move sequence from BOARD to the target, "
    "streamed as they are found, in lexicographic order of the squares the knights "
    "jump from (reading order: a5, b5, ..., e1). From the distance table when there is "
    "one, else from the compact table when it is there or the board is far (it is "
    "built once, said on a terminal), else by search (IDA*, said once on standard "
    "error). On a terminal a progress line shows how many so far of how many, and a "
    "summary line follows on standard error. A board that never reaches the target "
    "(other knight counts) gets one line saying why, and exit status 1.",
    formats=(
        "one sequence a line, moves FROM-TO separated by spaces",
        "one object a line: moves (a list of FROM-TO) and index (from 0)",
    ),
)  # fmt: skip
