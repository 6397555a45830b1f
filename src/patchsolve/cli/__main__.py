"""``python -m patchsolve.cli ...``: the console script without installing."""

from patchsolve.cli import main

main()
