"""The heuristic lab: run IDA* under different bounds on the same boards and compare the
work, with the distance table as ground truth.

>>> from bitknights import lab
>>> [(t.heuristic, t.steps, t.nodes, t.h0) for t in lab.compare(
...     ["10110/01*11/10111/01001/00000"], ["misplaced", "knight_distance"])]
[('misplaced', 7, 27, 5), ('knight_distance', 7, 9, 7)]

A *heuristic* is one of

* a built-in, by name: ``"misplaced"`` (the seed program's bound: knights not on a square
  the target gives their colour), ``"knight_distance"`` (the IDA* engine's bound: each
  knight's knight-jump distance to the nearest such square, summed, rounded up to the
  parity the blank's square dictates), ``"pdb"`` (the engine's pattern databases, rounded
  up likewise), or the maximum of several, ``"max(misplaced,pdb)"``;
* a user's function ``h(white, black, blank) -> int`` of the two 25-bit knight masks and
  the blank's square, compiled with numba (``@numba.njit``; a plain Python function is
  compiled for you) into the search kernel, once per process (a few seconds, announced
  on a terminal).  Negative values count as 0;
* :func:`maximum` of any of these.

Built-ins run the same kernel as compiled ahead of time, kept incrementally as the engine
keeps its bound, so they search as fast as the engine (and expand exactly the nodes it
does with ``"knight_distance"`` or ``"pdb"``).  Every search is IDA* as the engine runs
it: thresholds from the start's bound up by the smallest excess, children in knight-move
order, never undoing the previous move, stopping at the first solution.

With a distance table for the target (``bitknights table build``) every answer is
compared with the truth: :class:`Trial` records the true ``distance``, whether the answer
is ``optimal``, and whether the bound overestimated where it was compared (at the start,
and, for user heuristics or with ``check_all=True``, at every board it was evaluated on).
A heuristic that overestimates is *inadmissible*; IDA* may then return a longer path, and
the trial is :attr:`~Trial.flagged`, never a silent "optimal".  Without a table nothing
of this can be checked, and each trial's ``note`` says so.
"""

from __future__ import annotations

from ..service import heuristic, maximum
from .core import NO_TABLE_NOTE, Trial, compare, evaluate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .plot import nodes_plot, values_plot

    BUILTINS: dict[str, int]


def __getattr__(name: str) -> Any:
    """The built-in heuristics' flags by name, and the pictures (:mod:`.plot`,
    matplotlib), on first use."""
    if name == "BUILTINS":
        from ..service import builtin_heuristics

        return builtin_heuristics()
    if name in ("nodes_plot", "values_plot"):
        from . import plot

        return getattr(plot, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILTINS",
    "NO_TABLE_NOTE",
    "Trial",
    "compare",
    "evaluate",
    "heuristic",
    "maximum",
    "nodes_plot",
    "values_plot",
]
