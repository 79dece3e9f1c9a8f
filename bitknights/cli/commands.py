"""The command modules and the commands each registers: the command line imports only
the module a command needs (:func:`bitknights.cli.main`, :mod:`.parser`)."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

COMMANDS: dict[str, tuple[str, ...]] = {
    "solve": ("solve",),
    "table": ("table", "stats", "random", "hint"),
    "play": ("play", "check"),
    "solutions": ("solutions",),
}
"""Command modules (``bitknights.cli.NAME``) and the top-level commands each registers
(``tests/test_first_use.py`` checks these against what ``register`` adds)."""


def command_module(name: str) -> ModuleType:
    """The command module ``bitknights.cli.NAME``, imported on first use."""
    return importlib.import_module(f"{__package__}.{name}")
