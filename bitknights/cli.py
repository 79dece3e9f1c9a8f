"""The ``bitknights`` command line.  ``python -m bitknights`` runs the same."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, BinaryIO

from . import __version__
from .api import DEFAULT_MAX_DEPTH, ENGINE_CHOICES, choose_engine, iter_solve
from .batch import BatchReader, classic_lines, decode, json_lines, read_board
from .board import TARGET, Board
from .engines import SEARCH_ENGINES, get_module
from .errors import BitknightsError, InputError
from .solution import Solution

if TYPE_CHECKING:
    import numpy as np

KEEP_BOARDS = 1 << 21  # boards kept in memory from the checking pass
PIECE_SEARCH = 512  # boards per write for the search engines: answers appear as found
PROGRESS_MIN_BOARDS = 1000
SMALL_INPUT = 1 << 18
"""Inputs up to this many bytes (about 8,700 boards) asking only for move counts are
answered from the distance table, when there is one, in plain Python: no numpy import
(0.1 s), a few µs a board."""


class UsageError(Exception):
    """A problem the command line reports as ``bitknights: error: ...`` with status 2."""


def _read_source(path: str, what: str = "") -> str:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {what}{path}: {e.strerror or e}") from None
    try:
        return decode(data)
    except InputError as e:
        raise UsageError(f"{what}{_where(path)}{e}") from None


def _where(path: str) -> str:
    return "" if path == "-" else f"{path}: "


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bitknights",
        description="Exact solver for the 5x5 knights puzzle (SCOI2005).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

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
        type=_non_negative,
        default=DEFAULT_MAX_DEPTH,
        metavar="N",
        help=f"answer -1 beyond N moves (default: {DEFAULT_MAX_DEPTH})",
    )
    depth.add_argument(
        "--exact",
        action="store_true",
        help="no move limit: every board is solved exactly, however far",
    )
    p.add_argument(
        "--target",
        metavar="FILE",
        help="a file with the target board (five rows); default: the classic target",
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
    p.add_argument("--timeout", type=_positive_float, metavar="SECONDS",
                   help="give up on a board after SECONDS (reported as timed out: -1, "
                   "status 'timeout' in JSON)")  # fmt: skip
    p.add_argument("--workers", type=_non_negative, default=0, metavar="N",
                   help="threads for the search engines (default 0: one per CPU)")  # fmt: skip
    p.add_argument("--ascii", action="store_true",
                   help="with --path: draw boards with 0 1 * even on a UTF-8 terminal")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_cmd_solve)
    from .cli_table import add_parsers

    add_parsers(sub)
    return parser


def _cmd_solve(args: argparse.Namespace, out: IO[str]) -> int:
    target = TARGET
    if args.target is not None:
        try:
            target = read_board(_read_source(args.target, "target "))
        except InputError as e:
            raise UsageError(f"target {args.target}: {e}") from None
    max_depth = None if args.exact else args.max_depth
    counts_only = args.format == "classic" and not args.path and args.timeout is None
    with _open_input(args.file) as stream:
        prefix = b""
        if counts_only and args.engine in ("auto", "table"):
            prefix = _small_input(stream, args.file)
            if prefix is not None and _answer_from_table(prefix, args.file, target, max_depth, out):
                return 0
        engine = choose_engine(args.engine, max_depth, target, counts_only=counts_only)
        chunks, total = _checked_chunks(stream, args.file, prefix or b"")
        progress = _progress(total, args.quiet)
        try:
            if counts_only:
                _solve_steps(chunks, engine, target, max_depth, args.workers, out, progress)
            else:
                _solve_records(chunks, engine, target, max_depth, args, out, progress)
        finally:
            progress.close()
    return 0


def _open_input(path: str) -> BinaryIO:
    """The batch to read, opened once: every pass reads from this one stream, so no byte
    is lost when FILE is a pipe, a FIFO or ``/dev/stdin`` (issue 15, S1)."""
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)  # type: ignore[return-value]
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller's with
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def _small_input(stream: BinaryIO, path: str) -> bytes | None:
    """The input's first ``SMALL_INPUT + 1`` bytes, when it may be small (more than
    ``SMALL_INPUT`` of them: not small; the normal pass reads on from there, after these
    bytes).  ``None``, having read nothing, for a regular file larger than that."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError):  # no file behind it (tests, embedding): read on
        st = None
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_size > SMALL_INPUT:
        return None
    try:
        return stream.read(SMALL_INPUT + 1)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def _answer_from_table(
    data: bytes, path: str, target: Board, max_depth: int | None, out: IO[str]
) -> bool:
    """Answer a small input from the distance table in plain Python (no numpy); False,
    having written nothing, when the input is not small or there is no valid table."""
    from .engines import depth_limit
    from .table import lookup, store

    if len(data) > SMALL_INPUT:
        return False
    try:
        table = store.load(target)
    except store.TableError:
        return False
    try:
        keys = [k for chunk in BatchReader(io.BytesIO(data)).key_lists() for k in chunk]
    except InputError as e:
        raise UsageError(f"{_where(path)}{e}") from None
    steps = lookup.distances(table, keys, depth_limit(max_depth))
    out.write("\n".join(map(str, steps)) + "\n")
    return True


def _solve_steps(chunks, engine, target, max_depth, workers, out, progress) -> None:
    """Classic output through the engine's batch entry point, written in bulk."""
    module = get_module(engine)
    piece = PIECE_SEARCH if engine in SEARCH_ENGINES else None
    for chunk in chunks:
        for lo in range(0, len(chunk), piece or len(chunk)):
            keys = chunk[lo : lo + piece] if piece else chunk
            steps = module.steps_many(keys, target, max_depth, workers=workers)
            out.write("\n".join(map(str, steps.tolist())) + "\n")
            out.flush()
            progress.update(len(keys))


def _solve_records(chunks, engine, target, max_depth, args, out, progress) -> None:
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
        out.write(line)
        out.flush()
        progress.update(1)


def _checked_chunks(
    stream: BinaryIO, path: str, prefix: bytes = b""
) -> tuple[Iterable[np.ndarray], int]:
    """The whole input checked first (nothing is solved if any line is bad), then its
    boards as key arrays, and how many.  Up to ``KEEP_BOARDS`` boards are kept from the
    checking pass; a longer input is read again (a pipe from a temporary copy), so memory
    stays bounded.  ``prefix``: what was already read from ``stream``."""
    if prefix:
        stream = io.BufferedReader(_Prefixed(prefix, stream))
    spool = None
    try:
        if not stream.seekable():
            spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below or by _reread
            stream = _Tee(stream, spool)
        kept: list[np.ndarray] | None = []
        total = 0
        try:
            for chunk in BatchReader(stream).chunks():
                total += len(chunk)
                if kept is not None:
                    kept.append(chunk)
                    if total > KEEP_BOARDS:
                        kept = None
        except InputError as e:
            raise UsageError(f"{_where(path)}{e}") from None
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
        if kept is not None:
            return kept, total
        source = spool if spool is not None else stream
        source.seek(0)
        spool = None if spool is source else spool
        return _reread(source), total
    finally:
        if spool is not None:
            spool.close()


def _reread(source: BinaryIO) -> Iterator[np.ndarray]:
    with source:
        yield from BatchReader(source).chunks()


class _Tee(io.RawIOBase):
    """Reads from ``src`` and copies what it reads into ``copy``."""

    def __init__(self, src: BinaryIO, copy: BinaryIO) -> None:
        self._src, self._copy = src, copy

    def read(self, n: int = -1) -> bytes:
        data = self._src.read(n)
        self._copy.write(data)
        return data

    def seekable(self) -> bool:
        return False


class _Prefixed(io.RawIOBase):
    """``prefix``, then the rest of ``src``."""

    def __init__(self, prefix: bytes, src: BinaryIO) -> None:
        self._prefix, self._src = prefix, src

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n], self._prefix = self._prefix[:n], self._prefix[n:]
            return n
        data = self._src.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _NoProgress:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, quiet: bool) -> _NoProgress:
    """A progress bar on stderr for long batches when stderr is a terminal."""
    if quiet or total < PROGRESS_MIN_BOARDS or not sys.stderr.isatty():
        return _NoProgress()
    from tqdm import tqdm

    return tqdm(total=total, unit="board", file=sys.stderr, leave=False)


def _unicode_ok(out: IO[str], ascii_only: bool) -> bool:
    """Knight glyphs only on a terminal that takes UTF-8 (piped output stays plain)."""
    if ascii_only or not out.isatty():
        return False
    try:
        return codecs.lookup(out.encoding or "ascii").name == "utf-8"
    except LookupError:
        return False


def _classic_with_paths(solutions: Iterable[Solution], unicode: bool) -> Iterator[str]:
    from .textview import path_text

    for s in solutions:
        yield f"{-1 if s.steps is None else s.steps}\n{path_text(s, unicode=unicode)}\n\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, sys.stdout)
    except (UsageError, BitknightsError) as e:
        sys.stderr.write(f"bitknights: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        # worker threads may be deep in a kernel: leave without waiting for them
        sys.stderr.write("bitknights: interrupted\n")
        sys.stderr.flush()
        with contextlib.suppress(BrokenPipeError):
            sys.stdout.flush()
        os._exit(130)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def entry() -> None:
    """The console script: :func:`main`, then leave without the interpreter's slow
    teardown (numba and LLVM take 0.1-0.2 s to unload); everything is flushed first."""
    status = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = 0
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    entry()
