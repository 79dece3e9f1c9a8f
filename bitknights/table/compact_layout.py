"""What the walks' kernels (:mod:`.walk_kernels`) and the compact table's plain-Python side
(:mod:`.compact`) agree on.  Plain Python, so the caller needs no numba when the kernels
run compiled ahead of time."""

LOST = 3
"""The code of a board that never reaches the target (the others: distance modulo 3)."""
