"""What one run of the command line is given and what it gives back: its
:class:`Environment` (standard streams, environment variables, which streams are
terminals) and its :class:`ExitStatus`.  (httpie's ``Environment`` is the model.)"""

from __future__ import annotations

import enum
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO


class ExitStatus(enum.IntEnum):
    """The exit statuses of ``bitknights``; each failure is one line ``bitknights: error:
    ...`` on standard error.

    * ``OK`` (0): done.
    * ``INVALID`` (1): a verdict, not a failure: ``table info``/``verify`` found no valid
      table; ``check``: the moves do not solve the board; ``solutions``: the board never
      reaches the target (one line ``bitknights: no solution: ...`` on standard error
      says why).
    * ``USAGE`` (2): bad input or request: the line, path and problem are named (a file
      that changed while it was read included).
    * ``RESOURCES`` (3): the system refused: standard output closed or full (ENOSPC,
      ``ulimit -f``), a temporary copy of standard input or a table that cannot be written
      for the same reasons, out of memory, no threads, a library that cannot be loaded
      (out of memory or file handles, a broken install).
    * ``INTERRUPTED`` (130): interrupted (Ctrl-C).
    """

    OK = 0
    INVALID = 1
    USAGE = 2
    RESOURCES = 3
    INTERRUPTED = 130


class _Process:
    """The default of an :class:`Environment` stream: the process's own."""

    def __repr__(self) -> str:
        return "PROCESS"


PROCESS = _Process()


class Environment:
    """The standard streams and environment variables one run of
    :func:`bitknights.cli.main` reads and writes, and whether each stream is a terminal.
    Every argument defaults to the process's own (``sys.stdin``, ... and ``os.environ``
    as they are when the environment is made); a stream may be ``None`` (closed).  Whether
    a stream is a terminal defaults to its ``isatty()``.

    >>> import io
    >>> env = Environment(stdin=io.StringIO("1\\n"), stdout=io.StringIO(), environ={})
    >>> env.stdin_isatty, env.stdout_isatty, env.cache_dir("/data/bk")
    (False, False, '/data/bk')
    """

    def __init__(
        self,
        *,
        stdin: IO[str] | None | _Process = PROCESS,
        stdout: IO[str] | None | _Process = PROCESS,
        stderr: IO[str] | None | _Process = PROCESS,
        environ: Mapping[str, str] | None = None,
        stdin_isatty: bool | None = None,
        stdout_isatty: bool | None = None,
        stderr_isatty: bool | None = None,
    ) -> None:
        self.stdin: IO[str] | None = sys.stdin if isinstance(stdin, _Process) else stdin
        self.stdout: IO[str] | None = sys.stdout if isinstance(stdout, _Process) else stdout
        self.stderr: IO[str] | None = sys.stderr if isinstance(stderr, _Process) else stderr
        self.environ: Mapping[str, str] = os.environ if environ is None else environ
        self.stdin_isatty = _isatty(self.stdin) if stdin_isatty is None else stdin_isatty
        self.stdout_isatty = _isatty(self.stdout) if stdout_isatty is None else stdout_isatty
        self.stderr_isatty = _isatty(self.stderr) if stderr_isatty is None else stderr_isatty

    def __repr__(self) -> str:
        ttys = [n for n in ("stdin", "stdout", "stderr") if getattr(self, f"{n}_isatty")]
        return f"<Environment, terminals: {', '.join(ttys) or 'none'}>"

    @property
    def out(self) -> IO[str]:
        """Standard output, where a command writes its answers (``OSError`` when it is
        closed: :func:`bitknights.cli.main` refuses that before a command runs)."""
        if self.stdout is None:
            import errno

            raise OSError(errno.EBADF, "standard output is closed")
        return self.stdout

    def feedback(self, quiet: bool = False) -> bool:
        """Whether notices and progress bars are wanted: standard error is a terminal and
        ``--quiet`` was not given."""
        return self.stderr_isatty and not quiet and self.stderr is not None

    def cache_dir(self, given: str | None) -> str:
        """The cache directory: ``given`` (``--cache-dir``), else ``$BITKNIGHTS_CACHE_DIR``
        of this environment, else the user cache directory (an empty setting: the
        default; :func:`bitknights.cache.cache_directory`)."""
        from ..cache import cache_directory

        return cache_directory(given, self.environ)

    def say(self, text: str) -> None:
        """Write ``text`` on standard error now (nothing when it is closed or broken)."""
        if self.stderr is None:
            return
        try:
            self.stderr.write(text)
            self.stderr.flush()
        except (OSError, ValueError):
            pass


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False
