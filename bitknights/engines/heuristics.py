"""What an IDA* search is asked and what it answers (:mod:`.ida`): the bound
(:class:`Bound`, built-ins by name or a user's function) and the record of one run
(:class:`Trial`), the engine's and the heuristic lab's alike."""

from __future__ import annotations

from functools import reduce
from operator import or_

from .._records import Record
from ..errors import BitknightsError, plural
from ..results import Status
from . import _ida_layout as K

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..board import Board, Move

BUILTINS = {"misplaced": K.MISPLACED, "knight_distance": K.NEAREST, "pdb": K.PATTERNS}
"""The built-in parts of a bound by name (see :mod:`._ida_kernels`)."""


# -- bounds -------------------------------------------------------------------------------


class Bound(Record):
    """A heuristic: the maximum of the built-in parts in ``flags`` and of ``user`` (a
    numba ``@njit`` function ``h(white, black, blank) -> int``, or ``None``); ``name``
    is what records call it."""

    name: str
    flags: int
    user: object = None


NEAREST = Bound("knight_distance", K.NEAREST)
PATTERNS = Bound("pdb", K.PATTERNS)


def builtin(name: str) -> Bound:
    """The built-in bound ``name``, or a maximum of them written ``max(a,b,...)``.

    >>> builtin("max(misplaced,pdb)").flags == BUILTINS["misplaced"] | BUILTINS["pdb"]
    True
    """
    text = name.replace(" ", "")
    parts = text[4:-1].split(",") if text.startswith("max(") and text.endswith(")") else [text]
    for part in parts:
        if part not in BUILTINS:
            known = ", ".join(BUILTINS)
            raise BitknightsError(
                f"unknown heuristic {part!r}: the built-ins are {known}, and max(a,b,...) of them"
            )
    return Bound(text, reduce(or_, (BUILTINS[part] for part in parts)))


def heuristic(spec: object, name: str | None = None) -> Bound:
    """The bound a spec names: a built-in's name, a function ``h(white, black, blank) ->
    int``, or a bound.

    >>> heuristic("pdb").name, heuristic(lambda w, b, s: 0, "zero").name
    ('pdb', 'zero')
    """
    if isinstance(spec, str):
        spec = builtin(spec)
    if isinstance(spec, Bound):
        return spec if name is None else spec._replace(name=name)
    if callable(spec):
        return Bound(str(name or getattr(spec, "__name__", "user")), K.USER, spec)
    raise TypeError(f"a heuristic is a built-in's name or a function, got {spec!r}")


def maximum(*parts: object, name: str | None = None) -> Bound:
    """The maximum of several heuristics (at most one user function).

    >>> maximum("misplaced", "knight_distance").name
    'max(misplaced,knight_distance)'
    """
    bounds = [heuristic(p) for p in parts]
    users = [b.user for b in bounds if b.user is not None]
    if len(users) > 1:
        raise BitknightsError("maximum() takes at most one user function")
    label = name or f"max({','.join(b.name for b in bounds)})"
    return Bound(label, reduce(or_, (b.flags for b in bounds), 0), users[0] if users else None)


class Trial(Record):
    """One IDA* run of one heuristic on one board: ``h0``, the bound at the start;
    ``iterations``, ``(threshold, nodes)`` each; the path as ``moves``.  Against a
    distance table (:func:`bitknights.lab.compare` fills what needs the start's truth):
    the true ``distance``, ``optimal``, ``checked`` (bound values compared),
    ``overestimates`` and ``worst`` (``(board, bound, true distance)``); ``None`` where
    not compared (``note``)."""

    board: Board
    heuristic: str
    steps: int | None
    status: Status
    nodes: int
    seconds: float
    h0: int
    iterations: tuple[tuple[int, int], ...]
    moves: tuple[Move, ...] = ()
    distance: int | None = None
    optimal: bool | None = None
    checked: int = 0
    overestimates: int | None = None
    worst: tuple[Board, int, int] | None = None
    note: str = ""
    h0_overestimates: bool | None = None

    @property
    def flagged(self) -> bool:
        """Whether the truth shows the heuristic wrong here."""
        return bool(self.overestimates) or self.optimal is False

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def __repr__(self) -> str:
        """One line: the heuristic, what it found, its work and the verdict.

        >>> from bitknights import lab
        >>> (t,) = lab.compare(["10110/01*11/10111/01001/00000"], "knight_distance")
        >>> t  # doctest: +ELLIPSIS
        <Trial 'knight_distance' solved in 7 moves, 9 nodes, h0 7: ...>
        """
        work = plural(self.nodes, "node", ",")
        if self.steps is None:
            found = f"{self.status} after {work}"
        else:
            found = f"solved in {plural(self.steps, 'move')}, {work}"
        return f"<Trial {self.heuristic!r} {found}, h0 {self.h0}: {self.verdict}>"

    @property
    def verdict(self) -> str:
        """What the distance table says of this trial, in a few words."""
        if self.overestimates is None:
            return "not checked (no table)"
        why = []
        if self.overestimates:
            where = "the start" if self.checked == 1 else f"{self.overestimates:,} boards"
            why.append(f"overestimates at {where}")
        if self.optimal is False:
            why.append(f"not optimal (the distance is {self.distance})")
        if why:
            return "flagged: " + ", ".join(why)
        if self.optimal:
            return "optimal"
        return "unreachable" if self.status is Status.UNREACHABLE else "no answer to check"

    def as_dict(self) -> dict[str, Any]:
        """The trial as JSON-ready data."""
        d = self._asdict()
        d["board"] = self.board.compact
        d["status"] = str(self.status)
        d["moves"] = [str(m) for m in self.moves]
        d["iterations"] = [list(x) for x in self.iterations]
        if self.worst is not None:
            d["worst"] = {"board": self.worst[0].compact, "bound": self.worst[1],
                          "distance": self.worst[2]}  # fmt: skip
        d["flagged"] = self.flagged
        return d
