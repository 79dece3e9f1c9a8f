"""The ``solutions`` command: every optimal move sequence of a board, streamed one a line
(:mod:`bitknights.table.solutions`)."""

from __future__ import annotations

import time

from .. import progress
from ..board import never_reaches
from ..errors import plural
from .common import (
    BOARD,
    Environment,
    ExitStatus,
    command,
    number,
    read_answers,
    read_boards,
    slashed,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _cmd_solutions(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    board = read_boards(args.board, env)[0]
    answers = read_answers(args, env)
    why = never_reaches(board, answers.target)
    if why is not None:  # a verdict, said even through a pipe: stdout stays empty
        env.say(f"bitknights: no solution: {slashed(board)} {why}\n")
        return ExitStatus.INVALID
    t0 = time.perf_counter()
    written, steps, source = 0, None, "--limit 0"
    if args.limit != 0:
        from ..service import solution_lines

        source, chunks = answers.solution_paths(board, limit=args.limit, quiet=args.quiet)
        # on a terminal: sequences so far, of how many once a table has counted them
        binary = getattr(out, "buffer", None)
        bar = progress.bar(None, " sequences", "listing")
        try:
            for data, rows, moves in solution_lines(chunks, json=args.format == "json"):
                with progress.writing(out):  # ASCII bytes, to the binary buffer when there is one
                    if binary is None:
                        out.write(bytes(data).decode("ascii"))
                    else:
                        out.flush()
                        binary.write(data)
                        binary.flush()
                written, steps = written + rows, moves
                count = getattr(chunks, "count", None)
                if count is not None and bar.total is None:
                    progress.set_total(bar, count if args.limit is None else min(count, args.limit))
                bar.update(rows)
        finally:
            bar.close()
    if not env.feedback(args.quiet):
        return 0
    if args.limit == 0:
        what = "nothing listed"
    elif steps is None:
        what = "no optimal move sequence (the board never reaches the target)"
    else:
        what = f"{plural(written, 'optimal move sequence', ',')} of {plural(steps, 'move', ',')}"
        if args.limit is not None and written == args.limit:
            what += f" (--limit {args.limit}; there may be more)"
    from_ = {"table": "from the distance table", "compact": "from the compact distance table",
             "search": "by search"}.get(source, source)  # fmt: skip
    env.say(f"bitknights: {what}, {from_}, {time.perf_counter() - t0:.2f} s\n")
    return 0


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
