"""Count what the reference leaves undescribed: in the source, and in the
built manual.

    python docs/docstring_audit.py [MODULE.py ...]      # default: all of src/patchsolve
    python docs/docstring_audit.py --manual DIR         # the built manual (after sphinx -b html)

**Source.** A public callable is a module-level function or class whose name
does not start with ``_``, or a method of such a class whose name does not
start with ``_`` (``__init__`` counts when the class itself has no
docstring). A public field is a class-level annotated name (a dataclass
field) of such a class; it is described by a string right after it (an
attribute docstring, which autodoc shows) or by the class docstring naming
it as ``name``. Read from the source (``ast``), so Cython modules
(``.pyx``) are not counted; nested functions are not public. The fields
of the main objects (the classes ``patchsolve`` itself exports) must all be
described; those of other classes are counted and listed, not required.

**Manual.** Every entry of the API reference (a class, function, method,
attribute or property that autodoc rendered) has a description: an entry
whose description is empty is listed. This is what a reader of the manual
meets, whatever the source says.

Prints each missing one as ``path:line name`` (or ``page: entry``) and the
totals; exits 1 when a required one is missing.
"""

from __future__ import annotations

import ast
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "patchsolve"


def _is_doc(node) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


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


def fields(path: Path) -> list[tuple[str, str, bool]]:
    """(class, field, described) for every public field of the public classes of one file."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
            continue
        doc = ast.get_docstring(node) or ""
        for k, item in enumerate(node.body):
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                name = item.target.id
                if name.startswith("_"):
                    continue
                after = node.body[k + 1] if k + 1 < len(node.body) else None
                described = (after is not None and _is_doc(after)) or f"``{name}``" in doc
                out.append(
                    (node.name, f"{path.relative_to(ROOT)}:{item.lineno} {node.name}.{name}", described)
                )
    return out


def main_classes() -> set[str]:
    """The classes ``patchsolve/__init__.py`` imports by name (its public objects)."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("patchsolve"):
            names |= {a.asname or a.name for a in node.names}
    return names


def audit_source(paths: list[Path]) -> int:
    """Print the source's missing docstrings and fields; 1 when a required one is missing."""
    total, lacking = 0, []
    main = main_classes()
    required, other = [], []
    for path in paths:
        n, miss = missing(path)
        total += n
        lacking += miss
        for cls, where, described in fields(path):
            (required if cls in main else other).append((where, described))
    print("\n".join(lacking))
    print(f"{total - len(lacking)} of {total} public callables have a docstring; {len(lacking)} missing")
    bad = [w for w, d in required if not d]
    print("\n".join(bad))
    print(
        f"{len(required) - len(bad)} of {len(required)} fields of the main objects are described; {len(bad)} missing"
    )
    loose = [w for w, d in other if not d]
    if loose:
        print(f"(not required) {len(other) - len(loose)} of {len(other)} fields of the other public classes")
        print("  " + "\n  ".join(loose))
    return 1 if lacking or bad else 0


class _Entries(HTMLParser):
    """The autodoc entries of a page: ``<dl class="py ...">`` with its
    ``<dt id=...>`` and the text of its ``<dd>`` outside nested entries."""

    def __init__(self):
        super().__init__()
        self.stack: list[dict] = []  # open <dl class="py"> entries, innermost last
        self.depth = 0  # nesting of <dl> (any class) inside the current entry
        self.entries: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "dl" and "py" in (a.get("class") or "").split():
            self.stack.append({"id": None, "text": [], "in_dd": False, "dl_depth": 0})
            return
        if not self.stack:
            return
        top = self.stack[-1]
        if tag == "dt" and top["id"] is None:
            top["id"] = a.get("id") or "?"
        elif tag == "dd" and top["dl_depth"] == 0:
            top["in_dd"] = True
        elif tag == "dl":
            top["dl_depth"] += 1

    def handle_endtag(self, tag):
        if not self.stack or tag != "dl":
            return
        top = self.stack[-1]
        if top["dl_depth"]:
            top["dl_depth"] -= 1
            return
        self.stack.pop()
        self.entries.append((top["id"], "".join(top["text"]).strip()))

    def handle_data(self, data):
        if self.stack and self.stack[-1]["in_dd"]:
            self.stack[-1]["text"].append(data)


def audit_manual(folder: Path) -> int:
    """Print the manual's entries without a description; 1 when there is one."""
    pages = sorted(folder.glob("*.html"))
    if not pages:
        print(f"no pages in {folder}: build the manual first (python -m sphinx -b html docs {folder})")
        return 1
    total, empty = 0, []
    for page in pages:
        parser = _Entries()
        parser.feed(page.read_text(encoding="utf-8"))
        total += len(parser.entries)
        empty += [f"{page.name}: {id_}" for id_, text in parser.entries if not text]
    print("\n".join(empty))
    print(f"{total - len(empty)} of {total} entries of the manual have a description; {len(empty)} empty")
    return 1 if empty or not total else 0


def main(argv: list[str]) -> int:
    """Audit the source (the given files, default the package), or the built manual (``--manual DIR``)."""
    if argv[:1] == ["--manual"]:
        if len(argv) != 2:
            print("usage: docstring_audit.py --manual DIR")
            return 2
        return audit_manual(Path(argv[1]))
    paths = [Path(a).resolve() for a in argv] or sorted(PACKAGE.rglob("*.py"))
    return audit_source(paths)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
