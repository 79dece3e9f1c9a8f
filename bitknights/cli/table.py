"""The distance-table commands: ``table build``, ``table info``, ``stats``, ``random`` and
``hint``.  Each handler takes the parsed arguments and the output stream and returns the
exit status."""

from __future__ import annotations

import os
import time

from .. import estimates, progress
from ..board import Board, Move, never_reaches
from ..errors import BitknightsError, InputError
from .common import (
    OPTIMAL_MARK,
    ResourceError,
    UsageError,
    add_format_option,
    add_quiet_option,
    add_target_options,
    board_argument,
    json_line,
    non_negative,
    plural,
    read_source,
    read_target,
    refused,
    stdin_notice,
    where,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import IO, Any


def register(sub: argparse._SubParsersAction) -> None:
    """Add the table commands to the command line's subparsers."""
    t = sub.add_parser(
        "table",
        help="build or inspect the exhaustive distance table",
        description="The exhaustive distance table: every board's exact distance to a "
        "target, one byte per board (about 68 MB) in the user cache directory.",
    )
    tsub = t.add_subparsers(dest="table_command", metavar="ACTION")
    tsub.required = True
    p = tsub.add_parser(
        "build",
        help="enumerate every board's distance "
        f"({estimates.about(estimates.TABLE_BUILD)}) and store the table",
        description="Breadth-first search from the target over all 25 * C(24, k) boards "
        f"({estimates.about(estimates.TABLE_BUILD)} for the classic target on two cores); "
        "writes the table atomically, replacing any file there (valid or not).",
    )
    p.add_argument(
        "--verbose",
        action="store_true",
        help="also log each distance: the boards found there, how (pushed or pulled, "
        "explained in the log) and the seconds so far",
    )
    add_target_options(p)
    add_quiet_option(p)
    p.set_defaults(run=_cmd_build)
    p = tsub.add_parser(
        "info",
        help="where the table is and whether it is valid",
        description="Check the table file in full; exit status 0 when valid, 1 otherwise.",
    )
    add_target_options(p)
    add_format_option(p, "a few lines for people", "one JSON object")
    add_quiet_option(p)
    p.set_defaults(run=_cmd_info)
    p = tsub.add_parser(
        "verify",
        help=f"prove every distance in the table exact ({estimates.about(estimates.TABLE_PROOF)})",
        description="Check the checksums, then prove the table exact without trusting "
        "them: 0 only at the target, every other board one move from a board one nearer, "
        "neighbours never more than one apart "
        f"({estimates.about(estimates.TABLE_PROOF)}). Exit status 0 when exact, 1 otherwise.",
    )
    add_target_options(p)
    add_quiet_option(p)
    p.set_defaults(run=_cmd_verify)

    p = sub.add_parser(
        "stats",
        help="how many boards lie at each distance (needs the table)",
        description="How many boards lie at each distance from the target, the largest "
        "distance and a board there. Needs the distance table (bitknights table build, "
        f"{estimates.about(estimates.TABLE_BUILD)} once): the counts are over all the "
        "boards there are.",
    )
    add_target_options(p)
    add_format_option(p, "a table of distances", "one JSON object")
    add_quiet_option(p)
    p.set_defaults(run=_cmd_stats)

    p = sub.add_parser(
        "random",
        help="a batch of random boards at an exact distance (needs the table)",
        description="Print a classic batch (T, then the boards) of N distinct boards "
        "drawn uniformly from those exactly D moves from the target. Needs the distance "
        f"table (bitknights table build, {estimates.about(estimates.TABLE_BUILD)} once): a "
        "uniform draw needs every board at that distance.",
    )
    p.add_argument(
        "--distance", type=non_negative, required=True, metavar="D", help="moves to the target"
    )
    p.add_argument("--count", type=non_negative, required=True, metavar="N", help="how many boards")
    p.add_argument("--seed", type=non_negative, metavar="S", help="the same seed, the same boards")
    add_format_option(
        p,
        "a classic batch (T, then the boards)",
        "one record a line with the board, its distance and one optimal solution",
    )
    add_target_options(p)
    add_quiet_option(p)
    p.set_defaults(run=_cmd_random)

    p = sub.add_parser(
        "hint",
        help="every legal move of a board and the distance it leads to",
        description="For a board, each legal move, the board it makes and that board's "
        f"distance; optimal moves are marked '{OPTIMAL_MARK}'. A batch file (T, then T "
        "boards) is hinted board by board. Distances come from the distance table, or "
        "without one from exact search (said on a terminal); --count-solutions needs the "
        "table.",
    )
    p.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE|BOARD",
        help="a file with a board (five rows, or its 25 characters) or a batch, or a board "
        "itself written 10110/01*11/10111/01001/00000; '-' or nothing reads standard input",
    )
    add_format_option(
        p,
        "the board, its distance and one line per move",
        "one JSON object per board (distance, moves)",
    )
    p.add_argument(
        "--count-solutions",
        action="store_true",
        help="also count each board's distinct optimal move sequences (optimal_solutions in JSON)",
    )
    add_quiet_option(p)
    add_target_options(p)
    p.set_defaults(run=_cmd_hint)


# -- shared helpers ---------------------------------------------------------------------


def _load(args: argparse.Namespace, target: Board | None = None) -> Any:
    from ..table import load_table

    return load_table(target or read_target(args), cache_dir=args.cache_dir)


def _rows(board: Board) -> str:
    return "/".join(board.rows())


# -- table build / info -----------------------------------------------------------------


def _cmd_build(args: argparse.Namespace, out: IO[str]) -> int:
    from ..table import store
    from ..table.builder import build_table

    target = read_target(args)
    t0 = time.perf_counter()
    try:
        file = build_table(target, args.cache_dir, quiet=args.quiet or None, verbose=args.verbose)
    except OSError as e:
        path = store.table_path(target, args.cache_dir)
        message = f"cannot write distance table {path}: {e.strerror or e}"
        raise (ResourceError if refused(e) else BitknightsError)(message) from None
    seconds = time.perf_counter() - t0
    size = os.path.getsize(file.path)
    out.write(
        f"built {file.path}\n"
        f"{file.state_count:,} boards, farthest {file.max_distance} moves, "
        f"{size:,} bytes, {seconds:.1f} s\n"
    )
    return 0


def _cmd_info(args: argparse.Namespace, out: IO[str]) -> int:
    from ..table import store

    target = read_target(args)
    path = store.table_path(target, args.cache_dir)
    record: dict[str, Any] = {"path": str(path), "target": target.compact}
    try:
        file = store.load(target, args.cache_dir)
        file.verify()
    except store.TableError as e:
        record.update(valid=False, problem=str(e))
    else:
        st = path.stat()
        record.update(
            valid=True,
            format_version=store.FORMAT_VERSION,
            black_knights=file.black_count,
            boards=file.state_count,
            unreachable=file.unreachable,
            max_distance=file.max_distance,
            bytes=st.st_size,
            built=time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(st.st_mtime)),
        )
    if args.format == "json":
        out.write(json_line(record))
    elif record["valid"]:
        out.write(
            f"path: {record['path']}\n"
            f"target: {_rows(target)}\n"
            f"status: valid (format version {record['format_version']}, checksums match)\n"
            f"boards: {record['boards']:,} ({record['black_knights']} black knights), "
            f"{record['unreachable']:,} unreachable\n"
            f"farthest: {record['max_distance']} moves\n"
            f"size: {record['bytes']:,} bytes\n"
            f"built: {record['built']}\n"
        )
    else:
        out.write(f"path: {record['path']}\ntarget: {_rows(target)}\nstatus: {record['problem']}\n")
    return 0 if record["valid"] else 1


def _cmd_verify(args: argparse.Namespace, out: IO[str]) -> int:
    from ..table import store

    try:
        file = store.load(read_target(args), args.cache_dir, reprove=True)
    except store.TableError as e:
        out.write(f"status: {e}\n")
        return 1
    out.write(
        f"path: {file.path}\nchecksums: match\n"
        f"status: exact: all {file.state_count:,} distances proven against their neighbours\n"
    )
    return 0


# -- stats / random / hint --------------------------------------------------------------


def _cmd_stats(args: argparse.Namespace, out: IO[str]) -> int:
    from ..table import store

    table = store.load(read_target(args), args.cache_dir)  # the header has it all: no numba
    table.verify()  # but a damaged file is reported, not summarised
    layers = list(table.layers)
    example = table.example()
    if args.format == "json":
        record = {
            "target": table.target.compact,
            "boards": table.state_count,
            "unreachable": table.unreachable,
            "layers": layers,
            "max_distance": table.max_distance,
            "example": example.compact,
        }
        out.write(json_line(record))
        return 0
    reach = sum(layers)
    out.write(
        f"target {_rows(table.target)}: {table.state_count:,} boards, "
        f"{'all' if reach == table.state_count else f'{reach:,}'} reach it\n"
        f"{'distance':>8}  {'boards':>12}  {'cumulative':>12}\n"
    )
    cumulative = 0
    for d, n in enumerate(layers):
        cumulative += n
        out.write(f"{d:>8}  {n:>12,}  {cumulative:>12,}\n")
    out.write(f"farthest: {table.max_distance} moves, for example\n{example}\n")
    return 0


def _cmd_random(args: argparse.Namespace, out: IO[str]) -> int:
    if args.count == 0:
        raise UsageError("--count must be at least 1")
    from ..service import service

    answers = service(read_target(args), engine="table", cache_dir=args.cache_dir)
    boards = answers.random_boards(args.distance, args.count, args.seed)
    if args.format == "json":
        for b in boards:
            path = answers.path(b)
            assert path is not None  # a drawn board lies at its distance
            moves = [str(Move(y.blank, x.blank)) for x, y in zip(path, path[1:])]
            record = {"board": b.compact, "distance": len(moves), "moves": moves}
            out.write(json_line(record))
        return 0
    out.write(f"{len(boards)}\n")
    for b in boards:
        out.write(f"{b}\n")
    return 0


def _read_boards(path: str, quiet: bool) -> list[Board]:
    """The boards to hint: a board given as the argument, or a file (or standard input)
    holding one board (five rows, or its 25 characters) or a classic batch."""
    from ..batch import read_batch, read_board
    from ..board import parse_row

    board = board_argument(path)
    if board is not None:
        return [board]
    form = "five rows of 0 1 *, or a batch (T, then T boards)"
    stdin_notice(path, "a board", form, quiet)
    text = read_source(path)
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


def _cmd_hint(args: argparse.Namespace, out: IO[str]) -> int:
    from ..service import service

    progress.set_quiet(args.quiet)
    boards = _read_boards(args.file, args.quiet)
    answers = service(read_target(args), cache_dir=args.cache_dir)
    if args.count_solutions:
        _load(args)  # counting needs the table: without one, its error says the fix
    elif answers.source != "table":
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
        tail = "" if here == 0 else f"; {best} of {plural(len(hints), 'move')} optimal"
        if solutions is not None:
            tail += f"; {plural(solutions, 'optimal move sequence')}"
        out.write(f"distance {here}{tail}\n")
    for h in hints:
        mark = OPTIMAL_MARK if h.optimal else " "
        dist = "-" if h.distance is None else str(h.distance)
        out.write(f"{mark} {h.move!s:<6} {dist:>3}  {_rows(h.board)}\n")
