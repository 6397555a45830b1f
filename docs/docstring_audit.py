"""Count public callables without a docstring.

    python docs/docstring_audit.py [MODULE.py ...]      # default: all of src/patchsolve

A public callable is a module-level function or class whose name does not
start with ``_``, or a method of such a class whose name does not start with
``_`` (``__init__`` counts when the class itself has no docstring). Read from
the source (``ast``), so Cython modules (``.pyx``) are not counted; nested
functions are not public. Prints each missing one as ``path:line name`` and
the totals; exits 1 when one is missing.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def missing(path: Path) -> tuple[int, list[str]]:
    """The number of public callables in one file, and those without a docstring."""
    tree = ast.parse(path.read_text(), str(path))
    total, lacking = 0, []

    def visit(node, prefix: str) -> None:
        nonlocal total
        name = prefix + node.name
        total += 1
        if ast.get_docstring(node) is None:
            lacking.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            visit(node, "")
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            visit(node, "")
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith(
                    "_"
                ):
                    visit(item, node.name + ".")
    return total, lacking


def main(argv: list[str]) -> int:
    """Print the missing docstrings of the given files (default: the package) and the totals."""
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "src" / "patchsolve").rglob("*.py"))
    total, lacking = 0, []
    for path in paths:
        n, miss = missing(path)
        total += n
        lacking += miss
    print("\n".join(lacking))
    print(f"{total - len(lacking)} of {total} public callables have a docstring; {len(lacking)} missing")
    return 1 if lacking else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
