"""What searches answer besides a distance: the :class:`Result` codes (also plain ``int``
constants, for numba) and the :class:`Status` a :class:`~bitknights.solution.Solution`
reports.

>>> len({int(code) for code in Result}) == len(Result)
True
>>> Status.of(OVER_LIMIT) is Status.OVER_LIMIT, Status.of(7), Status.TIMEOUT == "timeout"
(True, 'solved', True)
"""

from __future__ import annotations

from enum import Enum, IntEnum


class Result(IntEnum):
    """A kernel's answer when it is not a distance."""

    OVER_LIMIT = -1
    """No path within the move limit (in a batch's output: or none at all)."""
    STOPPED = -2
    """The stop flag was raised (a timeout or Ctrl-C) before the search finished."""
    UNREACHABLE = -3
    """No path at all: the board never reaches the target."""
    OVER_BUDGET = -4
    """IDA* expanded more nodes than its budget allowed (it restarts with a better bound)."""
    GROW = -5
    """The bidirectional search wants the target's side grown by a layer before it goes on."""
    INCONSISTENT = -6
    """A walk down a table found no next board: the file changed under a running process."""


OVER_LIMIT = int(Result.OVER_LIMIT)
STOPPED = int(Result.STOPPED)
UNREACHABLE = int(Result.UNREACHABLE)
OVER_BUDGET = int(Result.OVER_BUDGET)
GROW = int(Result.GROW)
INCONSISTENT = int(Result.INCONSISTENT)

NO_BUDGET = 1 << 62
"""An IDA* node budget that never runs out."""

UNSEEN = 255
"""A distance byte nothing has reached (in a finished table: never reaches the target)."""


class Status(str, Enum):
    """How a :class:`~bitknights.solution.Solution` ended: the word its JSON record
    carries (a ``str``)."""

    SOLVED = "solved"
    OVER_LIMIT = "over_limit"
    """Farther than ``max_depth``."""
    UNREACHABLE = "unreachable"
    """Another number of knights of each colour than the target: never reaches it."""
    TIMEOUT = "timeout"

    # shown as the word it is, not as an enum member
    __repr__ = str.__repr__
    __str__ = str.__str__

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)

    @classmethod
    def of(cls, code: int) -> Status:
        """The status of a kernel's answer: a distance is solved, a code its meaning."""
        if code >= 0:
            return Status.SOLVED
        return _STATUS_OF_CODE[Result(code)]


_STATUS_OF_CODE = {
    Result.OVER_LIMIT: Status.OVER_LIMIT,
    Result.STOPPED: Status.TIMEOUT,
    Result.UNREACHABLE: Status.UNREACHABLE,
}
