"""The ``bitknights`` command line.  ``python -m bitknights`` runs the same.

Each command group lives in a module of its own with a ``register(sub)`` function that adds
its parser; :data:`COMMANDS` lists them in the order ``bitknights --help`` shows them.  A
command module is imported only when one of its commands runs (or for the whole help).
"""

from __future__ import annotations

import contextlib
import os
import sys

from ..errors import BitknightsError
from .commands import COMMANDS, command_module
from .common import ResourceError, UsageError, one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line (see :func:`bitknights.cli.parser.build_parser`)."""
    from .parser import build_parser

    return build_parser(argv)


EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_RESOURCES, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
"""Exit statuses, each failure one line ``bitknights: error: ...`` on standard error:

* 0: done.
* 1: a verdict, not a failure: ``table info``/``verify`` found no valid table; ``check``:
  the moves do not solve the board; ``solutions``: the board never reaches the target
  (one line ``bitknights: no solution: ...`` on standard error says why).
* 2: bad input or request: the line, path and problem are named (a file that changed
  while it was read included).
* 3: the system refused: standard output closed or full (ENOSPC, ``ulimit -f``), a
  temporary copy of standard input or a table that cannot be written for the same
  reasons, out of memory, no threads, a library that cannot be loaded (out of memory or
  file handles, a broken install).
* 130: interrupted (Ctrl-C)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see :data:`EXIT_RESOURCES`).
    With no arguments at all it prints the commands on standard error and returns 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # numpy's OpenBLAS starts a thread per CPU on import, for linear algebra bitknights
    # never does; where threads are scarce (a pids cgroup) it fails with four lines and
    # raises SIGINT.  Ask for none (a setting of the user's own stands).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        return _run(argv)
    except (UsageError, BitknightsError) as e:
        return _fail(str(e), EXIT_RESOURCES if getattr(e, "refused", False) else EXIT_USAGE)
    except ResourceError as e:
        return _fail(str(e), EXIT_RESOURCES)
    except KeyboardInterrupt:
        _interrupted()
        # worker threads may be deep in a kernel: leave without waiting for them
        os._exit(EXIT_INTERRUPTED)
    except Exception as e:
        return _refused(e)


def _run(argv: list[str]) -> int:
    # the classic job, `bitknights solve [FILE]`, needs no parser (argparse and what it
    # imports cost as much as starting Python): the same defaults, from one place
    args = command_module("solve").classic_args(argv) if argv[:1] == ["solve"] else None
    if args is None:
        parser = build_parser(argv)
        if not argv:
            # no command: the list of commands, as a usage error (status 2, like argparse's)
            if sys.stderr is not None:  # (print_help(None) would print on stdout)
                parser.print_help(sys.stderr)
            return EXIT_USAGE
        args = parser.parse_args(argv)
    if sys.stdout is None:
        return _fail("standard output is closed", EXIT_RESOURCES)
    from .. import progress

    progress.set_quiet(args.quiet)  # every command has --quiet
    return args.run(args, sys.stdout)


def _refused(e: Exception) -> int:
    """The one line and status of a failure of the system rather than of the input (see
    :data:`EXIT_RESOURCES`); anything else is a bug and raised."""
    module = _failed_import(e)
    if module is not None:
        return _fail(
            f"cannot load {module}: {_detail(e)} (short of memory or file handles? see "
            "`ulimit -a`; else the installation is broken)",
            EXIT_RESOURCES,
        )
    if isinstance(e, BrokenPipeError):
        # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return EXIT_OK
    if isinstance(e, MemoryError):
        _silence_stdout()
        return _fail("out of memory (solve: fewer --workers, or a smaller batch)", EXIT_RESOURCES)
    if isinstance(e, RuntimeError) and "thread" in str(e):
        return _fail(
            f"cannot start a thread ({e}): threads are limited here (`ulimit -u`, a pids "
            "cgroup); try fewer --workers where a command takes them",
            EXIT_RESOURCES,
        )
    if isinstance(e, OSError):
        # reading errors are reported as UsageError where they happen: this is the output
        _silence_stdout()
        return _fail(f"cannot write the output: {_detail(e)}", EXIT_RESOURCES)
    raise e


def _detail(e: BaseException) -> str:
    """What went wrong, in one line: the first line of the original error's message."""
    while e.__cause__ is not None:
        e = e.__cause__
    if isinstance(e, MemoryError):
        return "out of memory"
    text = (e.strerror if isinstance(e, OSError) else None) or str(e)
    line = next((line.strip() for line in text.splitlines() if line.strip()), type(e).__name__)
    return line if len(line) <= 160 or ". " not in line else line.split(". ")[0] + "."


def _failed_import(e: BaseException) -> str | None:
    """The library (or bitknights module) whose import ``e`` broke off, or None: an
    ``ImportError``, or an ``OSError`` or ``MemoryError`` raised while a module was being
    found or its top level ran (numpy's C extensions or llvmlite's shared library refused
    under ``ulimit -v``, a source file under ``ulimit -n``), or a module left
    half-imported by an earlier failure."""
    partial = isinstance(e, AttributeError) and "partially initialized module" in str(e)
    if not (partial or isinstance(e, (ImportError, OSError, MemoryError))):
        return None
    importing = []
    tb = e.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "<module>":
            importing.append(frame.f_globals.get("__name__"))
        elif frame.f_code.co_name == "_find_and_load":  # importlib, finding the module
            importing.append(frame.f_locals.get("name"))
        tb = tb.tb_next
    names = [m for m in importing if isinstance(m, str) and m]
    module = names[-1] if names else None
    if isinstance(e, ImportError):
        module = e.name or module or "a module"
    elif partial:
        module = getattr(getattr(e, "obj", None), "__name__", None) or module
    if module is None:
        return None
    return module if module.startswith("bitknights") else module.split(".")[0]


def _interrupted() -> None:
    """Say that Ctrl-C ended the command, on a line of its own on a terminal: the terminal
    has echoed ``^C`` where its cursor stood (after a prompt, inside a line being
    written), so a line break goes first, after what standard output still holds."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if sys.stdout.isatty():
            sys.stdout.flush()
    if _isatty(sys.stderr):
        _say("\nbitknights: interrupted\n")
    else:
        if _isatty(sys.stdout):  # the ^C ends its line there; the message goes elsewhere
            with contextlib.suppress(OSError, ValueError, AttributeError):
                sys.stdout.write("\n")
        _say("bitknights: interrupted\n")
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def _say(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(text)
        sys.stderr.flush()


def _fail(message: str, status: int) -> int:
    _say(f"bitknights: error: {one_line(message)}\n")
    return status


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that nothing more is tried on it (the
    interpreter flushes it again on the way out)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def entry() -> None:
    """The console script: :func:`main`, then leave without the interpreter's slow
    teardown (numba and LLVM take 0.1-0.2 s to unload); everything is flushed first."""
    status = main()
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        status = EXIT_OK
    except OSError as e:
        status = _fail(f"cannot write the output: {e.strerror or e}", EXIT_RESOURCES)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    os._exit(status)


__all__ = ["COMMANDS", "ResourceError", "UsageError", "build_parser", "entry", "main"]
