# Type stub of the Cython module _knowledge.pyx (its interface is the .pyx): every name
# is Any to a type checker, so `from patchsolve... import _knowledge` type-checks.
from typing import Any

def __getattr__(name: str) -> Any: ...
