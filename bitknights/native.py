"""Every numba kernel a user can reach, compiled ahead of time at ``pip install``
(``setup.py``) with ``numba.pycc`` into the extensions :data:`EXTENSIONS` lists; without a
compiler the same sources run just in time.

An extension records a fingerprint of every source it was compiled from
(:attr:`Extension.sources`); :func:`kernels` uses it only when that matches the sources
beside it (or an installed copy's, when Python imported a checkout), else the JIT module
runs and a terminal is told why.  ``BITKNIGHTS_NATIVE=0`` turns every extension off;
``python -m bitknights.native`` rebuilds in place.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

ENV = "BITKNIGHTS_NATIVE"
_ROOT = Path(__file__).resolve().parent  # the bitknights package


@dataclass(frozen=True)
class Extension:
    """One ahead-of-time module, ``bitknights/<package>/_<key>_native``, compiled from the
    kernel ``modules`` (the first stands in for it just in time) and exporting the kernels
    they declare (:func:`_signatures`); ``what`` and ``jit_seconds`` tell a user what
    compiles just in time, and for how long; ``imports``: the other files of the package
    that ``modules`` import at their top level, transitively, beyond :data:`_SHARED` (a
    test holds them to a parse)."""

    key: str
    modules: tuple[str, ...]
    what: str
    jit_seconds: float
    imports: tuple[str, ...] = ()

    @property
    def package(self) -> str:
        return self.modules[0].split(".")[0]

    @property
    def name(self) -> str:
        return f"_{self.key}_native"

    @property
    def sources(self) -> tuple[str, ...]:
        """The files (relative to the package, sorted) that can change what compiles."""
        own = (f"{module.replace('.', '/')}.py" for module in self.modules)
        return tuple(sorted({*own, *_SHARED, *self.imports}))


_SHARED = ("_export.py", "coords/__init__.py", "results.py", "squares.py")
"""What every kernel module imports: its export types, squares, board encoding, result codes."""

_ALL = (
    Extension("ida", ("engines._ida_kernels", "engines._pdb_kernels"), "IDA*", 5,
              ("coords/kernels.py", "engines/_ida_layout.py")),
    Extension("bidir", ("engines._bidir_kernels",), "bidirectional search", 20,
              ("engines/__init__.py", "engines/hashset.py")),
    Extension("table", ("table.kernels", "coords.kernels"), "distance table", 10,
              ("table/layout.py",)),
)  # fmt: skip
EXTENSIONS = {e.key: e for e in _ALL}


def _ext(which: str | Extension) -> Extension:
    return which if isinstance(which, Extension) else EXTENSIONS[which]


def source_fingerprint(which: str | Extension = "ida") -> int:
    """A 63-bit digest of the sources an extension is compiled from (BLAKE2b from
    ``_blake2``: ``hashlib`` would load OpenSSL)."""
    from _blake2 import blake2b

    h = blake2b(digest_size=8)
    for name in _ext(which).sources:
        h.update(name.encode() + b"\0")
        h.update((_ROOT / name).read_bytes())
    return int.from_bytes(h.digest(), "little") >> 1


def _signatures(which: str | Extension = "ida") -> dict[str, tuple[Callable, object]]:
    """What an extension exports, as its modules declare it beside each kernel
    (:func:`bitknights._export.export`): name -> (JIT kernel, signature)."""
    from ._export import EXPORTS

    modules = [f"bitknights.{module}" for module in _ext(which).modules]
    for module in modules:
        importlib.import_module(module)
    return {name: entry for module in modules for name, entry in EXPORTS[module].items()}


def build(output_dir: str | os.PathLike[str], which: str | Extension = "ida") -> Path:
    """Compile one extension into ``output_dir``; returns its path (needs a C compiler)."""
    import warnings
    from unittest import mock

    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        import numba.pycc.compiler as pycc
        from numba.pycc import CC

    class Flags(pycc.Flags):  # type: ignore[misc]
        """numba.pycc's Python wrappers release the GIL, as ``nogil=True`` does."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True  # type: ignore[assignment]

    ext = _ext(which)
    fingerprint = source_fingerprint(ext)

    def kernel_fingerprint() -> int:
        return fingerprint

    cc = CC(ext.name, source_module=importlib.import_module(f"bitknights.{ext.modules[0]}"))
    cc.output_dir = str(output_dir)
    cc.verbose = False
    cc.export("fingerprint", "i8()")(kernel_fingerprint)
    for name, (kernel, signature) in _signatures(ext).items():
        cc.export(name, signature)(kernel.py_func)  # type: ignore[attr-defined]
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    with mock.patch.object(pycc, "Flags", Flags):
        cc.compile()
    return Path(output_dir) / cc.output_file


def load_from(path: str | os.PathLike[str], which: str | Extension = "ida") -> ModuleType | None:
    """The extension at ``path`` if it was compiled from the current sources, else None."""
    ext = _ext(which)
    spec = importlib.util.spec_from_file_location(ext.name, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        current = module.fingerprint() == source_fingerprint(ext)
    except Exception:  # a foreign or broken module
        return None
    return module if current else None


@cache
def load(which: str = "ida") -> ModuleType | None:
    """The extension compiled from the sources beside this module, unless turned off:
    the one beside them, else another copy's on ``sys.path`` with the same fingerprint
    (the installed one, when Python imported a checkout); else None."""
    if os.environ.get(ENV, "1") == "0":
        return None
    ext = _ext(which)
    for folder in _folders(ext):
        path = _extension_file(folder, ext)
        if path is not None and (module := load_from(path, ext)) is not None:
            return module
    return None


def _folders(ext: Extension) -> Iterator[Path]:
    """The folders of ``ext`` in this copy of bitknights, then in the others on ``sys.path``."""
    here = _ROOT / ext.package
    yield here
    for entry in sys.path:
        try:
            folder = (Path(entry or os.curdir) / "bitknights" / ext.package).resolve()
        except (OSError, RuntimeError, ValueError):
            continue
        if folder != here:
            yield folder


def _extension_file(folder: Path, ext: Extension) -> Path | None:
    paths = (folder / (ext.name + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return next((path for path in paths if path.is_file()), None)


def kernels(which: str) -> ModuleType | SimpleNamespace:
    """The kernels of ``which`` (a key of :data:`EXTENSIONS`) by their exported names:
    the compiled extension when :func:`load` gives it, else their JIT twins (a compile is
    announced on a terminal: :func:`jit_reason`)."""
    return load(which) or _jit(which)


@cache
def _jit(which: str) -> SimpleNamespace:
    _announce_compiles()
    return SimpleNamespace(**{name: fn for name, (fn, _) in _signatures(which).items()})


def jit_reason(which: str | Extension) -> str:
    """Why the kernels of ``which`` run just in time, and what would avoid it."""
    ext = _ext(which)
    if os.environ.get(ENV, "1") == "0":
        return f"{ENV}=0 turns the compiled kernels off"
    built = _extension_file(_ROOT / ext.package, ext) is not None
    checkout = _ROOT.parent
    if (checkout / "setup.py").is_file() and (checkout / "pyproject.toml").is_file():
        if built:
            return (
                f"the kernels compiled in the checkout {checkout} are older than its sources; "
                "`python -m bitknights.native` compiles them again"
            )
        return (
            f"Python imported the checkout {checkout} (started in it), which has no kernels "
            "compiled from its sources; `pip install -e .` compiles them there, or start "
            "Python outside it to use an installed copy"
        )
    if built:
        return "the installed compiled kernels do not match the installed sources; reinstall"
    return "bitknights was installed without compiling them (no C compiler?); reinstall"


@cache
def _announce_compiles() -> None:
    """Have numba say on a terminal, once per extension, that its kernels compile just in
    time: what, for how long, why and what avoids it."""
    from numba.core import event

    from . import progress

    said: set[str] = set()

    class Announce(event.Listener):  # type: ignore[misc]
        def on_start(self, ev: event.Event) -> None:
            fn = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            module = getattr(fn, "__module__", "").removeprefix("bitknights.")
            for ext in EXTENSIONS.values():
                if module in ext.modules and ext.key not in said:
                    said.add(ext.key)
                    progress.announce(
                        f"compiling the {ext.what} kernels just in time "
                        f"(~{ext.jit_seconds:.0f} s, then cached): {jit_reason(ext)}"
                    )

        def on_end(self, ev: event.Event) -> None:
            pass

    event.register("numba:compile", Announce())


def is_native(module: ModuleType) -> bool:
    """Whether ``module`` is a compiled extension (not a JIT kernel module)."""
    name = getattr(module, "__name__", "")
    return name.rsplit(".", 1)[-1] in {e.name for e in EXTENSIONS.values()}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bitknights.native [DIR]``: compile every extension into DIR (default:
    beside the sources).  ``--check``: exit status 1, naming them, when some extension is
    missing or stale."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        gone = [ext for ext in EXTENSIONS.values() if load(ext.key) is None]
        for ext in gone:
            dotted = f"bitknights.{ext.package}.{ext.name}"
            print(f"bitknights: the {ext.key} kernels are not compiled ahead of time "
                  f"({dotted} is missing or stale)", file=sys.stderr)  # fmt: skip
        return 1 if gone else 0
    for ext in EXTENSIONS.values():
        out = Path(args[0]) / ext.package if args else _ROOT / ext.package
        print(build(out, ext))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
