"""A game with its variations: the moves tried from earlier positions kept
beside the main line, as an analysis board keeps them.

A :class:`GameTree` is a start position and a tree of :class:`Node` s, one
per position reached; each node's first child is its main continuation, the
others are variations. Its record is the game record of
:mod:`patchsolve.rules.game` with PGN-like variations: a parenthesised line right
after the move it replaces, played from the position before that move, and
nested the same way::

    moves
    walk
    8:0@a1 (walk 3:0@b2 (12:1@c3)) (4:1@c3)
    12:3@g1

Here ``walk 3:0@b2`` and ``4:1@c3`` are two other second moves, and
``12:1@c3`` another third move after ``walk``. ``(`` and ``)`` need no
spaces around them. A record without parentheses is an old record, read as
before; :meth:`patchsolve.Game.from_text` reads any record as its main line,
so every reader of games reads these too. Errors name the bad token: a
``(`` with no move before it to replace, a ``)`` with no ``(``, a ``(``
never closed, ``()``, a variation that repeats a move already there, and a
move that does not parse or is not legal there (with its number and line).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from patchsolve.errors import IllegalMoveError, NotationError, PatchsolveError
from patchsolve.rules.game import Game, _split_record
from patchsolve.rules.position import Move, Position

_TOKEN = re.compile(r"[()]|[^\s()]+")


class Node:
    """One position of a :class:`GameTree`: the ``move`` that reached it
    from ``parent`` (None at the root, the start), and the moves tried from
    it, ``children``, the first the main continuation."""

    __slots__ = ("move", "position", "parent", "children")

    def __init__(self, move: Move | None, position: Position, parent: Node | None):
        self.move, self.position, self.parent = move, position, parent
        self.children: list[Node] = []

    @property
    def ply(self) -> int:
        """Moves from the start to this position (0 at the root)."""
        k, node = 0, self
        while node.parent is not None:
            k, node = k + 1, node.parent
        return k

    def line(self) -> list[Node]:
        """The nodes from the start's first move down to this one (empty at the root)."""
        out, node = [], self
        while node.parent is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def moves(self) -> list[Move]:
        """The moves from the start to this position."""
        return [n.move for n in self.line() if n.move is not None]

    @property
    def is_main_line(self) -> bool:
        """Whether every move to here is its parent's main continuation."""
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    def child(self, move: Move | str) -> Node | None:
        """The child reached by ``move`` (text or Move), or None (also for
        text that is no legal move here)."""
        if isinstance(move, str):
            try:
                move = self.position.parse_move(move)
            except PatchsolveError:
                return None
        return next((c for c in self.children if c.move == move), None)

    def __repr__(self) -> str:
        return f"<Node {self.ply}: {self.move or 'start'}, {len(self.children)} continuations>"


class GameTree:
    """A start position and every line played from it (see the module text).

    >>> tree = GameTree()
    >>> a = tree.add(tree.root, "walk")           # the main line's first move
    >>> b = tree.add(tree.root, "4:0@a1")         # a variation of it
    >>> tree.promote(b)                           # now the main line
    True
    >>> GameTree.from_text(tree.to_text()) == tree
    True
    """

    def __init__(self, start: Position | None = None):
        self.root = Node(None, Game(start).start, None)

    @property
    def start(self) -> Position:
        """The start position."""
        return self.root.position

    @classmethod
    def from_game(cls, game: Game) -> GameTree:
        """A tree whose main line is ``game`` and that has no variations."""
        tree = cls(game.start)
        node = tree.root
        for move in game.moves:
            node = tree.add(node, move)
        return tree

    # -- changing the tree ----------------------------------------------------
    def add(self, node: Node, move: Move | str) -> Node:
        """Play ``move`` (text or Move) from ``node``: the child it reaches,
        the one already there when that move was played before, else a new
        one after the others (the main continuation when it is the first).
        IllegalMoveError or NotationError for a move that is not legal there."""
        self._check(node)
        existing = node.child(move)
        if existing is not None:
            return existing
        pos = node.position
        mv = pos.parse_move(move) if isinstance(move, str) else move
        if not isinstance(mv, Move):
            raise TypeError(f"a move is a Move or move text, not {type(move).__name__}")
        child = Node(mv, pos.play(mv), node)
        node.children.append(child)
        return child

    def promote(self, node: Node) -> bool:
        """Make the variation that holds ``node`` its parent line's main
        continuation (the nearest move to ``node`` that is not a main
        continuation moves first among its siblings); False when ``node``
        is already on the main line."""
        self._check(node)
        while node.parent is not None and node.parent.children[0] is node:
            node = node.parent
        if node.parent is None:
            return False
        siblings = node.parent.children
        siblings.remove(node)
        siblings.insert(0, node)
        return True

    def make_main_line(self, node: Node) -> None:
        """Promote until ``node`` is on the main line."""
        while self.promote(node):
            pass

    def delete(self, node: Node) -> int:
        """Remove ``node`` and every move after it; the number of moves removed."""
        self._check(node)
        if node.parent is None:
            raise PatchsolveError("the start cannot be deleted")
        node.parent.children.remove(node)
        return sum(1 for _ in _walk(node))

    def _check(self, node: object) -> None:
        if not isinstance(node, Node):
            raise TypeError(f"expected a Node, not {type(node).__name__}")
        top = node
        while top.parent is not None:
            if not any(c is top for c in top.parent.children):  # deleted, or under a deleted move
                raise PatchsolveError("that node is not in this tree")
            top = top.parent
        if top is not self.root:
            raise PatchsolveError("that node is not in this tree")

    # -- reading the tree -------------------------------------------------------
    def nodes(self) -> Iterator[Node]:
        """Every node, the root first, each before its children (main continuation first)."""
        return _walk(self.root)

    def __len__(self) -> int:
        """The number of moves in the tree, variations included."""
        return sum(1 for _ in self.nodes()) - 1

    def main_line(self) -> Game:
        """The main line as a :class:`~patchsolve.Game`."""
        node = self.root
        while node.children:
            node = node.children[0]
        return self.game_at(node)

    def game_at(self, node: Node) -> Game:
        """The :class:`~patchsolve.Game` from the start to ``node``."""
        self._check(node)
        return Game(self.start, node.moves())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTree):
            return NotImplemented
        return self.start == other.start and self.to_dict()["nodes"] == other.to_dict()["nodes"]

    def __repr__(self) -> str:
        return f"<GameTree {len(self.main_line())} moves in the main line, {len(self)} in all>"

    # -- records ----------------------------------------------------------------
    def to_text(self) -> str:
        """The game record (as :meth:`Game.to_text`) with the variations in
        parentheses after the move each replaces; :meth:`from_text` reads it
        back to an equal tree."""
        lines = self.main_line().to_text().splitlines()
        moves_at = lines.index("moves") + 1
        body, node = [], self.root
        while node.children:
            main = node.children[0]
            body.append(" ".join([str(main.move)] + [f"({_line_text(v)})" for v in node.children[1:]]))
            node = main
        return "\n".join(lines[:moves_at] + body + lines[moves_at + len(body) :]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameTree:
        """Read a game record, variations and all (see the module text);
        NotationError or IllegalMoveError name the token, the move number and
        the line that fail."""
        start, tokens = _split_record(text)
        tree = cls(start)
        cur: Node = tree.root
        last: Node | None = None  # the last move read at this level: the one a "(" replaces
        stack: list[tuple[Node, Node, int]] = []  # per open "(": where to go on, and its line
        for word, lineno in tokens:
            for tok in _TOKEN.findall(word):
                if tok == "(":
                    if last is None:
                        raise NotationError(
                            f"line {lineno}: a variation must follow the move it replaces",
                            field="move",
                            token=tok,
                        )
                    stack.append((cur, last, lineno))
                    assert last.parent is not None  # a move's node has the position before it
                    cur, last = last.parent, None
                elif tok == ")":
                    if not stack:
                        raise NotationError(
                            f"line {lineno}: ')' closes no variation", field="move", token=tok
                        )
                    if last is None:
                        raise NotationError(f"line {lineno}: an empty variation", field="move", token="()")
                    cur, last, _ = stack.pop()
                else:
                    last = cur = _play(cur, tok, lineno, in_variation=bool(stack))
        if stack:
            raise NotationError(f"line {stack[-1][2]}: a variation is never closed", field="move", token="(")
        return tree

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> GameTree:
        """Read a record from a file (UTF-8 text)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise NotationError(f"cannot read the game record: {e}", field="file", token=str(path)) from None
        return cls.from_text(text)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the record, variations and all, to ``path`` (UTF-8 text)."""
        Path(path).write_text(self.to_text(), encoding="utf-8")

    # -- JSON ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form without nesting: ``{"start": text, "nodes":
        [{"parent": i, "move": text}, ...]}``, each node after its parent
        (0 is the start, node i the (i-1)-th of the list), children in order."""
        index = {id(self.root): 0}
        nodes: list[dict[str, Any]] = []
        for node in self.nodes():
            if node.parent is None:
                continue
            index[id(node)] = len(nodes) + 1
            nodes.append({"parent": index[id(node.parent)], "move": str(node.move)})
        return {"start": self.start.to_text(), "nodes": nodes}

    @classmethod
    def from_dict(cls, data: dict[str, Any], max_nodes: int = 10_000) -> GameTree:
        """The tree of a :meth:`to_dict` form (at most ``max_nodes`` moves);
        NotationError naming what is malformed, IllegalMoveError naming the
        move that is not legal where it is played."""
        if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
            raise NotationError("a tree is {start, nodes}", field="tree", token=None)
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise NotationError("'start' must be a position text or null", field="start", token=None)
        if len(data["nodes"]) > max_nodes:
            raise NotationError(f"at most {max_nodes} moves", field="nodes", token=str(len(data["nodes"])))
        tree = cls(None if start is None else Position.from_text(start))
        made = [tree.root]
        for i, item in enumerate(data["nodes"], 1):
            parent = item.get("parent") if isinstance(item, dict) else None
            move = item.get("move") if isinstance(item, dict) else None
            if isinstance(parent, bool) or not isinstance(parent, int) or not 0 <= parent < i:
                raise NotationError(
                    f"node {i}: 'parent' must be an earlier node, 0..{i - 1}", field="parent", token=None
                )
            if not isinstance(move, str):
                raise NotationError(f"node {i}: 'move' must be a move text", field="move", token=None)
            if made[parent].child(move) is not None:
                raise NotationError(f"node {i}: the move is there already", field="move", token=move)
            try:
                made.append(tree.add(made[parent], move))
            except NotationError as e:
                raise _reworded(e, f"node {i}", move) from None
            except IllegalMoveError as e:
                raise IllegalMoveError(f"node {i}: {e}") from None
        return tree


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _line_text(node: Node) -> str:
    """``node``'s move and the line after it, with nested variations."""
    words = [str(node.move)]
    while node.children:
        main = node.children[0]
        words.append(str(main.move))
        words += [f"({_line_text(v)})" for v in node.children[1:]]
        node = main
    return " ".join(words)


def _reworded(e: NotationError, where: str, token: str) -> NotationError:
    """``e`` said with more context, its field and token named once."""
    return NotationError(f"{where}: {e.reason}", field=e.field or "move", token=e.token or token)


def _play(node: Node, tok: str, lineno: int, in_variation: bool) -> Node:
    k = node.ply + 1
    where = f"move {k} (line {lineno}{', in a variation' if in_variation else ''})"
    if node.child(tok) is not None:
        raise NotationError(f"{where}: a variation repeats a move already there", field="move", token=tok)
    pos = node.position
    try:
        mv = pos.parse_move(tok)
    except NotationError as e:
        raise _reworded(e, where, tok) from None
    except IllegalMoveError as e:
        raise IllegalMoveError(f"{where}: {e}") from None
    child = Node(mv, pos.play(mv), node)
    node.children.append(child)
    return child


__all__ = ["GameTree", "Node"]
