"""Semantic validation of positions: can these fields occur in a game?

:func:`validate_fields` raises :class:`~patchsolve.errors.InvalidPositionError`
listing every problem found (its docstring lists the checks);
:func:`position_problems` returns the list. Every reader of a position (the
text and JSON forms of :mod:`patchsolve.rules.notation`, the board text of
:mod:`patchsolve.rules.board`, ``Position.from_fields``) parses into a fields dict
and then calls :func:`validate_fields`, so the checks live in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from patchsolve.errors import InvalidPositionError
from patchsolve.rules.notation import FIELDS, FULL, N_PATCHES, PAIRS, PLAYER_FIELDS
from patchsolve.rules.notation import is_int as _is_int
from patchsolve.rules.patches import (
    BOARD,
    EDITION_NAMES,
    EDITIONS,
    LAST_SPACE,
    PATCHES,
    START_BUTTONS,
    Edition,
)

_PATCH_SIZE = [p.size for p in PATCHES]
_PATCH_INCOME = [p.income for p in PATCHES]
_PATCH_TIME = [p.time for p in PATCHES]
_TOTAL_SIZE = sum(_PATCH_SIZE)
_TOTAL_INCOME = sum(_PATCH_INCOME)
_TOTAL_TIME = sum(_PATCH_TIME)


def _bonus_masks() -> list[int]:
    masks = []
    for r0 in range(BOARD - 6):
        for c0 in range(BOARD - 6):
            m = 0
            for r in range(r0, r0 + 7):
                for c in range(c0, c0 + 7):
                    m |= 1 << (r * BOARD + c)
            masks.append(m)
    return masks


_BONUS = _bonus_masks()


def covers_7x7(quilt: int) -> bool:
    """Whether a quilt covers some 7x7 square completely (the bonus condition)."""
    return any(quilt & m == m for m in _BONUS)


def _type_problems(f: Mapping[str, Any]) -> list[str]:
    problems = []
    if f["edition"] not in EDITION_NAMES:
        problems.append(f"unknown edition {f['edition']!r} (known: {', '.join(EDITION_NAMES)})")
    for k in ("circle", "leather"):
        v = f[k]
        if not isinstance(v, (tuple, list)) or not all(_is_int(x) for x in v):
            problems.append(f"{k} must be a sequence of ints, not {v!r}")
    for k in PAIRS:
        v = f[k]
        if not isinstance(v, (tuple, list)) or len(v) != 2 or not all(_is_int(x) for x in v):
            problems.append(f"{k} must be a pair of ints, not {v!r}")
    for k in PLAYER_FIELDS:
        v = f[k]
        if v is not None and not (_is_int(v) and v in (0, 1)):
            problems.append(f"{k} must be None, 0 or 1, not {v!r}")
    return problems


def _spaces_reached(spaces: Iterable[int], t: int) -> int:
    return sum(1 for s in spaces if s <= t)


def shape_problems(fields: object) -> list[str]:
    """The problems of ``fields`` as a dict: not a dict, fields missing or
    unknown, values of the wrong type (empty when its shape is right; the
    values may still be impossible, see :func:`position_problems`)."""
    if not isinstance(fields, Mapping):
        return [f"fields must be a dict, not {type(fields).__name__}"]
    missing = [k for k in FIELDS if k not in fields]
    extra = [k for k in fields if k not in FIELDS]
    problems = []
    if missing:
        problems.append(f"missing field(s) {', '.join(missing)}")
    if extra:
        problems.append(f"unknown field(s) {', '.join(map(str, extra))}")
    if problems:
        return problems
    return _type_problems(fields)


def position_problems(fields: object) -> list[str]:
    """Every reason why ``fields`` cannot be a position (empty if valid).
    See :func:`validate_fields`."""
    problems = shape_problems(fields)
    if problems or not isinstance(fields, Mapping):  # a non-mapping has its problem already
        return problems
    f = fields
    ed = EDITIONS[f["edition"]]
    circle = tuple(f["circle"])
    q0, q1 = f["quilts"]
    b, inc, t = f["buttons"], f["income"], f["time"]

    # circle
    circle_ok = True
    bad_ids = sorted({x for x in circle if not 0 <= x < N_PATCHES})
    if bad_ids:
        circle_ok = False
        problems.append(f"circle: unknown patch id(s) {bad_ids} (ids are 0..{N_PATCHES - 1})")
    dups = sorted({x for x in circle if circle.count(x) > 1})
    if dups:
        circle_ok = False
        problems.append(f"circle: patch id(s) {dups} listed more than once")
    out = [i for i in range(N_PATCHES) if i not in circle] if circle_ok else []

    # quilts
    quilts_ok = True
    for p, q in enumerate((q0, q1)):
        if not 0 <= q <= FULL:
            quilts_ok = False
            problems.append(f"quilts: quilt {p} mask has bits outside the 81 squares")

    # time
    time_ok = True
    for p in (0, 1):
        if not 0 <= t[p] <= LAST_SPACE:
            time_ok = False
            problems.append(f"time: player {p} on space {t[p]}, outside 0..{LAST_SPACE}")

    # buttons and income
    for p in (0, 1):
        if b[p] < 0:
            problems.append(f"buttons: player {p} has negative buttons ({b[p]})")
        if inc[p] < 0:
            problems.append(f"income: player {p} has negative income ({inc[p]})")
    if circle_ok and inc[0] >= 0 and inc[1] >= 0:
        out_income = sum(_PATCH_INCOME[i] for i in out)
        if inc[0] + inc[1] != out_income:
            problems.append(
                f"income: the players' incomes add up to {inc[0] + inc[1]}, but the patches "
                f"no longer in the circle carry {out_income}"
            )
    if time_ok:
        for p in (0, 1):
            if t[p] == 0:
                if b[p] != START_BUTTONS:
                    problems.append(
                        f"buttons: player {p} is still on space 0 (has not moved) "
                        f"but has {b[p]} buttons, not {START_BUTTONS}"
                    )
                if inc[p] != 0:
                    problems.append(
                        f"income: player {p} is still on space 0 (has not moved) but has income {inc[p]}"
                    )
                if quilts_ok and (q0, q1)[p]:
                    problems.append(
                        f"quilts: player {p} is still on space 0 (has not moved) but the quilt is not empty"
                    )
            elif inc[p] >= 0:
                most = START_BUTTONS + t[p] + _spaces_reached(ed.income_spaces, t[p]) * inc[p]
                if b[p] > most:
                    problems.append(
                        f"buttons: player {p} has {b[p]} buttons, more than the {most} a player "
                        f"on space {t[p]} with income {inc[p]} can have earned"
                    )

    # leather patches on the time board
    leather = tuple(f["leather"])
    leather_ok = True
    if list(leather) != sorted(set(leather)):
        leather_ok = False
        problems.append(f"leather: spaces must be ascending without repeats, got {list(leather)}")
    foreign = [s for s in leather if s not in ed.leather_spaces]
    if foreign:
        leather_ok = False
        problems.append(
            f"leather: space(s) {foreign} hold no leather patch on the {ed.name} board "
            f"(leather spaces: {list(ed.leather_spaces)})"
        )
    if time_ok:
        front = max(t)
        passed = [s for s in leather if s in ed.leather_spaces and s <= front]
        if passed:
            leather_ok = False
            problems.append(
                f"leather: space(s) {passed} still hold a leather patch, but a token "
                f"has already reached space {front}"
            )
        gone = [s for s in ed.leather_spaces if s > front and s not in leather]
        if gone:
            leather_ok = False
            problems.append(f"leather: space(s) {gone} lie ahead of both tokens but hold no leather patch")

    # on top
    if time_ok:
        if t[0] == t[1] and f["on_top"] is None:
            problems.append(f"on_top: both tokens are on space {t[0]}, so one must be on top")
        if t[0] != t[1] and f["on_top"] is not None:
            problems.append(
                f"on_top: set to {f['on_top']} but the tokens are on different spaces {t[0]}/{t[1]}"
            )

    # pending leather placement
    pend = f["pending_leather"]
    if pend is not None:
        if quilts_ok and (q0, q1)[pend] == FULL:
            problems.append(
                f"pending_leather: player {pend}'s quilt is full (the leather patch is discarded)"
            )
        if time_ok:
            o = 1 - pend
            if not any(t[o] < s <= t[pend] for s in ed.leather_spaces):
                problems.append(
                    f"pending_leather: player {pend} must just have taken a leather patch, so be "
                    f"ahead with a leather space after the opponent's token, up to their own "
                    f"(tokens {t[0]}/{t[1]}, leather spaces {list(ed.leather_spaces)})"
                )

    # 7x7 bonus
    if quilts_ok:
        covering = [p for p, q in enumerate((q0, q1)) if covers_7x7(q)]
        owner = f["bonus_owner"]
        if owner is None and covering:
            problems.append(
                f"bonus_owner: quilt {covering[0]} covers a 7x7 square, so the bonus tile has an owner"
            )
        if owner is not None and owner not in covering:
            problems.append(
                f"bonus_owner: player {owner} holds the bonus tile but the quilt covers no 7x7 square"
            )

    # first to reach 53
    if time_ok:
        fe = f["first_at_end"]
        at_end = [p for p in (0, 1) if t[p] == LAST_SPACE]
        if fe is None and at_end:
            problems.append(
                f"first_at_end: player {at_end[0]} is on space {LAST_SPACE}, so someone reached it first"
            )
        if fe is not None and fe not in at_end:
            problems.append(f"first_at_end: player {fe} is not on space {LAST_SPACE}")
        if len(at_end) == 2 and fe is not None and f["on_top"] is not None and fe == f["on_top"]:
            problems.append(
                f"first_at_end: both tokens are on {LAST_SPACE} and player {fe} is on top, "
                f"so arrived last, not first"
            )

    # covered squares: patches that left the circle plus leather patches taken
    if circle_ok and quilts_ok and time_ok and leather_ok and not problems:
        covered = bin(q0).count("1") + bin(q1).count("1")
        out_size = sum(_PATCH_SIZE[i] for i in out)
        taken = len(ed.leather_spaces) - len(leather) - (pend is not None)
        full = q0 == FULL or q1 == FULL
        passed = [s for s in ed.leather_spaces if s not in leather]
        why = (
            (
                f"the leather spaces passed ({', '.join(map(str, passed))}) add {taken} 1x1 patch(es)"
                + (" beside the one still to place" if pend is not None else "")
            )
            if passed
            else "no leather space has been passed"
        )
        if full:
            if not out_size <= covered <= out_size + taken:
                problems.append(
                    f"quilts: {covered} squares covered, but the patches that left the circle cover "
                    f"{out_size} and {why}, of which a full quilt may have discarded some"
                )
        elif covered != out_size + taken:
            problems.append(
                f"quilts: {covered} squares covered, but the patches that left the circle cover "
                f"{out_size} and {why}: {out_size + taken} expected"
            )
        if not problems:
            split = _split_problem(f, ed, out, covered - out_size)
            if split:
                problems.append(split)
    return problems


def _split_problem(f: Mapping[str, Any], ed: Edition, out: Sequence[int], leather_placed: int) -> str | None:
    """Is there a split of the patches that left the circle between the two
    quilts that explains each income, quilt size and time? (subset DP on a
    packed bitset: bit ((income * S) + size) * TT + time of player 0's share)."""
    S, TT = _TOTAL_SIZE + 1, _TOTAL_TIME + 1
    reach = 1
    for i in out:
        reach |= reach << ((_PATCH_INCOME[i] * S + _PATCH_SIZE[i]) * TT + _PATCH_TIME[i])
    t = f["time"]
    pend = f["pending_leather"]
    pops = [bin(q).count("1") for q in f["quilts"]]
    t_out = sum(_PATCH_TIME[i] for i in out)
    hi = t[0] if t[0] < LAST_SPACE else t_out
    lo = t_out - t[1] if t[1] < LAST_SPACE else 0
    if lo < 0:
        lo = 0
    if hi < lo:
        return (
            f"time: the patches that left the circle cost {t_out} time in all, more than the tokens "
            f"on {t[0]}/{t[1]} have moved"
        )
    window = ((1 << (hi - lo + 1)) - 1) << lo
    reachable_leather = [_spaces_reached(ed.leather_spaces, t[p]) - (pend == p) for p in (0, 1)]
    inc0 = f["income"][0]
    for l0 in range(0, leather_placed + 1):
        l1 = leather_placed - l0
        if l0 > reachable_leather[0] or l1 > reachable_leather[1]:
            continue
        size0 = pops[0] - l0
        if size0 < 0 or pops[1] - l1 < 0:
            continue
        if (reach >> ((inc0 * S + size0) * TT)) & window:
            return None
    return (
        "quilts: no split of the patches that left the circle between the players explains both "
        "incomes, quilt sizes and time positions"
    )


def validate_fields(fields: object) -> None:
    """Raise :class:`InvalidPositionError` listing every problem, if any.

    Checks (each problem is reported; checks that need a field that is
    already wrong are skipped):

    - exactly the eleven fields, with the right types;
    - ``edition`` known; ``circle`` ids in 0..32 without repeats;
    - ``quilts`` inside the 81 squares; ``time`` in 0..53;
    - ``buttons`` and ``income`` not negative;
    - the two incomes add up to exactly the income printed on the patches no
      longer in the circle (every bought patch is on a quilt);
    - a player still on space 0 has not moved: 5 buttons, no income, empty
      quilt; otherwise a player has at most ``5 + time + k * income``
      buttons (k = income spaces reached: walking pays at most one button per
      space, and income never decreases);
    - ``leather`` holds only leather spaces of the edition, ascending, and
      exactly those ahead of both tokens (a space a token has reached was
      taken);
    - ``on_top`` is set exactly when both tokens share a space; when both are
      on 53 the player on top arrived last, so ``first_at_end`` is the other;
    - ``pending_leather`` names a player whose quilt has an empty square and
      who just took a leather patch: so that player is ahead, with a leather
      space after the opponent's token and up to their own;
    - ``bonus_owner`` holds a 7x7 square; None only if no quilt covers one;
    - ``first_at_end`` is None exactly when no token is on 53, else a player
      on 53;
    - the covered squares of both quilts equal the squares of the patches
      that left the circle plus the leather patches placed (taken minus a
      pending one); fewer leather squares only if a quilt is full (a leather
      patch taken with a full quilt is discarded);
    - some split of the patches that left the circle between the players
      gives each player their income, their number of covered squares (up to
      the leather patches they can have taken) and a total time cost within
      their time position.

    Not checkable from a position (no history is stored): that each quilt is
    really tiled by the patches of its owner's share, where the income
    buttons lie, and each player's exact button history. Positions passing
    these checks are accepted.
    """
    problems = position_problems(fields)
    if problems:
        raise InvalidPositionError(problems)


__all__ = ["validate_fields", "position_problems", "shape_problems", "covers_7x7"]
