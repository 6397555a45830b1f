"""Sphinx configuration for the patchsolve manual.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
(warnings are errors, as in ``.ci/run``). The package is imported from
``src/`` beside this folder when it is not installed, so a checkout with the
extensions built in place (``python setup.py build_ext --inplace``) builds
the manual too.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
try:
    import patchsolve  # noqa: F401  (installed, or on PYTHONPATH)
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "src"))
    import patchsolve  # noqa: F401

project = "patchsolve"
author = "the patchsolve maintainers"
copyright = "2026, the patchsolve maintainers"
release = patchsolve.__version__
version = release

extensions = [
    "myst_parser",  # the pages are Markdown, like the README they came from
    "sphinx.ext.autodoc",
    "sphinx_click",  # the command-line reference, generated from the Click group
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The docstrings are prose with ``code`` in single backticks (Markdown habit):
# render those as code rather than as RST's default "interpreted text".
default_role = "code"

autodoc_member_order = "bysource"
# gymnasium, pettingzoo and pyspiel base classes have their own docstring styles;
# a method of ours shows its own docstring or none
autodoc_inherit_docstrings = False
# The adapters' packages are optional extras: mock the ones missing here so the
# manual builds with the [docs] extra alone (CI has them all installed).
autodoc_mock_imports = []
for _name in ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "cairosvg", "ray"):
    try:
        __import__(_name)
    except ImportError:
        autodoc_mock_imports.append(_name)
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}

html_theme = "furo"
html_title = f"patchsolve {release}"

# A command-line manual is copied into shells: no curly quotes, and "--" stays
# two hyphens (docutils' smart quotes turn it into an en dash, which a shell
# does not take as an option).
smartquotes = False


def _examples_as_code(app, ctx, lines):
    """sphinx-click renders a help text's ``\\b`` blocks as line blocks, in
    proportional type: turn each ``Examples:`` block into a code block, so
    the commands read as code and copy as typed (the rest of the help is
    left as it is)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        text = line[2:] if line.startswith("| ") else None
        if text is not None and text.strip() in ("Examples:", "Example:"):
            indent = len(text) - len(text.lstrip())
            if out and out[-1].strip():
                out.append("")
            out += [text.strip(), "", ".. code-block:: shell", ""]
            i += 1
            while i < len(lines) and lines[i].startswith("| "):
                command = lines[i][2:]
                if len(command) - len(command.lstrip()) <= indent:
                    break
                out.append("    " + command.strip())
                i += 1
            out.append("")
            continue
        out.append(line)
        i += 1
    lines[:] = out


def setup(app):
    app.connect("sphinx-click-process-description", _examples_as_code)
