"""Build the Cython extensions. Compiler directives are set once, here.

PATCHSOLVE_DEBUG=1 rebuilds with bounds checks, wraparound checks and
assertions on, and without optimisation, for hunting memory errors.
"""

import os
import platform
from pathlib import Path

import numpy  # noqa: F401  (build requirement; keeps the include path available)
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PATCHSOLVE_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "infer_types": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
# The bitboards count squares all the time: on x86-64 the popcnt instruction
# instead of libgcc's __popcountdi2 call makes the exact solver ~15-20% faster
# (benchmarks/results/solve_reach.md). Every x86-64 CPU since 2008 has it;
# PATCHSOLVE_PORTABLE=1 builds without it.
if (not DEBUG and platform.machine().lower() in ("x86_64", "amd64")
        and os.environ.get("PATCHSOLVE_PORTABLE", "") in ("", "0")):
    compile_args.append("-mpopcnt")
if DEBUG:
    macros = []
else:
    macros = [("CYTHON_WITHOUT_ASSERTIONS", None)]

# Every .pyx under src/patchsolve becomes an extension (core and searchers).
sources = sorted(Path("src").rglob("*.pyx"))
extensions = [
    Extension(
        ".".join(p.with_suffix("").parts[1:]),
        [str(p)],
        extra_compile_args=compile_args,
        define_macros=macros,
    )
    for p in sources
]

# Translate and compile the extensions on every core (the build of a wheel or
# an editable install: 40 s on one core of this 2-core machine, 25 s on both).
JOBS = os.cpu_count() or 1

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
        force=DEBUG,
        nthreads=JOBS,
    ),
    options={"build_ext": {"parallel": JOBS}},
)
