"""What :mod:`.kernels` and its callers (:mod:`.builder`) agree on.  Plain Python, so a
caller needs no numba when the kernels run compiled ahead of time."""

BLOCK = 1 << 15
"""Ranks per parallel job: a job is one block of ``BLOCK`` consecutive ranks of one
blank square."""
