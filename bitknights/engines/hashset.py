"""An open-addressing hash map from board-sized keys to values ``0..3``, stored in one
``uint32`` numpy array and driven by ``@njit`` functions (the bidirectional search keeps a
board's depth modulo 4 there).

Each slot holds one packed entry ``key | value << 30`` with ``0 <= key <= MAX_KEY``
(``2**30 - 2``); a free slot holds :data:`EMPTY` (``2**32 - 1``, key ``2**30 - 1`` with
value 3), so no key in range, ``0`` included, can be mistaken for it.  Probing is linear
from a multiplicative hash; the capacity is a power of two.  Entries are never deleted.
The caller counts insertions and calls :func:`grow` before the load would pass
:data:`MAX_LOAD_NUM` / :data:`MAX_LOAD_DEN`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY_BITS = 30
KEY_MASK = (1 << KEY_BITS) - 1
MAX_KEY = KEY_MASK - 1
EMPTY = (1 << 32) - 1
# Grow when count would exceed 3/4 of the capacity: linear probing stays short.
MAX_LOAD_NUM = 3
MAX_LOAD_DEN = 4
MIN_CAPACITY = 8

# 2**64 / golden ratio, as a signed 64-bit number (multiplication wraps around).
_GOLDEN = np.int64(-7046029254386353131)


@njit(cache=True, nogil=True)
def capacity_for(n):
    """The smallest power-of-two capacity (at least :data:`MIN_CAPACITY`) that holds
    ``n`` entries within the load limit."""
    cap = MIN_CAPACITY
    while n * MAX_LOAD_DEN > cap * MAX_LOAD_NUM:
        cap *= 2
    return cap


@njit(cache=True, nogil=True)
def new_table32(n):
    """An empty table with room for ``n`` entries before it must grow."""
    return np.full(capacity_for(n), EMPTY, np.uint32)


@njit(cache=True, nogil=True, inline="always")
def _slot(table, key):
    """The slot holding ``key``, else the free slot its probe reaches."""
    mask = table.size - 1
    h = np.int64(key) * _GOLDEN
    i = (h ^ (h >> 29)) & mask
    while table[i] != EMPTY and (table[i] & KEY_MASK) != key:
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True)
def find(table, key):
    """The slot holding ``key``, or ``-1``."""
    i = _slot(table, key)
    return -1 if table[i] == EMPTY else i


@njit(cache=True, nogil=True)
def get(table, key):
    """The value stored with ``key``, or ``-1`` when ``key`` is absent."""
    e = table[_slot(table, key)]
    return np.int64(-1) if e == EMPTY else np.int64(e >> KEY_BITS)


@njit(cache=True, nogil=True)
def insert(table, key, value):
    """Store ``key`` with ``value`` unless ``key`` is present (its value is then kept);
    ``True`` when it was added.  The table must have a free slot; neither argument is
    checked."""
    i = _slot(table, key)
    if table[i] != EMPTY:
        return False
    table[i] = np.int64(key) | (np.int64(value) << KEY_BITS)
    return True


@njit(cache=True, nogil=True)
def grow(table):
    """A table of twice the capacity holding the same entries."""
    out = np.full(table.size * 2, EMPTY, table.dtype)
    for e in table:
        if e != EMPTY:
            out[_slot(out, e & KEY_MASK)] = e
    return out
