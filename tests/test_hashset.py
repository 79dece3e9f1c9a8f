import random

import numpy as np
import pytest

from bitknights.engines import hashset as hs
from bitknights.engines.hashset import EMPTY, MAX_KEY

BOARD_KEY_END = 25 << 25  # board keys are 0 <= key < 25 << 25

EDGE_KEYS = [0, 1, (1 << 25) - 1, 1 << 25, BOARD_KEY_END - 1, BOARD_KEY_END, MAX_KEY - 1, MAX_KEY]


def home(table_size, key):
    """The slot a key's probe starts at (tested through the table's behaviour)."""
    t = np.full(table_size, EMPTY, dtype=np.uint32)
    hs.insert(t, key, 1)
    return int(np.flatnonzero(t != EMPTY)[0])


def entries(t):
    """Every ``key: value`` the table holds, read from its slots."""
    used = t[t != EMPTY].astype(np.int64)
    return dict(zip((used & hs.KEY_MASK).tolist(), (used >> hs.KEY_BITS).tolist()))


def fill(t, n):
    """``t``, grown if it could not take one more entry beside ``n`` within the load limit."""
    return hs.grow(t) if (n + 1) * hs.MAX_LOAD_DEN > len(t) * hs.MAX_LOAD_NUM else t


@pytest.mark.parametrize("n", [1, 10])
def test_empty_table_holds_nothing_not_even_key_zero(n):
    t = hs.new_table32(n)
    assert len(t) & (len(t) - 1) == 0 and len(t) * 3 >= n * 4
    for k in EDGE_KEYS:
        assert hs.get(t, k) == -1 and hs.find(t, k) == -1
    assert entries(t) == {}
    assert t.dtype == np.uint32 and t.itemsize == 4 and hs.grow(t).dtype == np.uint32


@pytest.mark.parametrize("top", [1, 3])
def test_edge_keys_and_values(top):
    t = hs.new_table32(len(EDGE_KEYS))
    for i, k in enumerate(EDGE_KEYS):
        assert hs.insert(t, k, top if i % 2 else 0)
    for i, k in enumerate(EDGE_KEYS):
        assert hs.get(t, k) == (top if i % 2 else 0)
        assert hs.find(t, k) >= 0
    # the highest key with the highest value is still not the empty marker
    assert int(t[hs.find(t, MAX_KEY)]) != EMPTY
    assert hs.get(t, 2) == -1 and hs.get(t, BOARD_KEY_END + 1) == -1
    assert len(entries(t)) == len(EDGE_KEYS)


@pytest.mark.parametrize("n", [1, 4])
def test_insert_keeps_the_first_value(n):
    t = hs.new_table32(n)
    assert hs.insert(t, 77, 1) is True
    assert hs.insert(t, 77, 2) is False
    assert hs.get(t, 77) == 1
    assert hs.insert(t, 78, 0) is True
    assert entries(t) == {77: 1, 78: 0}


@pytest.mark.parametrize("seed", [1, 2])
def test_growth_from_the_smallest_table(seed):
    rng = random.Random(seed)
    keys = rng.sample(range(BOARD_KEY_END), 5000) + EDGE_KEYS
    keys = list(dict.fromkeys(keys))
    t = hs.new_table32(1)
    assert len(t) == hs.MIN_CAPACITY
    sizes = set()
    for n, k in enumerate(keys):
        t = fill(t, n)
        sizes.add(len(t))
        assert (n + 1) * 4 <= len(t) * 3
        assert hs.insert(t, k, k & 3)
    assert len(sizes) > 5  # it grew many times
    assert entries(t) == {k: k & 3 for k in keys}
    bigger = hs.grow(t)
    assert len(bigger) == 2 * len(t)
    assert all(hs.get(bigger, k) == k & 3 for k in keys)


def test_forced_collisions_and_wrap_around():
    """Keys sharing one home slot in a tiny table, including the last slot (probing wraps)."""
    size = 8
    rng = random.Random(2)
    by_home: dict[int, list[int]] = {}
    for k in EDGE_KEYS + rng.sample(range(BOARD_KEY_END), 400):
        by_home.setdefault(home(size, k), []).append(k)
    last = by_home[size - 1][:5]
    assert len(last) == 5
    t = np.full(size, EMPTY, dtype=np.uint32)
    for i, k in enumerate(last):
        assert hs.insert(t, k, i % 4)
    # five keys from slot 7 fill slots 7, 0, 1, 2, 3
    assert len(entries(t)) == 5 and t[size - 1] != EMPTY and t[3] != EMPTY and t[4] == EMPTY
    for i, k in enumerate(last):
        assert hs.get(t, k) == i % 4
        assert hs.find(t, k) == (size - 1 + i) % size
    # an absent key whose probe crosses the whole cluster
    absent = next(k for k in by_home[size - 1][5:] if k not in last)
    assert hs.get(t, absent) == -1
    # a full table still answers for keys it holds
    for k in by_home[0][:3]:
        hs.insert(t, k, 1)
    assert len(entries(t)) == 8
    assert all(hs.get(t, k) == i % 4 for i, k in enumerate(last))


def test_matches_a_dict_under_random_operations():
    rng = random.Random(3)
    ref: dict[int, int] = {}
    t = hs.new_table32(0)
    pool = EDGE_KEYS + rng.sample(range(BOARD_KEY_END), 300)
    for _ in range(4000):
        k = rng.choice(pool)
        if rng.randrange(2):
            t = fill(t, len(ref))
            v = rng.randrange(4)
            assert hs.insert(t, k, v) == (k not in ref)
            ref.setdefault(k, v)
        else:
            assert hs.get(t, k) == ref.get(k, -1)
    assert entries(t) == ref


def test_capacity_for():
    assert hs.capacity_for(0) == hs.MIN_CAPACITY
    for n in (1, 6, 7, 100, 3 << 20):
        cap = hs.capacity_for(n)
        assert cap & (cap - 1) == 0
        assert n * 4 <= cap * 3 and (cap == hs.MIN_CAPACITY or n * 4 > cap // 2 * 3)
