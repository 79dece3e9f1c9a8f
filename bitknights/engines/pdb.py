"""Knights-only pattern databases: a strong additive lower bound for IDA*.

Relax the puzzle for one colour: its knights jump to any square not held by a knight of
the same colour.  A real move is one relaxed step of one colour, so the two colours'
relaxed distances add up to a lower bound that dominates the nearest-square sum.  Each
colour's table holds that distance in one byte per pattern rank of its 25-bit mask,
built by breadth-first search and kept in the cache directory.  A file is used only once
proved (:mod:`bitknights.cache`); any other is rebuilt (said once when it differed), and
one others may write is refused (said once) and the tables built in memory.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib

import numpy as np

from .. import cache, system
from ..board import Board
from ..coords import pattern_count, pattern_rank
from ..results import UNSEEN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}
_REFUSED: set[str] = set()  # files refused as untrusted: never written over
_UNPROVED: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # what unproved files held


def pattern_tables(
    target_key: int, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(white, black)`` relaxed-distance tables of the target with this key: loaded from
    the cache directory when a valid file is there, else built (announced, and saved if
    the directory is writable).  Once per process and target."""
    tables = cached_pattern_tables(target_key, cache_dir)
    if tables is None:
        from .. import estimates, progress

        progress.announce("building pattern databases", "once, for deep IDA* searches",
                          estimates.PATTERN_BUILD)  # fmt: skip
        target = Board.from_key(target_key)
        kw, kb = target.white.bit_count(), target.black.bit_count()
        with progress.bar(pattern_count(kw) + pattern_count(kb), "patterns", "pattern databases",
                          delay=0, unit_scale=True) as shown:  # fmt: skip
            tables = (build_tables(target.white, kw, bar=shown),
                      build_tables(target.black, kb, bar=shown))  # fmt: skip
        path = _cache_path(target, cache_dir)
        unproved = _UNPROVED.pop(path, None)
        if unproved is not None and not all(map(np.array_equal, unproved, tables)):
            cache.warn_once(f"pattern databases {path} were not exact (a damaged or "
                            "rewritten file)", "replacing them with a fresh build")  # fmt: skip
        if path not in _REFUSED:  # never written over a file refused as untrusted
            with contextlib.suppress(OSError, cache.CacheError):  # unwritable: keep in memory
                _save(path, target, tables)
        _remember(target_key, tables)
    return tables


def build_tables(
    tmask: int,
    k: int,
    workers: int | None = None,
    kernel: Callable[..., int] | None = None,
    bar: Any = None,
) -> np.ndarray:
    """The relaxed-distance table of the ``k``-knight pattern ``tmask``, built with
    ``kernel`` (default: :func:`._pdb_kernels.layer`, compiled when installed); ``bar``
    (a progress bar) advances by the patterns reached, layer by layer."""
    from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
    from ..native import kernels
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
    from ..threads import parallel_blocks

    kernel = kernel or kernels("ida").pdb_layer
    size = pattern_count(k)
    dist = np.full(size, UNSEEN, np.uint8)
    dist[pattern_rank(int(tmask))] = 0
    # Racing threads may count one mask twice, so ``marked`` is only an estimate: it picks
    # the direction, and the search ends on a layer that marks nothing at all.
    frontier, unseen, d, nblocks = 1, size - 1, 0, 64
    while frontier:
        bottom_up = unseen < frontier
        fixed = (dist, np.uint8(d), np.int64(k), bottom_up, KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
                 RANK_BYTE, POPCOUNT8, BINOM, np.int64(nblocks))  # fmt: skip

        def span(b0: int, b1: int, fixed: tuple = fixed) -> int:
            return int(kernel(*fixed, np.int64(b0), np.int64(b1)))

        frontier = sum(parallel_blocks(span, nblocks, workers))
        if bar is not None:  # (the count may run over: see above)
            bar.update(min(frontier, unseen) + (d == 0))
        unseen = max(0, unseen - frontier)
        d += 1
    if (dist == UNSEEN).any():  # every pattern is reachable: this would be a bug
        raise RuntimeError("pattern database build left patterns unreached")
    return dist


def cached_pattern_tables(
    target_key: int, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The tables if this process has them or a valid cache file holds them (checked in
    full), without building; else ``None``."""
    if target_key not in _TABLES:
        target = Board.from_key(target_key)
        path = _cache_path(target, cache_dir)
        try:
            tables = _load(path, target)
        except cache.UntrustedError as e:
            cache.warn_once(str(e), "building the pattern databases in memory instead")
            _REFUSED.add(path)
            return None
        if tables is None:
            return None
        _remember(target_key, tables)
    return _TABLES[target_key]


def _remember(target_key: int, tables: tuple[np.ndarray, np.ndarray]) -> None:
    for t in tables:
        t.setflags(write=False)
    if len(_TABLES) >= 4:
        _TABLES.pop(next(iter(_TABLES)))
    _TABLES[target_key] = tables


# Cache file (through :mod:`bitknights.cache`): a checked header (magic, format version,
# target key u64, white and black table sizes u64, CRC-32 of the payload u32), then the
# white table's bytes and the black table's.
_MAGIC = b"BKNPATTN"
_VERSION = 3
_FIELDS = struct.Struct("<QQQI")
_HEADER_SIZE = 16 + _FIELDS.size + 4


def _cache_path(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> str:
    name = "-".join(target.rows()).replace("*", "x")
    return os.path.join(cache.cache_directory(cache_dir), f"patterns-{name}.bkp")


def _load(path: str, target: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """The tables in ``path`` if it is complete, intact, for ``target`` and proved, else
    ``None``; :class:`~bitknights.cache.UntrustedError` if others may write it."""
    n_w, n_b = (pattern_count(m.bit_count()) for m in (target.white, target.black))
    size = _HEADER_SIZE + n_w + n_b
    try:
        fd, st = cache.open_cached(path, "pattern database", sizes=[size])
        try:
            data = system.read_at(fd, size, 0)
        finally:
            os.close(fd)
        fields = cache.unpack_header(data[:_HEADER_SIZE], _MAGIC, _VERSION, cache.CacheError)
    except cache.UntrustedError:
        raise
    except (OSError, cache.CacheError):
        return None
    if len(fields) != _FIELDS.size or len(data) != size:
        return None
    key, size_w, size_b, crc = _FIELDS.unpack(fields)
    if (key, size_w, size_b) != (target.key, n_w, n_b):
        return None
    if zlib.crc32(memoryview(data)[_HEADER_SIZE:]) != crc:
        return None
    white = np.frombuffer(data, np.uint8, n_w, _HEADER_SIZE).copy()
    black = np.frombuffer(data, np.uint8, n_b, _HEADER_SIZE + n_w).copy()
    if cache.proof(path, st, f"{crc:08x}") != cache.EXACT:
        _UNPROVED[path] = (white, black)
        return None
    return white, black


def _save(path: str, target: Board, tables: tuple[np.ndarray, np.ndarray]) -> None:
    payload = tables[0].tobytes() + tables[1].tobytes()
    crc = zlib.crc32(payload)
    fields = _FIELDS.pack(target.key, tables[0].size, tables[1].size, crc)
    written = cache.atomic_write(path, [cache.pack_header(_MAGIC, _VERSION, fields), payload],
                                 "pattern database")  # fmt: skip
    cache.record_proof(path, written, f"{crc:08x}", "pattern database")  # built here: proved


def pattern_bound(
    board: Board, target: Board, cache_dir: str | os.PathLike[str] | None = None
) -> int:
    """The additive pattern-database bound of ``board`` (not parity-rounded), from the
    databases cached in ``cache_dir`` (built when missing).

    >>> from bitknights import TARGET
    >>> pattern_bound(TARGET, TARGET), pattern_bound(TARGET.play("b5"), TARGET)
    (0, 1)
    """
    white, black = pattern_tables(target.key, cache_dir)
    return int(white[pattern_rank(board.white)]) + int(black[pattern_rank(board.black)])
