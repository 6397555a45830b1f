"""What the web app's JSON API says about a game: pure functions from the
request's values to plain dicts (no HTTP here, so they are easy to test).

The page holds the game (a start position text and the moves) and sends it
with every request; the server keeps no game state.
"""

from __future__ import annotations

import json

from patchsolve import _core
from patchsolve.errors import IllegalMoveError, NotationError, PatchsolveError
from patchsolve.rules import render
from patchsolve.rules.board import looks_like_board
from patchsolve.rules.game import Game
from patchsolve.rules.patches import BOARD, PATCHES
from patchsolve.rules.position import Position
from patchsolve.rules.tree import GameTree

MAX_MOVES = 400  # a Patchwork game has well under 100
MAX_TREE = 2000  # moves of a game with its variations
MAX_TEXT = 20_000  # characters of a position text or game record
# where render.position_svg_parts draws the squares, for the page's click targets and ghosts
GEOMETRY = {
    "quilt": render.QUILT_PART[:2],  # a quilt part's square a1, top-left corner
    "cell": render.CELL,
    "track": render.TRACK_PART[:2],  # the time board part's space 0, top-left corner
    "space": render.TRACK_SPACE,
    "row": render.TRACK_ROW,
    "per_row": render.PART_PER_ROW,
}
RECORD_KEYS = ("circle", "position", "moves", "edition", "first")


class BadRequest(PatchsolveError):
    """A request whose values are missing or of the wrong kind."""


def read_position(text: str) -> Position:
    """A position from its text (notation, JSON or board text; '#' lines
    skipped): the one place the web app reads a position."""
    return Position.parse(text)


def looks_like_record(text: str) -> bool:
    """Is ``text`` a game record (rather than a position)?"""
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip().split(" ", 1)[0]
        if word in RECORD_KEYS:
            return True
    return False


def load_text(text: str) -> GameTree:
    """A game record, variations and all, or a position text (then a game
    with no moves)."""
    if looks_like_record(text) and not looks_like_board(text):
        tree = GameTree.from_text(text)
        if len(tree) > MAX_TREE:
            raise BadRequest(f"at most {MAX_TREE} moves, variations included")
        return tree
    return GameTree(read_position(text))


def tree_json(tree: GameTree) -> dict:
    """``tree.to_dict()`` with each node's mover (``player``) for the move list."""
    data = tree.to_dict()
    movers = [n.parent.position.to_move for n in tree.nodes() if n.parent is not None]
    for item, player in zip(data["nodes"], movers):
        item["player"] = player
    return data


def tree_of(data) -> GameTree:
    """The game tree a request describes (``GameTree.to_dict``'s form:
    ``{"start": text or null, "nodes": [{"parent", "move"}, ...]}``)."""
    if not isinstance(data, dict):
        raise BadRequest("'tree' must be an object {start, nodes}")
    start = data.get("start")
    if start is not None and (not isinstance(start, str) or len(start) > MAX_TEXT):
        raise BadRequest(f"'tree.start' must be a position text of at most {MAX_TEXT} characters, or null")
    return GameTree.from_dict(data, max_nodes=MAX_TREE)


def game_of(data) -> Game:
    """The game a request describes: ``{"start": text or null, "moves": [...]}``."""
    if not isinstance(data, dict):
        raise BadRequest("'game' must be an object {start, moves}")
    start = data.get("start")
    moves = data.get("moves", [])
    if start is not None and not isinstance(start, str):
        raise BadRequest("'game.start' must be a position text or null")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadRequest("'game.moves' must be a list of move texts")
    if len(moves) > MAX_MOVES:
        raise BadRequest(f"at most {MAX_MOVES} moves")
    game = Game(None if start is None else read_position(start))
    for k, m in enumerate(moves, 1):
        try:
            game.push(m)
        except NotationError as e:
            raise NotationError(f"move {k}: {e}") from None
        except IllegalMoveError as e:
            raise IllegalMoveError(f"move {k}: {e}") from None
    return game


def ply_of(game: Game, ply) -> int:
    """The ply asked for, checked against the game's length."""
    if ply is None:
        return len(game)
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(game):
        raise BadRequest(f"'ply' must be an integer in 0..{len(game)}")
    return ply


def view(game: Game, ply: int | None = None) -> dict:
    """Everything the page draws for the position after ``ply`` moves."""
    k = ply_of(game, ply)
    pos = game.position(k)
    over = pos.is_over
    f = pos.fields()
    labels = game.labels(k)
    return {
        "start": game.start.to_text(),
        "moves": [str(m) for m in game.moves],
        "ply": k,
        "length": len(game),
        "position": pos.to_text(),
        "record": game.to_text(),
        "fields": json.loads(pos.to_json()),
        "to_move": None if over else pos.to_move,
        "is_over": over,
        "scores": list(pos.scores()),
        "winner": pos.winner() if over else None,
        "outcome": Game(pos).outcome(),
        "pending_leather": f["pending_leather"],
        "legal": [] if over else [str(m) for m in pos.legal_moves()],
        "labels": [{str(sq): lab for sq, lab in labels[p].items()} for p in (0, 1)],
        # covered squares whose patch is not known (a start read from notation that could not be tiled)
        "unnamed": [f["quilts"][p].bit_count() - len(labels[p]) for p in (0, 1)],
        # who made each move of the line (turns do not alternate in Patchwork)
        "movers": [game.position(i).to_move for i in range(len(game))],
        # the drawing in parts the page lays out for its screen, with where each part's squares are
        "parts": render.position_svg_parts(pos, labels),
        "geometry": GEOMETRY,
    }


def play(game: Game, ply: int | None, move) -> Game:
    """The game with ``move`` played after ``ply`` moves (later moves dropped)."""
    if not isinstance(move, str):
        raise BadRequest("'move' must be a move text")
    k = ply_of(game, ply)
    out = Game(game.start, game.moves[:k])
    out.push(move)
    return out


def patches() -> list[dict]:
    """The catalogue with every orientation's cells as (row, col), numbered
    as in move text, so the page can draw and rotate a patch."""
    out = []
    for p in PATCHES:
        orientations = []
        for o in range(_core.orientation_count(p.id)):
            mask = _core.move_info(_core.buy_move_code(p.id, o, 0))[2]
            orientations.append([divmod(sq, BOARD) for sq in range(BOARD * BOARD) if mask >> sq & 1])
        out.append(
            {
                "id": p.id,
                "name": p.name,
                "buttons": p.buttons,
                "time": p.time,
                "income": p.income,
                "shape": p.shape,
                "symbol": render.symbol(p.id),
                "colour": render.patch_colour(p.id),
                "orientations": orientations,
            }
        )
    return out
