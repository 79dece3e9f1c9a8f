"""The commands, each in a module of its own: the command line imports only the module a
command needs (:func:`bitknights.cli.main`, :mod:`.parser`)."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

COMMANDS: tuple[str, ...] = (
    "solve",
    "table",
    "stats",
    "random",
    "hint",
    "play",
    "check",
    "solutions",
)
"""The top-level commands in the order ``bitknights --help`` lists them; ``bitknights.cli.NAME``
registers command NAME (``tests/test_first_use.py`` checks each adds just its own)."""


def command_module(name: str) -> ModuleType:
    """The command module ``bitknights.cli.NAME``, imported on first use."""
    return importlib.import_module(f"{__package__}.{name}")
