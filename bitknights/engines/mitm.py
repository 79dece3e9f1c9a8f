"""Meet-in-the-middle engine (``mitm``): plain Python, for a few boards under a small limit.

Importing numpy takes longer than a judge's whole test file takes to answer, so this
engine uses neither numpy nor numba.  It meets in the middle:

- the **ball**: every board within ``radius`` moves of the target, with its exact
  distance (a breadth-first search from the target; moves are reversible).  For the
  classic target the radius-10 ball (57,427 boards) ships as package data,
  ``data/classic-ball.bkb``: 290 KB, read and checked (every byte under a CRC-32, the
  payload the one this version ships: :func:`read_ball`) in under a millisecond, where
  computing it takes about 50 ms (:func:`write_ball` makes it; a test checks it against
  a fresh computation).  A shipped file that fails a check is said once on standard error and
  computed instead.  For another target the ball is computed once per process.
- a **forward search** from each board: breadth-first layers, at most ``limit - radius``
  of them, looked up in the ball until a board of one lies in it.

Why it is exact (:func:`_search`): a board in the ball answers at once.  Else let ``i``
be the first forward layer with a board in the ball: every board of the layers before
lies farther than ``radius``, so the distance ``d`` is at least ``radius + i``, and the
board met lies ``radius`` away, so ``d`` is exactly ``radius + i``; no board of the last
layer in the ball means ``d > limit``.  Every move changes the colour of the blank's
square, so half of the layers cannot meet the ball and are only made, not looked up, and
the first board met ends the search.  Within the classic limit (15) that is at most 5
layers, a hundred boards or so: about 0.1 ms a board.

The forward search grows about 2.5× a move past ``radius + 5``, so the engine answers
limits up to :data:`MAX_DEPTH` (about a second and tens of MB a board at worst) and
refuses larger ones, ``--exact`` among them, with a message naming the engines that
answer them; a forward search that would hold more than :data:`MAX_FORWARD` boards stops
with the same message rather than eat memory.  ``auto`` uses this engine only for small
classic batches (see :mod:`bitknights.service`).  It polls its stop flag between boards
and every few thousand boards of a forward search, so timeouts and Ctrl-C hold.

>>> from bitknights import TARGET, Board
>>> from bitknights.engines.options import SolveOptions
>>> ENGINE.steps_many([Board("10110/01*11/10111/01001/00000").key, TARGET.key], TARGET,
...                   SolveOptions())
[7, 0]
"""

from __future__ import annotations

import os
import struct
import zlib
from array import array
from bisect import bisect_left

from .. import cache
from ..errors import BitknightsError
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES, square_color
from . import Engine
from .options import Capabilities, check_limit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..board import Board
    from . import Found
    from .options import SolveOptions, StopFlag

RADIUS = 10
"""Radius of the balls this engine computes and of the one it ships."""

AUTO_LAYERS = 5
AUTO_BOARDS = 200
"""``auto`` gives this engine at most ``AUTO_LAYERS`` forward layers (radius 10 + 5: the
classic limit 15, a few hundred boards a search) and at most ``AUTO_BOARDS`` boards.  It
needs no numpy (whose import alone takes 0.1 s) but spends about 0.3 ms a board where numpy
bidirectional search spends microseconds; measured whole process with nothing cached on
random boards (most of them -1), the two cross between 400 and 800 boards, so 200 keeps a
margin."""

MAX_DEPTH = 22
"""The deepest limit this engine accepts: 12 forward layers, at most some 10^5 boards and
a second a board.  Larger limits (``--exact``) are refused: the forward search grows about
2.5x a move."""

MAX_FORWARD = 1 << 20
"""The most forward boards one search may hold (about 100 MB of Python objects); a search
that needs more stops with an error instead (it cannot happen within ``MAX_DEPTH``)."""

_POLL = 4096  # forward boards between looks at the stop flag

MAGIC = b"BKNMBALL"
VERSION = 2
BALL_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "classic-ball.bkb")
"""The shipped ball of the classic target.  Layout (little-endian): a header
(:func:`bitknights.cache.pack_header`: magic, format version, header size, the fields
below, CRC-32 of it all), then the payload: n sorted keys (u32 each), then n distances
(a byte each).  Fields: target key (u64), radius (u32), board count n (u32), CRC-32 of
the payload (u32).  Every byte of the file is under a checksum.  The payload is not
compressed: inflating it would take longer than reading it (the wheel compresses it)."""

CLASSIC_LAYERS = (1, 8, 14, 38, 148, 368, 1001, 2440, 6468, 14116, 32825)
"""How many boards are 0, 1, ..., 10 moves from the classic target (a test recomputes
them): a shipped ball must have exactly these."""

SHIPPED_CRC = 0xFE19BFC4
"""The CRC-32 of the shipped ball's payload: the one ball of the classic target of radius
:data:`RADIUS` (a test computes it afresh).  A file whose checksums match and whose
payload has this checksum is that ball, so its keys' order, its boards at each distance
and the rest need no checking when it is read (they were when it was made)."""

_FIELDS = struct.Struct("<QIII")
MAX_BALL_BYTES = 1 << 20
"""The shipped file is about 290 KB; anything larger is refused before it is read."""


class BallError(ValueError):
    """The shipped ball fails a check; the message says which (see :func:`parse_ball`)."""


class Ball:
    """Every board within ``radius`` moves of ``target``, with its exact distance.

    ``keys`` (sorted ``Board.key`` values) and ``dists`` are parallel; :meth:`get` finds
    a board by binary search, so loading needs no dictionary of 57,000 entries.
    """

    __slots__ = ("dists", "keys", "radius", "target_key")

    def __init__(self, target_key: int, radius: int, keys: array, dists: bytes) -> None:
        self.target_key, self.radius, self.keys, self.dists = target_key, radius, keys, dists

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int) -> int | None:
        """The board's distance to the target, or ``None`` when more than ``radius``."""
        i = bisect_left(self.keys, key)
        return self.dists[i] if i < len(self.keys) and self.keys[i] == key else None

    def payload(self) -> bytes:
        """The keys (u32, little-endian) and then the distances."""
        return cache.u32_bytes(self.keys) + bytes(self.dists)


_MOVES = tuple(
    tuple((1 << n, (1 << n) | (1 << blank), n << NUM_SQUARES) for n in KNIGHT_TARGETS[blank])
    for blank in range(NUM_SQUARES)
)
"""``_MOVES[blank]``: for each square ``n`` a knight's jump from the blank, ``(bit of n,
the bits that flip when a black knight jumps from n into the blank, n as a key's blank)``."""


_COLOR = tuple(square_color(sq) for sq in range(NUM_SQUARES))
"""Each square's colour: a move takes the blank to a square of the other colour."""


def _neighbours(key: int) -> Iterable[int]:
    black = key & FULL_MASK
    for bit, flip, shifted in _MOVES[key >> NUM_SQUARES]:
        yield (black ^ flip if black & bit else black) | shifted


def _next_layer(frontier: list[int], seen: dict[int, int], mark: int | None = None) -> list[int]:
    """The boards one move from ``frontier`` not in ``seen``, entered there with ``mark``
    (``None``: the board they were reached from)."""
    nxt = []
    for key in frontier:
        for child in _neighbours(key):
            if child not in seen:
                seen[child] = key if mark is None else mark
                nxt.append(child)
    return nxt


def build_ball(target: Board, radius: int = RADIUS) -> Ball:
    """The ball of ``target`` by breadth-first search (radius 10: about 50 ms).

    >>> from bitknights import TARGET
    >>> b = build_ball(TARGET, 2)
    >>> len(b), b.get(TARGET.key), b.get(TARGET.play(TARGET.moves()[0]).key)
    (23, 0, 1)
    """
    dist = {target.key: 0}
    frontier = [target.key]
    for d in range(1, radius + 1):
        frontier = _next_layer(frontier, dist, d)
    keys = sorted(dist)
    return Ball(target.key, radius, array("I", keys), bytes(dist[k] for k in keys))


def ball_bytes(ball: Ball) -> bytes:
    """The ball as a file (the layout in :data:`BALL_FILE`'s description)."""
    payload = ball.payload()
    fields = _FIELDS.pack(ball.target_key, ball.radius, len(ball), zlib.crc32(payload))
    return cache.pack_header(MAGIC, VERSION, fields) + payload


def read_ball(data: bytes) -> Ball:
    """The classic target's ball a file holds, every check passed, else :class:`BallError`
    naming the first that fails: header (magic, version, size, checksum), the payload's
    size and checksum, the classic target's, of radius :data:`RADIUS`, and the very
    ball this version ships (:data:`SHIPPED_CRC`, about 0.2 ms in all).  Any other ball
    is refused, saying what is wrong with it: keys out of order, other than
    :data:`CLASSIC_LAYERS` boards at each distance, the target not at 0 or its
    neighbours not at 1, or else another payload."""
    from ..board import TARGET

    fields = cache.unpack_header(data, MAGIC, VERSION, BallError)
    size = cache.header_size(data) or 0
    if len(fields) != _FIELDS.size:
        raise BallError("has a corrupt header")
    key, radius, count, crc = _FIELDS.unpack(fields)
    if len(data) != size + 5 * count:
        raise BallError(f"has {len(data):,} bytes, its header says {size + 5 * count:,}")
    if zlib.crc32(memoryview(data)[size:]) != crc:
        raise BallError("is corrupt (payload checksum mismatch)")
    if key != TARGET.key:
        raise BallError("is not the classic target's ball")
    if radius != RADIUS:
        raise BallError(f"has radius {radius}, not {RADIUS}")
    keys = cache.u32_array(memoryview(data)[size : size + 4 * count])
    ball = Ball(key, radius, keys, data[size + 4 * count :])
    if crc != SHIPPED_CRC or count != sum(CLASSIC_LAYERS):
        _diagnose(ball)
    return ball


def _diagnose(ball: Ball) -> None:
    """Raise :class:`BallError` saying what is wrong with a ball that is not the one this
    version ships."""
    listed = ball.keys.tolist()
    if listed != sorted(listed):  # binary search needs them in order
        raise BallError("is inconsistent (its keys are not in order)")
    radius = ball.radius
    if tuple(ball.dists.count(d) for d in range(radius + 1)) != CLASSIC_LAYERS[: radius + 1] or (
        len(ball) != sum(CLASSIC_LAYERS[: radius + 1])
    ):
        raise BallError("is inconsistent (its boards at each distance are not the classic ones)")
    near = [ball.get(n) for n in _neighbours(ball.target_key)]
    if ball.get(ball.target_key) != 0 or near != [1] * len(near):
        raise BallError("is inconsistent (wrong distances next to the target)")
    raise BallError("is not the ball this version ships (its payload checksum differs)")


def parse_ball(data: bytes) -> Ball | None:
    """:func:`read_ball`, or ``None`` when it fails: a damaged file is never used."""
    try:
        return read_ball(data)
    except BallError:
        return None


def write_ball(path: str = BALL_FILE) -> None:
    """Write the classic target's ball to ``path`` (how the shipped file is made)."""
    from ..board import TARGET

    with open(path, "wb") as f:
        f.write(ball_bytes(build_ball(TARGET)))


_balls: dict[int, Ball] = {}


def ball_of(target: Board) -> Ball:
    """The ball of ``target``: the shipped file for the classic target when it passes
    every check (:func:`read_ball`), else computed (once per process; a shipped file
    that is refused is said once on standard error)."""
    from ..board import TARGET

    ball = _balls.get(target.key)
    if ball is None:
        ball = _read_shipped() if target == TARGET else None
        if ball is None:
            ball = build_ball(target)
        _balls[target.key] = ball
    return ball


def _read_shipped() -> Ball | None:
    """The shipped ball, or ``None`` after saying on standard error why it is not used.

    It is opened as the cache files are (:func:`bitknights.cache.open_cached`: without
    blocking, a regular file, at most :data:`MAX_BALL_BYTES`), but without their trust
    rule: it lies beside the code that reads it, so whoever can write it can write that
    code too, and a shared installation (root's, or a group's environment) is not the
    user's own; the rule would refuse installations that are fine and protect nothing."""
    try:
        fd, st = cache.open_cached(BALL_FILE, "shipped ball", trust=False,
                                   max_size=MAX_BALL_BYTES, fix=_FIX)  # fmt: skip
        try:
            data = cache.read_at(fd, st.st_size, 0)
        finally:
            os.close(fd)
        return read_ball(data)
    except FileNotFoundError:
        problem = f"shipped ball {BALL_FILE} is missing; {_FIX}"
    except OSError as e:
        problem = f"cannot read shipped ball {BALL_FILE}: {e.strerror or e}; {_FIX}"
    except cache.CacheError as e:
        problem = str(e)
    except BallError as e:
        problem = f"shipped ball {BALL_FILE} {e}; {_FIX}"
    cache.warn_once(problem, "computing it instead")
    return None


_FIX = "reinstall bitknights to restore it"


# Classic batches use no result code but -1 (``results.OVER_LIMIT``: beyond the limit, or
# never reaching the target), spelt out so that the module need not import the codes' enum.


class _Stopped(Exception):
    """The stop flag was raised during a forward search."""


def _search(
    start: int, ball: Ball, limit: int, stop: StopFlag | None
) -> tuple[int, int, int, dict[int, int]]:
    """``(distance or -1 beyond limit, the forward board where the halves meet, boards
    looked up, each forward board's predecessor)``.  Raises :class:`_Stopped` when
    ``stop`` is raised, :class:`BitknightsError` past :data:`MAX_FORWARD` boards.

    Layer ``i`` holds the boards first reached ``i`` moves from ``start``.  When no board
    of layers ``0 .. i - 1`` lies in the ball, ``d >= radius + i`` (the board ``i - 1``
    moves along an optimal path would), so a board of layer ``i`` in the ball lies
    exactly ``radius`` away and ``d = radius + i``: the first one found ends the search,
    and only the ball's outermost layer can hold it.  Every move changes the colour of
    the blank's square, so ``d`` has the parity the colours give: layers where ``radius
    + i`` has the other parity cannot meet the ball and are not looked up (the last such
    layer is not even made)."""
    keys, dists, find = ball.keys, ball.dists, bisect_left
    n, radius = len(keys), ball.radius
    at = find(keys, start)
    if at < n and keys[at] == start:
        return (dists[at] if dists[at] <= limit else -1), start, 1, {start: start}
    parity = _COLOR[start >> NUM_SQUARES] ^ _COLOR[ball.target_key >> NUM_SQUARES]
    frontier = [start]
    parents = {start: start}
    nodes = 1
    moves = _MOVES
    for i in range(1, limit - radius + 1):
        look = (radius + i - parity) % 2 == 0
        last = i == limit - radius
        if last and not look:
            break
        nxt: list[int] = []
        add = nxt.append
        for j, key in enumerate(frontier):
            if not j % _POLL and stop is not None and stop.raised:
                raise _Stopped
            black = key & FULL_MASK
            for bit, flip, shifted in moves[key >> NUM_SQUARES]:
                child = (black ^ flip if black & bit else black) | shifted
                if child in parents:
                    continue
                if look:
                    nodes += 1
                    at = find(keys, child)
                    if at < n and keys[at] == child:
                        parents[child] = key
                        return radius + i, child, nodes, parents
                if not last:
                    parents[child] = key
                    add(child)
        frontier = nxt
        if len(parents) > MAX_FORWARD:
            raise BitknightsError(
                f"the mitm engine's forward search passed {MAX_FORWARD:,} boards (its "
                "memory budget); use --engine bidir, or table"
            )
    return -1, -1, nodes, parents


def _valid(key: int, black_count: int) -> bool:
    black, blank = key & FULL_MASK, key >> NUM_SQUARES
    return blank < NUM_SQUARES and not black >> blank & 1 and black.bit_count() == black_count


class MitmEngine(Engine):
    """Meeting in the middle as an :class:`~bitknights.engines.Engine`, in plain
    Python on the calling thread: ``nodes`` counts the forward boards looked up."""

    name = "mitm"
    capabilities = Capabilities(
        lookup=False,
        exact_at_any_depth=False,
        numpy_depth=-1,
        counts_solutions=False,
        plain_depth=RADIUS + AUTO_LAYERS,
        plain_boards=AUTO_BOARDS,
        max_limit=MAX_DEPTH,
    )

    def _steps(
        self, keys: Iterable[int], target: Board, limit: int, options: SolveOptions,
        stop: StopFlag | None,
    ) -> list[int]:  # fmt: skip
        check_limit(self.name, self.capabilities, options.max_depth)
        ball = ball_of(target)
        k = target.counts[1]
        out = []
        try:
            for key in keys:
                key = int(key)
                out.append(_search(key, ball, limit, stop)[0] if _valid(key, k) else -1)
        except _Stopped:
            from ..results import STOPPED

            out += [STOPPED] * (len(keys) - len(out))  # type: ignore[arg-type]
        return out

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        from ..results import STOPPED

        check_limit(self.name, self.capabilities, options.max_depth)
        ball = ball_of(target)
        try:
            steps, meet, nodes, parents = _search(start.key, ball, limit, stop)
        except _Stopped:
            return STOPPED, (), 0
        if steps < 0:
            return steps, (), nodes
        path = [meet]
        while path[-1] != start.key:
            path.append(parents[path[-1]])
        path.reverse()
        key = meet
        for want in range(ball.get(meet) - 1, -1, -1):  # type: ignore[operator]
            key = next(c for c in _neighbours(key) if ball.get(c) == want)
            path.append(key)
        return steps, [key >> NUM_SQUARES for key in path], nodes


ENGINE = MitmEngine()
