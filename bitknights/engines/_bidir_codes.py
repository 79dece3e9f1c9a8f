"""What the bidirectional kernels return instead of a distance (besides ``STOPPED``, -2),
kept apart from :mod:`._bidir_kernels` so that callers of the compiled kernels need not
import numba."""

OVER_LIMIT = -1
UNREACHABLE = -3
GROW = -4  # the target side should grow: grow the ball and call again
