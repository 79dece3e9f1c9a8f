"""The ``solutions`` command: every optimal move sequence of a board, streamed one a line
(:mod:`bitknights.table.solutions`)."""

from __future__ import annotations

import time

from .. import progress
from ..board import never_reaches
from .common import (
    add_board_argument,
    add_command,
    non_negative,
    plural,
    read_board_argument,
    read_target,
    slashed,
)
from .environment import ExitStatus

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    import numpy as np

    from .environment import Environment


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``solutions`` to the command line's subparsers."""
    p = add_command(
        sub,
        "solutions",
        help="every optimal move sequence of a board, one a line",
        description="List every distinct optimal move sequence from BOARD to the target, "
        "streamed as they are found, in lexicographic order of the squares the knights "
        "jump from (reading order: a5, b5, ..., e1). From the distance table when there is "
        "one (every distance it reads is confirmed), else by search (IDA*, said once on "
        "standard error). On a terminal a summary line follows on standard error. A "
        "board that never reaches the target (other knight counts) gets one line saying "
        "why, and exit status 1.",
        formats=(
            "one sequence a line, moves FROM-TO separated by spaces",
            "one object a line: moves (a list of FROM-TO) and index (from 0)",
        ),
    )
    add_board_argument(p)
    p.add_argument(
        "--limit", type=non_negative, metavar="N", help="stop after the first N sequences"
    )
    p.set_defaults(run=_cmd_solutions)


def _cmd_solutions(args: argparse.Namespace, env: Environment) -> int:
    from ..optimal import solution_paths

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
        source, chunks = solution_paths(board, limit=args.limit, target=target,
                                        cache_dir=args.cache_dir, quiet=args.quiet)  # fmt: skip
        form = _json_block if args.format == "json" else _text_block
        for chunk in chunks:
            steps = chunk.shape[1] - 1
            with progress.writing(out):
                out.write(form(chunk, written))
                out.flush()
            written += len(chunk)
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
    from_ = {"table": "from the distance table", "search": "by search"}.get(source, source)
    env.say(f"bitknights: {what}, {from_}, {seconds:.2f} s\n")


def _cells(chunk: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``table[code]`` for every move of every path: (paths, moves, width) bytes."""
    import numpy as np

    codes = chunk[:, 1:].astype(np.intp) * 25 + chunk[:, :-1]
    return table[codes]  # type: ignore[no-any-return]


def _move_bytes(template: str) -> np.ndarray:
    """One row of bytes per move code (``from * 25 + to``): ``template`` with ``{}``
    replaced by the move's name."""
    import numpy as np

    from ..board import Move

    rows = [template.format(Move(f, t)).encode() for f in range(25) for t in range(25)]
    return np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(625, -1)


_TEXT: list[np.ndarray] = []
_JSON: list[np.ndarray] = []


def _text_block(chunk: np.ndarray, first: int) -> str:
    """The text lines of a chunk of paths: moves separated by spaces, one path a line."""
    m, steps = chunk.shape[0], chunk.shape[1] - 1
    if steps == 0:
        return "\n" * m
    if not _TEXT:
        _TEXT.append(_move_bytes("{} "))
    cells = _cells(chunk, _TEXT[0]).reshape(m, -1)
    cells[:, -1] = ord("\n")
    return cells.tobytes().decode("ascii")


def _json_block(chunk: np.ndarray, first: int) -> str:
    """The JSON Lines of a chunk of paths, indexed from ``first``."""
    m, steps = chunk.shape[0], chunk.shape[1] - 1
    if steps == 0:
        return "".join(f'{{"moves":[],"index":{first + i}}}\n' for i in range(m))
    if not _JSON:
        _JSON.append(_move_bytes('"{}",'))
    width = steps * 8
    text = _cells(chunk, _JSON[0]).tobytes().decode("ascii")
    return "".join(
        f'{{"moves":[{text[i * width : (i + 1) * width - 1]}],"index":{first + i}}}\n'
        for i in range(m)
    )
