"""``bitknights table``: ``build``, ``info`` and ``verify`` the distance table."""

from __future__ import annotations

import os
import time

from .. import estimates, progress
from ..batch import json_line
from ..errors import BitknightsError
from ..service import service
from ..table import TableError, table_path
from .common import Environment, ResourceError, arg, command, read_target, refused, slashed

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def _cmd_build(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    answers = service(read_target(args, env), cache_dir=args.cache_dir)
    t0 = time.perf_counter()
    try:
        with progress.feedback(log=args.verbose and not args.quiet):
            file = answers.build_table()
    except OSError as e:
        path = table_path(answers.target, answers.cache_dir)
        message = f"cannot write distance table {path}: {e.strerror or e}"
        raise (ResourceError if refused(e) else BitknightsError)(message) from None
    seconds = time.perf_counter() - t0
    size = os.path.getsize(file.path)
    summary = f"{file.state_count:,} boards, farthest {file.max_distance} moves"
    if env.stdout_isatty:  # one line a person reads; a pipe keeps the two it always had
        where, home = os.path.dirname(file.path), os.path.expanduser("~")
        if where.startswith(home + os.sep):
            where = "~" + where[len(home) :]
        out.write(f"built: {summary}, {size / 1e6:.0f} MB in {where} ({seconds:.1f} s)\n")
    else:
        out.write(f"built {file.path}\n{summary}, {size:,} bytes, {seconds:.1f} s\n")
    return 0


def _cmd_info(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    answers = service(read_target(args, env), cache_dir=args.cache_dir)
    record = answers.table_info()
    if args.format == "json":
        out.write(json_line(record))
        return 0 if record["valid"] else 1
    out.write(f"path: {record['path']}\ntarget: {slashed(answers.target)}\n")
    if record["valid"]:
        out.write(
            f"status: valid (format version {record['format_version']}, checksums match)\n"
            f"boards: {record['boards']:,} ({record['black_knights']} black knights), "
            f"{record['unreachable']:,} unreachable\n"
            f"farthest: {record['max_distance']} moves\n"
            f"size: {record['bytes']:,} bytes\n"
            f"built: {record['built']}\n"
        )
    else:
        out.write(f"status: {record['problem']}\n")
    return 0 if record["valid"] else 1


def _cmd_verify(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    try:
        file = service(read_target(args, env), cache_dir=args.cache_dir).prove_table()
    except TableError as e:
        out.write(f"status: {e}\n")
        return 1
    out.write(
        f"path: {file.path}\nchecksums: match\n"
        f"status: exact: all {file.state_count:,} distances proven against their neighbours\n"
    )
    return 0


_ACTIONS = (
    command(
        "build",
        _cmd_build,
        arg("--verbose", action="store_true",
            help="also log each distance: the boards found there, how (pushed or pulled, "
            "explained in the log) and the seconds so far"),
        help="enumerate every board's distance "
        f"({estimates.about(estimates.TABLE_BUILD)}) and store the table",
        description="Breadth-first search from the target over all 25 * C(24, k) boards "
        f"({estimates.about(estimates.TABLE_BUILD)} for the classic target on two cores); "
        "writes the table atomically, replacing any file there (valid or not).",
    ),
    command(
        "info",
        _cmd_info,
        help="where the table is and whether it is valid",
        description="Check the table file in full; exit status 0 when valid, 1 otherwise.",
        formats=("a few lines for people", "one JSON object"),
    ),
    command(
        "verify",
        _cmd_verify,
        help=f"prove every distance in the table exact ({estimates.about(estimates.TABLE_PROOF)})",
        description="Check the checksums, then prove the table exact without trusting "
        "them: 0 only at the target, every other board one move from a board one nearer, "
        "neighbours never more than one apart "
        f"({estimates.about(estimates.TABLE_PROOF)}). Exit status 0 when exact, 1 otherwise.",
    ),
)  # fmt: skip


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``table`` and its actions to the command line's subparsers."""
    t = sub.add_parser(
        "table",
        help="build or inspect the exhaustive distance table",
        description="The exhaustive distance table: every board's exact distance to a "
        "target, one byte per board (about 68 MB) in the user cache directory.",
    )
    tsub = t.add_subparsers(dest="table_command", metavar="ACTION")
    tsub.required = True
    for action in _ACTIONS:
        action(tsub)
