"""``bitknights solve``: the classic batch job, and JSON Lines."""

from __future__ import annotations

import argparse
import codecs
import io
import time
from collections.abc import Iterable, Iterator
from typing import IO

from .. import progress
from ..api import DEFAULT_MAX_DEPTH, ENGINE_CHOICES, choose_engine, iter_solve
from ..batch import BatchReader, classic_lines, json_lines
from ..board import Board
from ..engines import SEARCH_ENGINES, get_module
from ..errors import InputError
from ..solution import Solution
from . import streams
from .common import UsageError, add_target_options, non_negative, positive_float, read_target, where

# Boards per write for the search engines, adapted so that each piece takes about
# PIECE_SECONDS: answers appear as found and the progress bar moves smoothly.
PIECE_SECONDS = 0.25
PIECE_MAX = 4096


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``solve`` to the command line's subparsers."""
    p = sub.add_parser(
        "solve",
        help="solve a batch of boards in the classic format",
        description="Read T and then T boards (classic SCOI2005 format) and print, for each, "
        "the fewest moves to the target, or -1 when that is more than the limit.",
    )
    p.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the batch to read; '-' or nothing reads standard input",
    )
    p.add_argument(
        "--engine", choices=ENGINE_CHOICES, default="auto", help="search engine (default: auto)"
    )
    depth = p.add_mutually_exclusive_group()
    depth.add_argument(
        "--max-depth",
        type=non_negative,
        default=DEFAULT_MAX_DEPTH,
        metavar="N",
        help=f"answer -1 beyond N moves (default: {DEFAULT_MAX_DEPTH})",
    )
    depth.add_argument(
        "--exact",
        action="store_true",
        help="no move limit: every board is solved exactly, however far",
    )
    add_target_options(p, cache_dir_help="where distance tables live (for --engine table/auto)")
    p.add_argument(
        "--count-solutions",
        action="store_true",
        help="with --format json: add optimal_solutions, the number of distinct optimal "
        "move sequences (needs the distance table)",
    )
    p.add_argument(
        "--path", action="store_true", help="follow each answer with one optimal move sequence"
    )
    p.add_argument(
        "--format",
        choices=("classic", "json"),
        default="classic",
        help="classic: one integer per line; json: one JSON object per line",
    )
    p.add_argument("--timeout", type=positive_float, metavar="SECONDS",
                   help="give up on a board after SECONDS (reported as timed out: -1, "
                   "status 'timeout' in JSON)")  # fmt: skip
    p.add_argument("--workers", type=non_negative, default=0, metavar="N",
                   help="threads for the search engines (default 0: one per CPU)")  # fmt: skip
    p.add_argument("--ascii", action="store_true",
                   help="with --path: draw boards with 0 1 * even on a UTF-8 terminal")  # fmt: skip
    p.add_argument("--quiet", action="store_true",
                   help="errors only on standard error: no progress bar, no notes")  # fmt: skip
    p.set_defaults(run=_cmd_solve)


def _cmd_solve(args: argparse.Namespace, out: IO[str]) -> int:
    from ..table import store

    progress.set_quiet(args.quiet)
    target = read_target(args)
    if args.count_solutions:
        if args.format != "json":
            raise UsageError("--count-solutions needs --format json")
        if args.engine not in ("auto", "table"):
            raise UsageError("--count-solutions needs --engine table (or auto)")
        args.engine = "table"  # which raises a clear error when there is no table
    with store.using_cache_dir(args.cache_dir):
        return _solve(args, target, out)


def _solve(args: argparse.Namespace, target: Board, out: IO[str]) -> int:
    max_depth = None if args.exact else args.max_depth
    counts_only = args.format == "classic" and not args.path and args.timeout is None
    with streams.open_input(args.file) as stream:
        prefix = b""
        if counts_only and args.engine in ("auto", "table"):
            prefix = streams.small_input(stream, args.file)
            if prefix is not None and _answer_from_table(prefix, args.file, target, max_depth, out):
                return 0
        engine = choose_engine(args.engine, max_depth, target, counts_only=counts_only)
        chunks, total = streams.checked_chunks(stream, args.file, prefix or b"")
        bar = streams.progress_bar(total, args.quiet)
        try:
            if counts_only:
                _solve_steps(chunks, engine, target, max_depth, args.workers, out, bar)
            else:
                _solve_records(chunks, engine, target, max_depth, args, out, bar)
        finally:
            bar.close()
    return 0


def _answer_from_table(
    data: bytes, path: str, target: Board, max_depth: int | None, out: IO[str]
) -> bool:
    """Answer a small input from the distance table in plain Python (no numpy); False,
    having written nothing, when the input is not small or there is no valid table."""
    from ..engines import depth_limit
    from ..table import lookup, store

    if len(data) > streams.SMALL_INPUT:
        return False
    try:
        table = store.load(target)
    except store.TableError:
        return False
    try:
        keys = [k for chunk in BatchReader(io.BytesIO(data)).key_lists() for k in chunk]
    except InputError as e:
        raise UsageError(f"{where(path)}{e}") from None
    steps = lookup.distances(table, keys, depth_limit(max_depth))
    out.write("\n".join(map(str, steps)) + "\n")
    return True


def _solve_steps(chunks, engine, target, max_depth, workers, out, bar) -> None:
    """Classic output through the engine's batch entry point, written in bulk (the
    search engines in pieces sized to take about ``PIECE_SECONDS`` each)."""
    from ..engines.common import default_workers

    module = get_module(engine)
    search = engine in SEARCH_ENGINES
    piece = max(1, workers or default_workers())
    for chunk in chunks:
        lo = 0
        while lo < len(chunk):
            keys = chunk[lo : lo + piece] if search else chunk
            t0 = time.perf_counter()
            steps = module.steps_many(keys, target, max_depth, workers=workers)
            with progress.writing(out):
                out.write("\n".join(map(str, steps.tolist())) + "\n")
                out.flush()
            bar.update(len(keys))
            lo += len(keys)
            if search:
                piece = _next_piece(piece, len(keys), time.perf_counter() - t0)


def _next_piece(piece: int, done: int, seconds: float) -> int:
    """The next piece's size: about ``PIECE_SECONDS`` at the rate just seen, at most
    twice the last one and at most ``PIECE_MAX``; never below the current size's floor.

    >>> _next_piece(2, 2, 0.001), _next_piece(512, 512, 2.0), _next_piece(4096, 4096, 0.0)
    (4, 64, 4096)
    """
    if done < piece:  # the chunk ended: nothing learnt about the size
        return piece
    want = int(done * PIECE_SECONDS / seconds) if seconds > 0 else PIECE_MAX
    return max(1, min(want, 2 * done, PIECE_MAX))


def _solve_records(chunks, engine, target, max_depth, args, out, bar) -> None:
    """One Solution per board (JSON Lines, paths or timeouts), in input order."""
    boards = (Board.from_key(k) for chunk in chunks for k in chunk.tolist())
    solutions = iter_solve(boards, engine=engine, max_depth=max_depth, target=target,
                           timeout=args.timeout, workers=args.workers,
                           count_solutions=args.count_solutions)  # fmt: skip
    if args.format == "json":
        lines: Iterator[str] = json_lines(solutions, path=args.path)
    elif args.path:
        lines = _classic_with_paths(solutions, _unicode_ok(out, args.ascii))
    else:
        lines = classic_lines(solutions)
    for line in lines:
        with progress.writing(out):
            out.write(line)
            out.flush()
        bar.update(1)


def _unicode_ok(out: IO[str], ascii_only: bool) -> bool:
    """Knight glyphs only on a terminal that takes UTF-8 (piped output stays plain)."""
    if ascii_only or not out.isatty():
        return False
    try:
        return codecs.lookup(out.encoding or "ascii").name == "utf-8"
    except LookupError:
        return False


def _classic_with_paths(solutions: Iterable[Solution], unicode: bool) -> Iterator[str]:
    from ..textview import path_text

    for s in solutions:
        yield f"{-1 if s.steps is None else s.steps}\n{path_text(s, unicode=unicode)}\n\n"
