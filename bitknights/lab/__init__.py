"""The heuristic lab: run IDA* under different bounds on the same boards and compare the
work, with the distance table as ground truth.

>>> from bitknights import lab
>>> [(t.heuristic, t.steps, t.nodes, t.h0) for t in lab.compare(
...     ["10110/01*11/10111/01001/00000"], ["misplaced", "knight_distance"])]
[('misplaced', 7, 27, 5), ('knight_distance', 7, 9, 7)]

A *heuristic* is a built-in by name (``"misplaced"``, ``"knight_distance"``, ``"pdb"``),
a maximum such as ``"max(misplaced,pdb)"`` or :func:`maximum`, or a function
``h(white, black, blank) -> int`` (compiled with numba into the search kernel).  With a
distance table every answer is compared with the truth: an inadmissible heuristic's
trial is :attr:`~Trial.flagged`.
"""

from __future__ import annotations

from . import core
from .core import *  # noqa: F403 - the names core.__all__ lists

__all__ = core.__all__
