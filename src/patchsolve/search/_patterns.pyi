# Type stub of the Cython module _patterns.pyx (its interface is the .pyx): every name
# is Any to a type checker, so `from patchsolve... import _patterns` type-checks.
from typing import Any

def __getattr__(name: str) -> Any: ...
