"""Knights-only pattern databases: a strong additive lower bound for IDA*.

Relax the puzzle for one colour: its knights jump (a knight's move) to any square not
held by a knight of the same colour, ignoring the other colour and the blank.  A real
move moves one knight of one colour by one such relaxed step, so the relaxed distance of
the white pattern plus that of the black pattern is a lower bound on the real distance.
It dominates the nearest-square sum (it also makes knights go to distinct squares and
respects crowding).

Each colour's table is indexed by the colex rank of the colour's 25-bit mask among the
``C(25, k)`` masks with ``k`` bits (5,200,300 for the classic 12) and holds the relaxed
distance in one byte.  A table is built by breadth-first search (seconds) and kept in
the cache directory next to the distance tables, checked on every load.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import zlib
from math import comb
from pathlib import Path

import numpy as np

from ..board import Board
from ..squares import NUM_SQUARES

UNSEEN = 255

# RANK_PART[c, v, j]: the colex-rank contribution of byte c (squares 8c..8c+7) holding
# bit pattern v when j ones precede it: sum over its set bits, in order, of C(square, j + l).
_BINOM = np.array([[comb(n, k) for k in range(27)] for n in range(26)], dtype=np.int64)
_BITS = (np.arange(256)[:, None] >> np.arange(8)) & 1  # (v, p)
_ORDER = np.cumsum(_BITS, axis=1)  # l: this bit's place among the byte's set bits, from 1
_SQ = 8 * np.arange(4)[:, None] + np.arange(8)  # (c, p): the square of bit p of byte c
_UPPER = np.minimum(np.arange(26)[:, None, None] + _ORDER, 26)  # (j, v, p): j + l, capped
RANK_PART = np.ascontiguousarray(
    np.stack(
        [
            (_BITS * (_SQ[c] < NUM_SQUARES) * _BINOM[np.minimum(_SQ[c], 25), _UPPER]).sum(axis=2).T
            for c in range(4)
        ]
    ),
    dtype=np.int64,
)
BYTE_POPCOUNT = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
RANK_PART.setflags(write=False)
BYTE_POPCOUNT.setflags(write=False)


def mask_rank(mask: int) -> int:
    """Colex rank of a 25-bit mask among masks with as many bits (the kernels' rank, in
    Python).

    >>> mask_rank(0b111), mask_rank(0b1011)
    (0, 1)
    """
    rank, before = 0, 0
    for c in range(4):
        byte = mask >> 8 * c & 255
        rank += int(RANK_PART[c, byte, before])
        before += int(BYTE_POPCOUNT[byte])
    return rank


_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def pattern_tables(target_key: int) -> tuple[np.ndarray, np.ndarray]:
    """``(white, black)`` relaxed-distance tables of the target with this key: loaded from
    the cache directory when a valid file is there, else built (and saved if the
    directory is writable).  Once per process and target."""
    tables = cached_pattern_tables(target_key)
    if tables is None:
        from ._pdb_kernels import build

        target = Board.from_key(target_key)
        tables = (
            build(target.white, target.white.bit_count()),
            build(target.black, target.black.bit_count()),
        )
        with contextlib.suppress(OSError):
            _save(_cache_path(target), target, tables)
        _remember(target_key, tables)
    return tables


def cached_pattern_tables(target_key: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The tables if this process has them or a valid cache file holds them (checked in
    full), without building; else ``None``."""
    if target_key not in _TABLES:
        target = Board.from_key(target_key)
        tables = _load(_cache_path(target), target)
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


# Cache file: magic, format version u32, target key u64, white and black table sizes
# u64, CRC-32 of the payload (zero-padded to 16 bytes: 3 ms instead of blake2b's 20), blake2b-128
# of the header before it; then the white
# table's bytes and the black table's.
_MAGIC = b"BKNPATTN"
_VERSION = 2
_HEAD = struct.Struct("<8sIQQQ16s")


def _cache_path(target: Board) -> Path:
    from ..table.store import default_cache_dir

    return default_cache_dir() / f"patterns-{'-'.join(target.rows()).replace('*', 'x')}.bkp"


def _sizes(target: Board) -> tuple[int, int]:
    return comb(NUM_SQUARES, target.white.bit_count()), comb(NUM_SQUARES, target.black.bit_count())


def _payload_digest(payload: bytes | memoryview) -> bytes:
    return struct.pack("<I", zlib.crc32(payload)).ljust(16, b"\0")


def _load(path: Path, target: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """The tables in ``path`` if it is complete, intact and for ``target``; else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    n_w, n_b = _sizes(target)
    head = _HEAD.size + 16
    if len(data) != head + n_w + n_b:
        return None
    magic, version, key, size_w, size_b, digest = _HEAD.unpack_from(data)
    payload = memoryview(data)[head:]
    if (
        (magic, version, key, size_w, size_b) != (_MAGIC, _VERSION, target.key, n_w, n_b)
        or hashlib.blake2b(data[: _HEAD.size], digest_size=16).digest() != data[_HEAD.size : head]
        or _payload_digest(payload) != digest
    ):
        return None
    white = np.frombuffer(data, np.uint8, n_w, head).copy()
    black = np.frombuffer(data, np.uint8, n_b, head + n_w).copy()
    if (white == UNSEEN).any() or (black == UNSEEN).any() or white.min() or black.min():
        return None  # intact but not a finished build (a build always reaches every pattern)
    return white, black


def _save(path: Path, target: Board, tables: tuple[np.ndarray, np.ndarray]) -> None:
    """Write atomically: a temporary file beside ``path``, then rename."""
    payload = tables[0].tobytes() + tables[1].tobytes()
    head = _HEAD.pack(_MAGIC, _VERSION, target.key, tables[0].size, tables[1].size,
                      _payload_digest(payload))  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".bkp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(head + hashlib.blake2b(head, digest_size=16).digest() + payload)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def pattern_bound(board: Board, target: Board) -> int:
    """The additive pattern-database bound of ``board`` (not parity-rounded).

    >>> from bitknights import TARGET
    >>> pattern_bound(TARGET, TARGET), pattern_bound(TARGET.play("b5"), TARGET)
    (0, 1)
    """
    white, black = pattern_tables(target.key)
    return int(white[mask_rank(board.white)]) + int(black[mask_rank(board.black)])
