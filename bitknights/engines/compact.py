"""The compact-table engine (``--engine compact``): exact answers walked down the compact
distance table (:mod:`bitknights.table.compact`), built the first time it is needed
(once, announced) and kept in the cache directory; microseconds a board, however far.
Importing this module imports neither numpy nor numba.
"""

from __future__ import annotations

from . import Engine, depth_limit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

    import numpy as np

    from ..board import Board
    from ..table.compact import CompactTable
    from . import Found
    from .options import SolveOptions, StopFlag

FROM_DEPTH = 21
"""``auto`` prefers this engine, when its table is there, for limits from this (or none)."""


class CompactEngine(Engine):
    """The compact distance table as an :class:`~bitknights.engines.Engine`: every answer
    a walk down the table in a compiled kernel (``nodes``: the boards walked), after
    waiting for its build as long as ``timeout`` and ``stop`` allow (a batch: all ``-2``
    when ``stop`` was raised first)."""

    name = "compact"
    lookup = True

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether the compact table of ``target`` is at hand: in this process, or a file in
        the cache directory whose header checks (the payload is checked when first used).
        A file there that is refused (not trusted, damaged) is said once."""
        from ..table.compact import CompactTable

        kept = (target.key, CompactTable.path_of(target, cache_dir)) in _TABLES
        return kept or CompactTable.available(target, cache_dir, prove=False)

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        steps, blanks = compact_table(target, options.cache_dir, stop).walk(
            start.black, start.blank, limit
        )
        return steps, blanks, len(blanks)

    def _count_solutions(self, start: Board, target: Board, options: SolveOptions) -> int:
        return compact_table(target, options.cache_dir).count_solutions(start)

    def steps(
        self, keys: np.ndarray | list[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:  # fmt: skip
        """A list for a list, an array for an array."""
        from ..results import STOPPED
        from ..table.compact import PLAIN_BOARDS
        from ..threads import Stopped, background

        try:
            if isinstance(keys, list) and len(keys) <= PLAIN_BOARDS:
                table = compact_table(target, options.cache_dir, stop)
            else:  # the file is read and checked while numpy and the kernels load
                loaded = background(lambda: compact_table(target, options.cache_dir, stop).verify())
                from .. import native

                native.kernels("table")
                table = loaded()
        except Stopped:
            if isinstance(keys, list):
                return [STOPPED] * len(keys)
            import numpy as np

            return np.full(len(keys), STOPPED, dtype=np.int64)
        return table.distances(keys, depth_limit(options.max_depth))


ENGINE = CompactEngine()
available = ENGINE.ready
_TABLES: dict[tuple[int, str], CompactTable] = {}  # checked or built: kept, whatever the file


def compact_table(
    target: Board, cache_dir: str | os.PathLike[str] | None, stop: StopFlag | None = None
) -> CompactTable:
    """The compact table of ``target``: kept from earlier in this process, loaded from the
    cache directory (checked), or built once however many searches ask at the same time
    (announced), each waiting as long as its ``stop`` allows (raises
    :class:`~bitknights.threads.Stopped`).  A file that fails its checks or may not be
    trusted is said once and built afresh."""
    from .. import cache, estimates, progress
    from ..table import compact
    from ..table.store import MissingTableError
    from ..threads import shared, wait

    key = (target.key, compact.path_of(target, cache_dir))
    if key in _TABLES:
        return _TABLES[key]
    try:
        table = compact.load(target, cache_dir)
    except cache.CacheError as e:  # missing, or damaged, forged or not trusted: built afresh
        if not isinstance(e, MissingTableError):
            cache.warn_once(str(e), "building it afresh")

        def build() -> CompactTable:
            progress.announce(
                "building the compact distance table",
                "once, 17 MB: far boards at once",
                estimates.COMPACT_BUILD,
            )
            return compact.build(target, cache_dir)

        table = wait(shared(("compact table", key), build),
                     lambda: stop is not None and stop.raised)  # fmt: skip
    _TABLES[key] = table
    return table
