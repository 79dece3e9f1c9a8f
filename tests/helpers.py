"""Helpers shared by the tests (not in ``conftest.py``, which pytest alone imports)."""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import NamedTuple
from unittest import mock

from bitknights import TARGET, Board

SAMPLE = Path(__file__).parent.parent / "sample.txt"
SMALL = Board("11000/00000/00*00/00000/00000")
"""A target with two black knights: 25 * C(24, 2) = 6,900 boards, tables in milliseconds."""


def random_walk(board: Board, length: int, rng: random.Random) -> Board:
    """``length`` random legal moves from ``board`` (may revisit boards)."""
    for _ in range(length):
        board = board.play(rng.choice(board.moves()))
    return board


def random_board(rng: random.Random, black: int = 12) -> Board:
    """A uniformly random board with ``black`` black knights."""
    cells = ["1"] * black + ["0"] * (24 - black)
    rng.shuffle(cells)
    cells.insert(rng.randrange(25), "*")
    return Board("".join(cells))


def forge(path, rank, value=None):
    """Set payload bytes of a table file (``rank`` to ``value``, or a dict ``{rank: value}``),
    every checksum recomputed: a file that passes every integrity check but lies."""
    from bitknights.table import store

    edits = rank if isinstance(rank, dict) else {rank: value}
    with open(path, "r+b") as f:  # in place: the header and the blocks edited, not 67 MB

        def put(at: int, data: bytes) -> None:
            f.seek(at)
            f.write(data)

        size, nlayers = struct.unpack_from("<I12xI", f.read(32), 12)
        for r, v in edits.items():
            put(size + r, bytes([v]))
        for block in {r >> store.BLOCK_BITS for r in edits}:
            f.seek(size + (block << store.BLOCK_BITS))
            crc = zlib.crc32(f.read(1 << store.BLOCK_BITS))
            put(16 + store._FIELDS.size + 8 * nlayers + 4 * block, struct.pack("<I", crc))
        f.seek(0)
        put(size - 4, struct.pack("<I", zlib.crc32(f.read(size - 4))))
    store._loaded.clear()


def rewrite_header(path, offset: int, fmt: str, *values: int) -> None:
    """Change fields of a table file's header and re-sign the header, in place (a
    well-formed file that is stale or lies)."""
    with open(path, "r+b") as f:
        size = struct.unpack_from("<I", f.read(16), 12)[0]
        f.seek(0)
        head = bytearray(f.read(size - 4))
        struct.pack_into(fmt, head, offset, *values)
        f.seek(0)
        f.write(head + struct.pack("<I", zlib.crc32(head)))


def forge_compact(path, target, codes, layers=None):
    """Set the two-bit codes ``{rank: code}`` of a compact table file (and its layer count,
    when given), recomputing every checksum."""
    from bitknights import cache
    from bitknights.table import compact

    raw = bytearray(path.read_bytes())
    head = cache.header_size(bytes(raw))
    for r, c in codes.items():
        at, shift = head + (r >> 2), (r & 3) << 1
        raw[at] = (raw[at] & ~(3 << shift) & 0xFF) | (c << shift)
    fields = 16
    if layers is not None:
        struct.pack_into("<I", raw, fields + 12, layers)
    step = 1 << compact.BLOCK_BITS
    for block in {(r >> 2) // step for r in codes}:
        chunk = bytes(raw[head + block * step : head + (block + 1) * step])
        struct.pack_into("<I", raw, fields + compact.CompactTable.FIELDS.size + 4 * block,
                         zlib.crc32(chunk))  # fmt: skip
    struct.pack_into("<I", raw, head - 4, zlib.crc32(bytes(raw[: head - 4])))
    path.write_bytes(bytes(raw))


ODD_FILES = {  # what may stand at a file's path instead of a file: each made at ``path``
    "dev-zero": lambda p: p.symlink_to("/dev/zero"),
    "fifo": os.mkfifo,
    "directory": Path.mkdir,
    "huge": lambda p: p.touch() or os.truncate(p, 1 << 32),  # sparse: 4 GiB that take no disk
    "missing": lambda p: None,
}


def cache_env(path) -> contextlib.AbstractContextManager:
    """Within the block, ``BITKNIGHTS_CACHE_DIR`` names ``path``."""
    return mock.patch.dict(os.environ, BITKNIGHTS_CACHE_DIR=str(path))


def copy_table(table_dir, cache_dir, target: Board = TARGET) -> Path:
    """Copy the classic table of ``table_dir`` into ``cache_dir`` (made when missing) as
    ``target``'s; returns its path.  Proved when first used, unless :func:`record_proof`."""
    from bitknights.table import store

    Path(cache_dir).mkdir(mode=0o755, exist_ok=True)
    path = store.table_path(target, cache_dir)
    shutil.copyfile(store.table_path(TARGET, table_dir), path)
    store._loaded.clear()
    return path


def record_proof(cache_dir) -> None:
    """Record the proof of the genuine classic table copied into ``cache_dir``, as an
    earlier run would have left it (proving takes seconds)."""
    from bitknights import cache
    from bitknights.table import store

    file, st = store.open_unproved(TARGET, cache_dir)
    cache.record_proof(store.table_path(TARGET, cache_dir), st, file.tag, "distance table")


def write_compact(table, cache_dir) -> None:
    """Write the compact ``table`` into ``cache_dir`` with its proof, as a build leaves it."""
    from bitknights.table import compact

    compact._save(table.target, cache_dir, table.payload.tobytes(), table.max_distance + 1,
                  table.unreachable)  # fmt: skip


class Ran(NamedTuple):
    """What a run of ``bitknights ARGS`` gave, named as in :class:`subprocess.CompletedProcess`."""

    args: list[str]
    returncode: int
    stdout: str | bytes
    stderr: str | bytes


def run_bitknights(
    args, stdin: str | bytes = b"", *, env=None, cache_dir=None, text=True, closed=()
) -> Ran:
    """``bitknights ARGS`` run in this process as a subprocess with pipes would run it
    (``text``: output decoded; ``env`` over this environment, ``None`` unsets; ``cache_dir``
    as ``$BITKNIGHTS_CACHE_DIR``; the streams in ``closed`` closed).  As in a new process,
    the services start afresh and what is said once is said again; what ``main`` raises,
    raises."""
    from bitknights import cache, cli, service

    cache._warned.clear()
    service._SAID_SEARCHING.clear()
    service._services.clear()

    environ = {**os.environ, **(env or {})}
    if cache_dir is not None:
        environ["BITKNIGHTS_CACHE_DIR"] = str(cache_dir)
    environ = {k: v for k, v in environ.items() if v is not None}
    data = stdin.encode() if isinstance(stdin, str) else stdin
    out, err = io.BytesIO(), io.BytesIO()
    made = {
        "stdin": lambda: io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"),
        "stdout": lambda: io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        "stderr": lambda: io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace",
                                           write_through=True),
    }  # fmt: skip
    streams = {name: None if name in closed else make() for name, make in made.items()}
    argv = [str(a) for a in args]
    status = cli.main(argv, cli.Environment(**streams, environ=environ))
    if text:
        return Ran(argv, status, out.getvalue().decode(), err.getvalue().decode())
    return Ran(argv, status, out.getvalue(), err.getvalue())


def one_line_error(r, status: int = 2, *words: str) -> str:
    """The error line of a refused run (a :class:`Ran` or a finished process): exit
    ``status``, nothing on standard output, one line on standard error holding ``words``."""
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    assert r.stdout in ("", b""), r.stdout
    assert r.stderr.startswith("bitknights: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert all(w in r.stderr for w in words), (words, r.stderr)
    return r.stderr


def run(args, cache_dir=None, stdin: str | bytes = b"", **kw) -> Ran:
    """:func:`run_bitknights` with ``cache_dir`` second and ``stdin`` third."""
    return run_bitknights(args, stdin, cache_dir=cache_dir, **kw)


def run_python(
    code: str, *args: str, env: dict[str, str | None] | None = None, **kw
) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` in a new process, output as text, ``env`` over this
    environment (``None``: unset); ``kw``: more :func:`subprocess.run` arguments."""
    full = {**os.environ}
    for k, v in (env or {}).items():
        full.pop(k, None) if v is None else full.__setitem__(k, v)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=full, timeout=300, **kw)  # fmt: skip


def script(name, *args, cwd=None) -> str:
    """The standard output of ``python scripts/NAME ARGS`` (which must succeed)."""
    path = Path(__file__).parent.parent / "scripts" / name
    r = subprocess.run([sys.executable, str(path), *map(str, args)], capture_output=True,
                       text=True, timeout=600, cwd=cwd)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


def load_script(name: str):
    """``scripts/NAME.py`` imported as a module (its ``main`` not run)."""
    import importlib.util

    path = Path(__file__).parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replay(start: str, moves, target: str | None = None) -> int:
    """Replay ``moves`` from ``start`` with the naive reference, each legal and ending on
    ``target`` (default: the classic one); returns the length."""
    import naive

    board = start
    for m in moves:
        nxt = [n for n in naive.neighbours(board) if n.index("*") == m.from_square]
        assert board.index("*") == m.to_square and len(nxt) == 1, (start, moves)
        board = nxt[0]
    assert board == (target or naive.TARGET), (start, moves)
    return len(moves)


def checked_by(sol, start, target=TARGET, *, engine):
    """``sol`` (found by ``engine``) after replaying its path and checking its shape."""
    sol.verify()
    assert sol.engine == engine and sol.start == start and sol.target == target
    if sol.steps is None:
        assert sol.boards == []
    else:
        assert sol.status == "solved" and len(sol.boards) == sol.steps + 1
    return sol


def many_and_few(test, *strategies, many: int = 400, few: int = 50):
    """``test`` given ``strategies``: ``many`` examples (slow) and ``few`` (default run)."""
    import pytest
    from hypothesis import HealthCheck, given, settings

    made = [settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])(
        given(*strategies)(test)) for n in (many, few)]  # fmt: skip
    return pytest.mark.slow(made[0]), made[1]


def _call(engine, method: str, *args, max_depth, stop, **options):
    """``engine.METHOD(*args, SolveOptions(...), stop)`` as the distance service calls it."""
    from bitknights.engines import get_engine
    from bitknights.engines.options import SolveOptions

    found = get_engine(engine) if isinstance(engine, str) else engine
    return getattr(found, method)(*args, SolveOptions(max_depth=max_depth, **options), stop)


def solve_with(engine, board, target=TARGET, max_depth=15, stop=None, **options):
    """``engine.solve`` under ``SolveOptions(max_depth=..., **options)``."""
    return _call(engine, "solve", board, target, max_depth=max_depth, stop=stop, **options)


def steps_with(engine, keys, target=TARGET, max_depth=15, stop=None, **options):
    """``engine.steps`` as :func:`solve_with` calls solve."""
    return _call(engine, "steps", keys, target, max_depth=max_depth, stop=stop, **options)


def choose_engine(engine, max_depth, target=TARGET, *, counts_only=False, cache_dir=None,
                  boards=None):  # fmt: skip
    """The engine ``engine`` stands for (the distance service's ``choose``);
    ``target=None`` leaves the tables out."""
    from bitknights.service import auto, service

    if target is None:
        if engine != "auto":
            return engine
        return auto(max_depth, lambda name: False, counts_only=counts_only, boards=boards)
    answers = service(target, engine=engine, cache_dir=cache_dir)
    return answers.choose(max_depth, counts_only=counts_only, boards=boards)


def played(board, moves) -> Board:
    """``board`` (a board or its text) after ``moves`` (moves, their names or squares)."""
    board = Board(board)
    for m in moves:
        board = board.play(m)
    return board


def still_square(board):
    """The first square (in reading order) of a knight of ``board`` that cannot move."""
    jumps = {m.from_square for m in board.moves()}
    return next(sq for sq in range(25) if sq != board.blank and sq not in jumps)


def batch_file(path: Path, boards) -> Path:
    """``boards`` written at ``path`` as a batch (their count, then each board)."""
    path.write_text(f"{len(boards)}\n" + "".join(f"{Board(b)}\n" for b in boards))
    return path


def target_file(path: Path, target) -> Path:
    path.write_text(f"{Board(target)}\n")
    return path


def by_distance(ball: dict[str, int]) -> dict[int, list[str]]:
    """The boards of a naive ``ball`` grouped by distance, in the ball's order."""
    out: dict[int, list[str]] = {}
    for text, d in ball.items():
        out.setdefault(d, []).append(text)
    return out


def brute_counts(ball: dict[str, int]):
    """``paths(text)``: how many optimal move sequences a board of a naive ``ball`` has."""
    import functools

    import naive

    @functools.cache
    def paths(text: str) -> int:
        d = ball[text]
        return (
            1 if d == 0 else sum(paths(n) for n in naive.neighbours(text) if ball.get(n) == d - 1)
        )

    return paths


def forge_patterns(path, tables, target=TARGET) -> None:
    """Write pattern ``tables`` with every checksum right but no proof record (a forger's)."""
    from bitknights.engines import pdb

    pdb._save(str(path), target, tables)
    Path(f"{path}.proof").unlink()


def relaxed_neighbours(mask: int):
    """The masks one knight's jump from ``mask`` onto a free square (other colours ignored)."""
    from bitknights.squares import KNIGHT_NEIGHBORS

    for s in range(25):
        if mask >> s & 1:
            for t in KNIGHT_NEIGHBORS[s]:
                if t >= 0 and not mask >> int(t) & 1:
                    yield mask ^ (1 << s) ^ (1 << int(t))


def keys_of(boards):
    """The keys of ``boards`` (boards or their texts) as an int64 array."""
    import numpy as np

    return np.array([Board(b).key for b in boards], dtype=np.int64)


def shell(command: str, **kw) -> subprocess.CompletedProcess:
    """``command`` in bash (output as text, at most 120 s), where ``$BK`` runs bitknights;
    ``env``: variables added to this process's."""
    env = {**os.environ, "BK": f"{sys.executable} -m bitknights", **kw.pop("env", {})}
    return subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True,
                          timeout=120, env=env, **kw)  # fmt: skip
