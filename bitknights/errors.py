"""Error types.  Every error a user can cause is a ``ValueError`` subclass."""

from __future__ import annotations


class BitknightsError(ValueError):
    """Base class of the errors bitknights raises for bad input or requests."""

    refused = False
    """Whether the system rather than the request is at fault (exit status 3, not 2)."""


class BoardError(BitknightsError):
    """A board (or a move on it) is malformed or illegal."""


class InputError(BitknightsError):
    """A batch input is malformed on 1-based ``line``: ``str(err)`` is ``line N: problem``."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem
