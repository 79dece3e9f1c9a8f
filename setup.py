"""Everything is in pyproject.toml except compiling the numba kernels ahead of time
(``bitknights/native.py``).  It is optional: if numba.pycc or a C compiler is missing, or
a compile fails, the install goes on and those kernels run just in time (CI checks:
``python -m bitknights.native --check``).
"""

import os
import sys
import traceback

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext


class BinaryDistribution(Distribution):
    """The wheel holds a compiled extension, so it is platform-specific."""

    def has_ext_modules(self) -> bool:
        return True


class BuildNative(build_ext):
    def run(self) -> None:
        super().run()
        here = os.path.dirname(os.path.abspath(__file__))
        root = os.path.join(here if self.inplace else self.build_lib, "bitknights")
        sys.path.insert(0, here)
        try:
            from bitknights import native

            for ext in native.EXTENSIONS.values():
                out = os.path.join(root, ext.package)
                print(f"bitknights: compiling the {ext.key} kernels ahead of time into {out}")
                try:
                    native.build(out, ext)
                except Exception:  # optional: fall back to the JIT kernels
                    traceback.print_exc()
                    print(f"bitknights: WARNING: ahead-of-time compile of the {ext.key} kernels "
                          "failed; they will run just in time")  # fmt: skip
        except ImportError:
            traceback.print_exc()
            print("bitknights: WARNING: no numba at build time; every kernel runs just in time")
        finally:
            sys.path.remove(here)


setup(distclass=BinaryDistribution, cmdclass={"build_ext": BuildNative})
