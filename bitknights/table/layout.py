"""What the kernels (:mod:`.kernels`) and their callers agree on.  Plain Python, so a
caller needs no numba when the kernels run compiled ahead of time."""


def kernel_args(k: int) -> tuple:
    """What the kernels that rank and unrank boards with ``k`` black knights take after
    their own arguments: ``(ncomb, k, nbr, cnt, binom, rank_byte, popcount8)``."""
    import numpy as np

    from ..coords import comb_count
    from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

    tables = (KNIGHT_NEIGHBORS, KNIGHT_COUNTS, BINOM, RANK_BYTE, POPCOUNT8)
    return (np.int64(comb_count(k)), np.int64(k), *tables)


BLOCK = 1 << 15
"""Ranks per parallel job of the build: one block of consecutive ranks of one blank."""
LOST = 3
"""The compact table's code of a board that never reaches the target (else: distance mod 3)."""

# what a call of ``optimal_lines`` returns: ``out`` is full or holds as many paths as asked
# (call again for more), or every path has been written
CHUNK, DONE = 1, 0
# ``state`` fields (int64, zeroed before the first call but for INDEX and SKIP): PATHS and
# BYTES this call wrote, the INDEX of the next path written, paths to SKIP before writing
STARTED, LEVEL, PATHS, BYTES, INDEX, SKIP, STATE_SIZE = range(7)
# forms of output: each path as the blank's squares, one byte each (RAW); as a line of its
# moves (``e5-c4``) separated by spaces (TEXT); as ``{"moves":["e5-c4",...],"index":0}`` (JSON)
RAW, TEXT, JSON = range(3)

# a JSON line: JSON_HEAD, the moves (each '"e5-c4",', the last comma dropped), JSON_TAIL,
# the index, JSON_END (tuples of bytes: the kernels read them as constants)
JSON_HEAD = tuple(b'{"moves":[')
JSON_TAIL = tuple(b'],"index":')
JSON_END = tuple(b"}\n")
SPARE = len(JSON_HEAD) + len(JSON_TAIL) + len(JSON_END) + 20
"""Bytes a line takes beyond its moves, at most (20: the digits of any index)."""
