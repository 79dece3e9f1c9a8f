"""An open-addressing hash map from board-sized keys to small values, stored in one numpy
array and driven by ``@njit`` functions.

Each slot holds one packed entry ``key | value << 30`` with ``0 <= key <= MAX_KEY``
(``2**30 - 2``).  Two layouts share every function:

* ``int64`` tables (:func:`new_table`): values ``0 <= value < 2**33``, 8 bytes a slot;
* ``uint32`` tables (:func:`new_table32`): values ``0..3``, 4 bytes a slot (the
  bidirectional engine keeps a board's depth modulo 4 there, half the memory).

A free slot holds :data:`EMPTY` (``2**32 - 1``), the packing of key ``2**30 - 1`` with
value 3, so no key in range, ``0`` included, can be mistaken for it.  Board keys
(``black | blank << 25`` < ``25 << 25``) fit with room to spare.  Probing is linear from a
multiplicative hash; the capacity is a power of two.  Entries are never deleted.

The table does not count its entries: the caller counts insertions and calls :func:`grow`
or :func:`reserve` before the load would pass :data:`MAX_LOAD_NUM` / :data:`MAX_LOAD_DEN`.
:func:`get` answers ``-1`` for an absent key.  Used as a set, every value is ``0``.

>>> t = new_table(4)
>>> insert(t, 123, 7), insert(t, 123, 9), get(t, 123), get(t, 5)
(True, False, 7, -1)
>>> t = grow(t)
>>> len(t), get(t, 123)
(16, 7)
>>> t32 = new_table32(4)
>>> insert(t32, 0, 3), get(t32, 0), get(t32, 1), t32.dtype.name
(True, 3, -1, 'uint32')
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY_BITS = 30
KEY_MASK = (1 << KEY_BITS) - 1
MAX_KEY = KEY_MASK - 1
MAX_VALUE = (1 << 33) - 1
MAX_VALUE32 = 3
EMPTY = (1 << 32) - 1
# Grow when count would exceed 3/4 of the capacity: linear probing stays short (most probes
# end inside the first cache line) and the table costs 8 to 16 bytes per entry.
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
def new_table(n):
    """An empty ``int64`` table with room for ``n`` entries before it must grow."""
    return np.full(capacity_for(n), EMPTY, np.int64)


@njit(cache=True, nogil=True)
def new_table32(n):
    """An empty ``uint32`` table (values ``0..3``) with room for ``n`` entries."""
    return np.full(capacity_for(n), EMPTY, np.uint32)


@njit(cache=True, nogil=True, inline="always")
def _home(key, mask):
    h = np.int64(key) * _GOLDEN
    h ^= h >> 29
    return h & mask


@njit(cache=True, nogil=True)
def find(table, key):
    """The slot holding ``key``, or ``-1``."""
    mask = table.size - 1
    i = _home(key, mask)
    while True:
        e = table[i]
        if e == EMPTY:
            return -1
        if (e & KEY_MASK) == key:
            return i
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def get(table, key):
    """The value stored with ``key``, or ``-1`` when ``key`` is absent."""
    i = find(table, key)
    return np.int64(-1) if i < 0 else np.int64(table[i] >> KEY_BITS)


@njit(cache=True, nogil=True)
def insert(table, key, value):
    """Store ``key`` with ``value`` unless ``key`` is present (its value is then kept);
    ``True`` when it was added.  The table must have a free slot.  Neither argument is
    checked: see the ranges in the module notes."""
    mask = table.size - 1
    i = _home(key, mask)
    while True:
        e = table[i]
        if e == EMPTY:
            table[i] = np.int64(key) | (np.int64(value) << KEY_BITS)
            return True
        if (e & KEY_MASK) == key:
            return False
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def put(table, key, value):
    """Store ``key`` with ``value``, replacing any value it had; ``True`` when it was
    added.  The table must have a free slot."""
    mask = table.size - 1
    i = _home(key, mask)
    while True:
        e = table[i]
        if e == EMPTY or (e & KEY_MASK) == key:
            table[i] = np.int64(key) | (np.int64(value) << KEY_BITS)
            return e == EMPTY
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def rehash(table, capacity):
    """A new table of the same type with ``capacity`` slots (a power of two) holding
    every entry."""
    out = np.empty(capacity, table.dtype)
    out[:] = EMPTY
    mask = capacity - 1
    for e in table:
        if e != EMPTY:
            i = _home(e & KEY_MASK, mask)
            while out[i] != EMPTY:
                i = (i + 1) & mask
            out[i] = e
    return out


@njit(cache=True, nogil=True)
def grow(table):
    """A table of twice the capacity holding the same entries."""
    return rehash(table, table.size * 2)


@njit(cache=True, nogil=True)
def reserve(table, count, extra):
    """``table`` itself if it holds ``count + extra`` entries within the load limit, else
    a larger copy that does."""
    need = count + extra
    if need * MAX_LOAD_DEN <= table.size * MAX_LOAD_NUM:
        return table
    return rehash(table, capacity_for(need))


@njit(cache=True, nogil=True)
def count(table):
    """How many entries the table holds (a full scan)."""
    n = 0
    for e in table:
        if e != EMPTY:
            n += 1
    return n


@njit(cache=True, nogil=True)
def items(table):
    """``(keys, values)`` of every entry, in slot order, as ``int64`` arrays."""
    n = count(table)
    keys = np.empty(n, np.int64)
    values = np.empty(n, np.int64)
    j = 0
    for e in table:
        if e != EMPTY:
            keys[j] = e & KEY_MASK
            values[j] = e >> KEY_BITS
            j += 1
    return keys, values
