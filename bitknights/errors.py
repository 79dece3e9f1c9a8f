"""Error types (every error a user can cause is a ``ValueError`` subclass), and how their
messages count things."""

from __future__ import annotations


def plural(n: int, word: str, spec: str = "") -> str:
    """``n`` (formatted by ``spec``) and ``word``, with an ``s`` unless ``n`` is 1.

    >>> plural(1, "move"), plural(12345, "board", ",")
    ('1 move', '12,345 boards')
    """
    return f"{n:{spec}} {word}{'' if n == 1 else 's'}"


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
