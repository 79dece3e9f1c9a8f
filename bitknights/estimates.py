"""How long the one-off steps take, in seconds for the classic target on a quiet 2-core
machine: every notice, help text and page takes its estimate from here
(``python scripts/estimates.py`` measures them again)."""

from __future__ import annotations

TABLE_BUILD = 3  # `bitknights table build`
COMPACT_BUILD = 4  # the compact table, built or proved
PATTERN_BUILD = 2  # the pattern databases of IDA*
TABLE_PROOF = 1  # proving a distance table found in the cache


def about(seconds: float) -> str:
    """How the documentation, the help texts and the progress bars say an estimate.

    >>> about(TABLE_BUILD), about(0.2)
    ('about 3 s', 'under a second')
    """
    return f"about {seconds:.0f} s" if seconds >= 0.5 else "under a second"


__all__ = ["COMPACT_BUILD", "PATTERN_BUILD", "TABLE_BUILD", "TABLE_PROOF", "about"]
