"""What :mod:`.solution_kernels` and its caller (:mod:`.solutions`) agree on: the codes a
call returns and the fields of its ``state``.  Plain Python, so the caller needs no numba
when the kernels run compiled ahead of time."""

# what a call returns
CHUNK = 1
"""``out`` is full: call again for more."""
DONE = 0
"""Every path has been written (the rows this call wrote are ``state[PATHS]``)."""
BAD = -1
"""The table contradicts itself: a board's distance breaks the rules above."""

# ``state`` fields (int64, zeroed before the first call)
STARTED = 0
SP = 1
DEPTH = 2
PATHS = 3
STATE_SIZE = 4
