"""What the IDA* kernel (:mod:`._ida_kernels`) and its driver (:mod:`.ida`) agree on: the
parts of a bound, the codes a call returns, the fields of its ``state`` and the columns of
its ``stack``.  Plain Python, so the driver needs no numba when the kernel runs compiled
ahead of time."""

POLL = 1 << 16  # nodes between looks at the stop flag

# the parts of the bound (``flags``)
MISPLACED, NEAREST, PATTERNS, USER = 1, 2, 4, 8

USER_CAP = 1 << 20  # a user's value is clamped to 0 .. USER_CAP

# what a call returns besides OVER_LIMIT, OVER_BUDGET and STOPPED: FOUND, the first
# solution (``out[0, :steps + 1]`` holds the path, ``state[STEPS]``); every solution: CHUNK,
# ``out`` is full (``state[PATHS]`` rows), call again for more; DONE, the threshold is
# finished and this call's rows are the last
FOUND, CHUNK, DONE = 0, 1, 2

# ``state`` fields (an int64 array of STATE_SIZE, zeroed with WORST_KEY -1 before the first
# call): PHASE (0: before the search, 1: between iterations, 2: inside one, 3: done),
# ITER_START (NODES when the current iteration began), ITERS (iterations recorded in
# ``iters``), FOUND_HERE (solutions found in the current iteration), PATHS (rows of ``out``
# written by the last call), CHECKED (bound values compared with the table), OVER (... that
# exceeded the true distance), WORST (the largest excess, bound - distance), WORST_KEY (a
# board with that excess, its key, -1 if none) and WORST_H (the bound there)
PHASE, SP, BOUND, NEXT, NODES, ITER_START, ITERS, FOUND_HERE, STEPS, PATHS = range(10)
H0, CHECKED, OVER, WORST, WORST_KEY, WORST_H, STATE_SIZE = range(10, 17)

STACK_COLUMNS = 8  # ``stack`` columns, one row per depth (see the kernel)
