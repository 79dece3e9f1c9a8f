"""What the lab's kernel (:mod:`._lab_kernels`) and its caller (:mod:`.general_ida`) agree
on: the parts of a bound, the codes a call returns, the fields of its ``state`` and the
columns of its ``stack``.  Plain Python, so the caller needs no numba when the kernel runs
compiled ahead of time."""

POLL = 1 << 16  # nodes between looks at the stop flag

# the parts of the bound (``flags``)
MISPLACED = 1
NEAREST = 2
PATTERNS = 4
USER = 8

USER_CAP = 1 << 20  # a user's value is clamped to 0 .. USER_CAP

# what a call returns besides OVER_LIMIT and STOPPED
FOUND = 0  # first solution: ``out[0, :steps + 1]`` holds the path (``state[STEPS]``)
CHUNK = 1  # every solution: ``out`` is full (``state[PATHS]`` rows); call again for more
DONE = 2  # every solution: the threshold is finished; this call's rows are the last

# ``state`` fields (an int64 array of STATE_SIZE, zeroed before the first call)
PHASE = 0  # 0: before the search, 1: between iterations, 2: inside one
SP = 1
BOUND = 2
NEXT = 3
NODES = 4
ITER_START = 5  # NODES when the current iteration began
ITERS = 6  # iterations recorded in ``iters``
FOUND_HERE = 7  # solutions found in the current iteration
STEPS = 8
PATHS = 9  # rows of ``out`` written by the last call
H0 = 10
CHECKED = 11  # bound values compared with the table
OVER = 12  # ... that exceeded the true distance
WORST = 13  # the largest excess (bound - distance)
WORST_KEY = 14  # a board with that excess (its key), -1 if none
WORST_H = 15  # ... the bound there
STATE_SIZE = 16

STACK_COLUMNS = 8  # ``stack`` columns, one row per depth (see the kernel)
