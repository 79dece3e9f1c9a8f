"""Everything is in pyproject.toml except one build step: compiling the IDA* kernels ahead
of time (``bitknights/engines/native.py``).  It is optional: if numba.pycc or a C
compiler is missing, or the compile fails, the install goes on and IDA* runs just in time.
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
        out = os.path.join(here if self.inplace else self.build_lib, "bitknights", "engines")
        sys.path.insert(0, here)
        try:
            from bitknights.engines import native

            print(f"bitknights: compiling the IDA* kernels ahead of time into {out}")
            native.build(out)
        except Exception:  # optional: fall back to the JIT kernels
            traceback.print_exc()
            print("bitknights: WARNING: ahead-of-time compile failed; IDA* will run just in time")
        finally:
            sys.path.remove(here)


setup(distclass=BinaryDistribution, cmdclass={"build_ext": BuildNative})
