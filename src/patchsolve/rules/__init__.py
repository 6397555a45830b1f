"""The game itself: positions, moves and their notations, records. No
search and no judgement lives here; everything else in patchsolve is built
on it. One module each:

- :mod:`patchsolve.rules.patches`: the patch catalogue, the time board and
  the editions (read from the package's ``data/``);
- :mod:`patchsolve.rules.position`: :class:`~patchsolve.rules.position.Position`
  and :class:`~patchsolve.rules.position.Move`, the rules proper (over the
  Cython core ``patchsolve._core``);
- :mod:`patchsolve.rules.notation`: the one-line position notation, move
  notation and the JSON form;
- :mod:`patchsolve.rules.board`: the board text, a position drawn in
  characters that reads back;
- :mod:`patchsolve.rules.validation`: can these fields occur in a game (the
  checks every reader shares);
- :mod:`patchsolve.rules.tiling`: which patch covers which square, found
  from a quilt's mask;
- :mod:`patchsolve.rules.symmetry`: the mirror images and rotations of a
  quilt;
- :mod:`patchsolve.rules.game`: games and game records;
- :mod:`patchsolve.rules.tree`: a game with its variations (the analysis
  board's move tree);
- :mod:`patchsolve.rules.render`: drawings of a position (text and SVG).

The package imports nothing at import: the Cython core reads the catalogue
from :mod:`patchsolve.rules.patches` while it loads, so the modules load
when named.
"""
