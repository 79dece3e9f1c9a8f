"""How long the one-off steps take: the one place every notice, help text and page of
the documentation takes its estimate from (``tests/test_estimates.py`` fails when one
of them says another number).

Seconds for the classic target on a quiet 2-core machine, kernels compiled ahead of
time, rounded from the README's table "How long things take" (``python
scripts/first_use.py``): ``table build`` and ``table verify`` less Python's start, the
compact table and the pattern databases as what their command's first run took beyond
its second.  ``python scripts/estimates.py`` measures each step alone and says whether
these still fit.  A busy machine takes longer: each is said as ``about N s``
(:func:`about`), and the progress bar shows the real pace.
"""

from __future__ import annotations

TABLE_BUILD = 3
"""``bitknights table build``: the breadth-first search over all 67,603,900 boards and
the 68 MB file."""

COMPACT_BUILD = 4
"""The compact table (every board's distance modulo 3): the same search, a 17 MB file.
Also the time it takes to prove a compact table found in the cache (a fresh build)."""

PATTERN_BUILD = 2
"""The pattern databases of IDA* (two relaxed searches of 5.2 M patterns each)."""

TABLE_PROOF = 1
"""Proving a distance table found in the cache (every board against its neighbours):
``table verify`` takes little more."""


def about(seconds: float) -> str:
    """How the documentation, the help texts and the progress bars say an estimate.

    >>> about(TABLE_BUILD), about(0.2)
    ('about 3 s', 'under a second')
    """
    return f"about {seconds:.0f} s" if seconds >= 0.5 else "under a second"


__all__ = ["COMPACT_BUILD", "PATTERN_BUILD", "TABLE_BUILD", "TABLE_PROOF", "about"]
