"""What :mod:`.solution_kernels` and its caller (:mod:`.solutions`) agree on: the codes a
call returns, the fields of its ``state``, the forms of output and the fixed bytes of a
JSON line.  Plain Python, so the caller needs no numba when the kernels run compiled
ahead of time."""

# what a call of ``optimal_lines`` returns
CHUNK = 1
"""``out`` is full, or holds as many paths as asked: call again for more."""
DONE = 0
"""Every path has been written."""

# ``state`` fields (int64, zeroed before the first call but for INDEX and SKIP)
STARTED = 0
LEVEL = 1
PATHS = 2
"""Paths this call wrote."""
BYTES = 3
"""Bytes this call wrote."""
INDEX = 4
"""The index of the next path written (a JSON line carries it)."""
SKIP = 5
"""Paths still to pass over without writing them."""
STATE_SIZE = 6

# forms of output
RAW = 0
"""Each path as the blank's squares, one byte each, the start's first."""
TEXT = 1
"""Each path as a line of its moves (``e5-c4``) separated by spaces."""
JSON = 2
"""Each path as a JSON line: ``{"moves":["e5-c4",...],"index":0}``."""

# a JSON line: JSON_HEAD, the moves (each '"e5-c4",', the last comma dropped), JSON_TAIL,
# the index, JSON_END (tuples of bytes: the kernels read them as constants)
JSON_HEAD = tuple(b'{"moves":[')
JSON_TAIL = tuple(b'],"index":')
JSON_END = tuple(b"}\n")
SPARE = len(JSON_HEAD) + len(JSON_TAIL) + len(JSON_END) + 20
"""Bytes a line takes beyond its moves, at most (20: the digits of any index)."""
