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
from .common import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line (see :func:`bitknights.cli.parser.build_parser`)."""
    from .parser import build_parser

    return build_parser(argv)


EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_RESOURCES, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
"""Exit statuses: 0 done; 1 ``table info`` found no valid table; 2 bad input or request;
3 the system refused (output not writable, out of memory, no threads); 130 interrupted."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see :data:`EXIT_RESOURCES`).
    With no arguments at all it prints the commands on standard error and returns 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # the classic job, `bitknights solve [FILE]`, needs no parser (argparse and what it
    # imports cost as much as starting Python): the same defaults, from one place
    args = command_module("solve").classic_args(argv) if argv[:1] == ["solve"] else None
    if args is None:
        parser = build_parser(argv)
        if not argv:
            # no command: the list of commands, as a usage error (status 2, like argparse's)
            if sys.stderr is not None:  # (print_help(None) would print on stdout)
                parser.print_help(sys.stderr)
            return 2
        args = parser.parse_args(argv)
    if sys.stdout is None:
        return _fail("standard output is closed", EXIT_RESOURCES)
    from .. import progress

    progress.set_quiet(args.quiet)  # every command has --quiet
    try:
        return args.run(args, sys.stdout)
    except (UsageError, BitknightsError) as e:
        return _fail(str(e), EXIT_USAGE)
    except KeyboardInterrupt:
        # worker threads may be deep in a kernel: leave without waiting for them
        _say("bitknights: interrupted\n")
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os._exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return EXIT_OK
    except MemoryError:
        _silence_stdout()
        return _fail("out of memory (try fewer --workers, or a smaller batch)", EXIT_RESOURCES)
    except RuntimeError as e:
        if "thread" not in str(e):
            raise
        return _fail(f"cannot start worker threads ({e}); try fewer --workers", EXIT_RESOURCES)
    except OSError as e:
        # reading errors are reported as UsageError where they happen: this is the output
        _silence_stdout()
        return _fail(f"cannot write the output: {e.strerror or e}", EXIT_RESOURCES)


def _say(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(text)
        sys.stderr.flush()


def _fail(message: str, status: int) -> int:
    _say(f"bitknights: error: {message}\n")
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


__all__ = ["COMMANDS", "UsageError", "build_parser", "entry", "main"]
