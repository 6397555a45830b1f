"""The web app's HTTP side (Starlette): the static page and the JSON API.

Every answer of ``/api/...`` is JSON; an error is ``{"error": "..."}`` with
status 400 (malformed request, JSON nested too deeply, a foreign Host), 404,
401/403 (``serve --lan``: a request without the access token, or with
another), 405, 408 (a body that did not arrive within ``BODY_TIMEOUT`` seconds; a
request head that did not within ``protocol.HEAD_TIMEOUT``, its connection
then closed), 409
(engine busy), 413 (body too large), 415 (a body not declared JSON), 422 (a
position, record or move that patchsolve refuses) or 500 (a bug: logged on
the server, never a traceback to the page). Tokens quoted in an error are cut
to ``MAX_TOKEN`` characters. A client that goes away mid-request is let go
without a word. Every answer forbids framing (``X-Frame-Options: DENY``,
``frame-ancestors 'none'``), so another site cannot overlay the page.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import sys
import traceback
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from patchsolve.errors import PatchsolveError
from patchsolve.review.judge import DEFAULT_NODES
from patchsolve.web import views
from patchsolve.web.jobs import Busy, JobRunner

MAX_BODY = 256 * 1024  # bytes of a request body
BODY_TIMEOUT = 10.0  # seconds for a request body to arrive
MAX_TOKEN = 40  # characters of a quoted token kept in an error message
MAX_MESSAGE = 2000  # characters of an error message
MAX_TIME = 30.0  # seconds a search may be given
REVIEW_NODES = DEFAULT_NODES  # a review's budget a position: the CLI's (patchsolve.review.judge) ...
MIN_REVIEW_NODES = 1_000
MAX_REVIEW_NODES = 3_000_000  # ... at most this
MAX_REVIEW_TIME = 600.0  # seconds for the whole review (a Stop keeps the moves judged so far)
MAX_DEPTH = 30
MAP_SAMPLES = 1000  # greedy continuations behind a quilt map (about 0.1 s)
MAX_EXPLAIN_NODES = 1_000_000  # explain's budget at most (its default: the review's)
QUIZ_NODES = 100_000  # the exercises' budget in the page (each ranks 8 moves)
QUIZ_COUNT = 10  # exercises at most
QUIZ_TIME = 120.0  # seconds for making the exercises (a job: killed past it)
GRADE_TIME = 10.0  # seconds for grading an answer (a job)
DISCARD_WAIT = 3.0  # seconds a discarding stop waits for its job to end
MAX_ROWS = 64  # ranked rows an exercise may carry
MAX_VALUE = 1000.0  # points: no value of a Patchwork position is near this
MAX_TOP = 16  # root moves valued one by one (alpha-beta multipv)
ENGINES = ("alphabeta", "mcts")
STATIC = resources.files("patchsolve.web") / "static"


class ApiError(Exception):
    """An error answer: HTTP ``status`` and ``message``."""

    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


class Disconnected(Exception):
    """The client went away before its request body arrived."""


_LONG_WORD = re.compile(rf"[^\s'\"]{{{MAX_TOKEN + 20},}}")


def clip(message: str) -> str:
    """``message`` on one line, each overlong word (a pasted 200 KB move,
    a Host header) cut to MAX_TOKEN characters, the whole to MAX_MESSAGE:
    an error names the bad token, it does not echo it."""
    message = _LONG_WORD.sub(
        lambda m: m.group(0)[:MAX_TOKEN] + f"...({len(m.group(0))} characters)",
        " ".join(str(message).split()),
    )
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "..."


async def read_json(request: Request) -> dict:
    """The request's JSON object, refusing more than MAX_BODY bytes. The
    body must be declared JSON: another site's page cannot send that to this
    server without a CORS preflight, which the server never grants, so it
    cannot start searches here behind the user's back."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise ApiError(413, f"request body over {MAX_BODY} bytes")
    body = bytearray()

    async def receive_body():
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > MAX_BODY:
                raise ApiError(413, f"request body over {MAX_BODY} bytes")

    try:
        # a client that declares a body and never sends it must not hold a connection forever
        await asyncio.wait_for(receive_body(), BODY_TIMEOUT)
    except asyncio.TimeoutError:  # noqa: UP041 (the builtin TimeoutError only from Python 3.11)
        raise ApiError(408, f"the request body did not arrive within {BODY_TIMEOUT:g} s") from None
    except ClientDisconnect:
        raise Disconnected() from None
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ApiError(400, f"the body is not JSON: {e}") from None
    except RecursionError:  # json's C decoder recurses once per bracket
        raise ApiError(400, "the body is not JSON this server reads: nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def number(data: dict, key: str, default, lo, hi, kind=float):
    """A number field of the request body within lo..hi, or a 400 naming it."""
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (kind is int and not isinstance(v, int)):
        raise ApiError(400, f"'{key}' must be a number")
    if not lo <= v <= hi:
        raise ApiError(400, f"'{key}' must be in {lo}..{hi}, not {v}")
    return kind(v)


def text(data: dict, key: str) -> str:
    """A text field of the request body (at most MAX_TEXT characters), or a 400 naming it."""
    v = data.get(key)
    if not isinstance(v, str):
        raise ApiError(400, f"'{key}' must be a string")
    if len(v) > views.MAX_TEXT:
        raise ApiError(400, f"'{key}' is over {views.MAX_TEXT} characters")
    return v


def engine_of(data: dict) -> str:
    """The engine named by the request (default alpha-beta), or a 400."""
    engine = data.get("engine", "alphabeta")
    if engine not in ENGINES:
        raise ApiError(400, f"'engine' must be one of {', '.join(ENGINES)}")
    return engine


# -- handlers ------------------------------------------------------------------


async def index(request: Request):
    """The page."""
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


async def api_patches(request: Request):
    """The 33 patches (ids, names, costs, shapes) for the page."""
    return JSONResponse({"patches": views.patches()})


async def api_game(request: Request):
    """The view of a game record at a ply."""
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    return JSONResponse(views.view(game, data.get("ply")))


def _position_of(data: dict):
    game = views.game_of(data.get("game", {}))
    return game.position(views.ply_of(game, data.get("ply")))


async def api_map(request: Request):
    """The chance each square ends covered (patchsolve.review.coverage): its grids and heat map."""
    from starlette.concurrency import run_in_threadpool

    from patchsolve.review.coverage import coverage_map, coverage_svg

    data = await read_json(request)
    pos = _position_of(data)
    cmap = await run_in_threadpool(coverage_map, pos, MAP_SAMPLES, 0)
    return JSONResponse({**cmap.to_dict(), "svg": coverage_svg(cmap)})


async def api_explain(request: Request):
    """Why a move is worse than the best (patchsolve.explain), at a small depth."""
    from starlette.concurrency import run_in_threadpool

    from patchsolve.review.explanation import explain

    data = await read_json(request)
    pos = _position_of(data)
    if pos.is_over:
        raise ApiError(422, "the game is over: there is no move to explain")
    move = pos.parse_move(text(data, "move"))
    nodes = number(data, "nodes", REVIEW_NODES, MIN_REVIEW_NODES, MAX_EXPLAIN_NODES, int)
    e = await run_in_threadpool(lambda: explain(pos, move, nodes=nodes))
    return JSONResponse({**e.to_dict(), "text": e.text()})


async def api_quiz(request: Request):
    """Start a job making the exercises of the review's judged moves
    (patchsolve.review.quiz: each measured with ranked rows at QUIZ_NODES); its id. The
    moves are checked here first, so a bad one is a 422 at once."""
    from patchsolve.review.quiz import exercises_of_moves

    data = await read_json(request)
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > views.MAX_MOVES:
        raise ApiError(400, f"'moves' must be a list of at most {views.MAX_MOVES} reviewed moves")
    player = data.get("player")
    if player is not None and (isinstance(player, bool) or player not in (0, 1)):
        raise ApiError(400, "'player' must be 0, 1 or null")
    threshold = number(data, "threshold", 3.0, 0, 200)
    exercises_of_moves(moves, player, threshold, count=0, nodes=QUIZ_NODES)  # reads every move: no search
    payload = {
        "moves": moves,
        "player": player,
        "threshold": threshold,
        "nodes": QUIZ_NODES,
        "count": QUIZ_COUNT,
    }
    job = request.app.state.jobs.submit("quiz", payload, QUIZ_TIME)
    return JSONResponse(job.to_dict(), status_code=202)


def exercise_of(data) -> dict:
    """The exercise a grading request sends back, every field checked
    against the server's limits (400 naming the field): above all its
    ``budget``, which sets the search behind the grade: the one this
    server's exercises are made at (QUIZ_NODES), never the client's."""
    from patchsolve.review.judge import Budget
    from patchsolve.review.quiz import Exercise

    e = data.get("exercise")
    if not isinstance(e, dict) or set(e) != set(Exercise.__dataclass_fields__):
        raise ApiError(
            400, f"'exercise' must be an object with the fields {', '.join(Exercise.__dataclass_fields__)}"
        )
    budget = e.get("budget")
    server = Budget(nodes=QUIZ_NODES).to_dict()
    if not isinstance(budget, dict) or any(budget.get(k) != server[k] for k in ("nodes", "depth", "recheck")):
        raise ApiError(
            400, f"an exercise of this server is valued at {QUIZ_NODES} nodes: 'budget' must say so"
        )
    number(e, "depth", None, 0, MAX_DEPTH * 2, int)  # the search depth behind its values (it sets no search)
    number(e, "number", None, 1, views.MAX_MOVES, int)
    number(e, "player", None, 0, 1, int)
    for key in ("played_loss", "best_value"):
        number(e, key, None, -MAX_VALUE, MAX_VALUE)
    text(e, "position")
    for key in ("played", "best", "bound"):
        if not isinstance(e[key], str) or len(e[key]) > MAX_TOKEN:
            raise ApiError(400, f"'{key}' must be a move text of at most {MAX_TOKEN} characters")
    rows, pv = e["acceptable"], e["pv"]
    if not isinstance(rows, list) or len(rows) > MAX_ROWS:
        raise ApiError(400, f"'acceptable' must be a list of at most {MAX_ROWS} rows")
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("move"), str) or len(row["move"]) > MAX_TOKEN:
            raise ApiError(400, "each acceptable row is {move, value}")
        number(row, "value", None, -MAX_VALUE, MAX_VALUE)
    if not isinstance(pv, list) or len(pv) > views.MAX_MOVES or not all(isinstance(m, str) for m in pv):
        raise ApiError(400, f"'pv' must be a list of at most {views.MAX_MOVES} move texts")
    return e


async def api_quiz_grade(request: Request):
    """Start a job grading an answer to an exercise on the exercise's
    footing (patchsolve.review.quiz.grade); its id. The exercise and the move are
    checked here (400/422 at once), the search runs as a capped job."""
    from patchsolve.review.quiz import exercise_of_dict
    from patchsolve.rules.position import Position

    data = await read_json(request)
    exercise = exercise_of_dict(exercise_of(data))
    move = text(data, "move")
    Position(exercise.position).parse_move(move)  # a move of the exercise's position, or a 422
    job = request.app.state.jobs.submit("grade", {"exercise": exercise.to_dict(), "move": move}, GRADE_TIME)
    return JSONResponse(job.to_dict(), status_code=202)


async def api_play(request: Request):
    """A move played in the game; the new view."""
    data = await read_json(request)
    game = views.play(views.game_of(data.get("game", {})), data.get("ply"), data.get("move"))
    return JSONResponse(views.view(game))


async def api_load(request: Request):
    """A game record (variations and all), position or board text read:
    the view of its main line's end, and the whole tree (``tree``)."""
    data = await read_json(request)
    tree = views.load_text(text(data, "text"))
    return JSONResponse({**views.view(tree.main_line()), "tree": views.tree_json(tree)})


async def api_record(request: Request):
    """The game record of a tree the page holds, variations and all."""
    data = await read_json(request)
    return JSONResponse({"record": views.tree_of(data.get("tree")).to_text()})


async def api_new(request: Request):
    """A new game from a seeded circle."""
    from patchsolve.rules.game import Game

    data = await read_json(request)
    seed = number(data, "seed", 0, 0, 2**31 - 1, int)
    return JSONResponse(views.view(Game.new(seed=seed)))


async def api_setup(request: Request):
    """The position painted in the set-up, checked; its view."""
    from patchsolve.rules.game import Game
    from patchsolve.web.table import position_from_table

    data = await read_json(request)
    return JSONResponse(views.view(Game(position_from_table(data))))


async def api_search(request: Request):
    """Start a search job on a position; its id."""
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    ply = views.ply_of(game, data.get("ply"))
    pos = game.position(ply)
    if pos.is_over:
        raise ApiError(422, "the game is over: nothing to search")
    budget = number(data, "time", 1.0, 0.01, MAX_TIME)
    payload = {
        "position": pos.to_text(),
        "engine": engine_of(data),
        "time": budget,
        # a depth only when asked: it means one thread (a reproducible answer), the time alone every core
        "depth": number(data, "depth", MAX_DEPTH, 1, MAX_DEPTH, int) if "depth" in data else None,
        "top": number(data, "top", 1, 1, MAX_TOP, int),
        # an opponent's level (patchsolve.review.levels): 10 is the engine itself; the draw follows the ply
        "level": number(data, "level", 10, 1, 10, int),
        "level_seed": ply,
    }
    if payload["level"] < 10:  # a level searches to its own depth: the time per move does not cut it
        budget = MAX_TIME
    job = request.app.state.jobs.submit("search", payload, budget)
    return JSONResponse(job.to_dict(), status_code=202)


async def api_analyze(request: Request):
    """Start a review job on a game (the CLI's budget: ``nodes`` a position); its id."""
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    if len(game) == 0:
        raise ApiError(422, "the game has no moves to review")
    payload = {
        "record": game.to_text(),
        "nodes": number(data, "nodes", REVIEW_NODES, MIN_REVIEW_NODES, MAX_REVIEW_NODES, int),
    }
    job = request.app.state.jobs.submit("analyze", payload, MAX_REVIEW_TIME)
    return JSONResponse(job.to_dict(), status_code=202)


def _job_id(request: Request) -> int:
    raw = request.path_params["job_id"]
    if not raw.isdigit() or len(raw) > 12:
        raise ApiError(400, "a job id is a number")
    return int(raw)


async def api_job(request: Request):
    """A job's status, progress and result."""
    try:
        return JSONResponse(request.app.state.jobs.get(_job_id(request)).to_dict())
    except KeyError:
        raise ApiError(404, "no such job") from None


async def api_job_stop(request: Request):
    """Stop a job; it keeps what it has. ``{"discard": true}``: its answer
    is no longer wanted, so it ends at once and the answer comes when it has
    (the engine is then free for the next job)."""
    data = await read_json(request)  # a JSON post like the others, so other sites cannot send it
    discard = data.get("discard", False)
    if not isinstance(discard, bool):
        raise ApiError(400, "'discard' must be true or false")
    jobs = request.app.state.jobs
    try:
        job = jobs.stop(_job_id(request), discard=discard)
    except KeyError:
        raise ApiError(404, "no such job") from None
    for _ in range(int(DISCARD_WAIT / 0.02)):
        if not discard or job.status != "running":
            break
        await asyncio.sleep(0.02)
    return JSONResponse(job.to_dict())


# -- errors ----------------------------------------------------------------------


async def on_api_error(request, exc: ApiError):
    # a 408 ends the connection: the rest of a late body must not be read as the next request
    """A bad request: its JSON error."""
    headers = {"Connection": "close"} if exc.status == 408 else None
    return JSONResponse({"error": clip(exc.message)}, status_code=exc.status, headers=headers)


async def on_disconnect(request, exc: Disconnected):
    """A client gone mid-request: nothing to answer."""
    return Response(status_code=400)  # nobody is listening: no log, no traceback


async def on_patchsolve_error(request, exc: PatchsolveError):
    """Bad input found by the library: 422 with its message (400 a malformed request, 409 busy)."""
    status = 409 if isinstance(exc, Busy) else 400 if isinstance(exc, views.BadRequest) else 422
    return JSONResponse({"error": clip(str(exc))}, status_code=status)


async def on_http_error(request, exc: HTTPException):
    """An HTTP error (404, 405, ...) as JSON."""
    return JSONResponse({"error": clip(exc.detail or "error")}, status_code=exc.status_code)


async def on_crash(request, exc: Exception):
    """A bug: a 500 with one line, the traceback on the server's stderr."""
    traceback.print_exception(exc, file=sys.stderr)
    return JSONResponse(
        {"error": f"internal error ({type(exc).__name__}); see the server's log"}, status_code=500
    )


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class HostCheck:
    """Refuse requests whose Host is not one of ``allowed`` (None: any).
    Served on loopback, that stops DNS rebinding: a page of another site
    whose name is made to point at 127.0.0.1 still sends its own name."""

    def __init__(self, app, allowed):
        self.app, self.allowed = app, allowed

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self.allowed is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host[1:].split("]")[0] if host.startswith("[") else host.rsplit(":", 1)[0]
            if name.lower() not in self.allowed:
                response = JSONResponse({"error": clip(f"host {host!r} is not served here")}, status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


TOKEN_HEADER = "x-patchsolve-token"


def token_cookie(port) -> str:
    """The cookie that carries the access token of the server on ``port``
    (one name a port: two servers on one machine keep theirs apart)."""
    return f"patchsolve_token_{port}"


class TokenCheck:
    """With a ``token`` (``patchsolve serve --lan``), refuse every request
    that does not carry it: 401 without one, 403 with another. The address
    printed for the phone carries it once in ``?token=``; the page's answer
    then sets it as a cookie (HttpOnly, SameSite=Strict) and sends the
    browser on to the bare address, so the token leaves the address bar and
    every later request (the page, its files, the API) carries the cookie.
    A script may send it as the ``X-Patchsolve-Token`` header instead."""

    def __init__(self, app, token):
        self.app, self.token = app, token

    def _given(self, scope) -> tuple[str | None, bool]:
        """The token the request carries, and whether it came in the query."""
        from http.cookies import SimpleCookie
        from urllib.parse import parse_qs

        headers = dict(scope["headers"])
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        if query:
            return query[0], True
        if TOKEN_HEADER.encode() in headers:
            return headers[TOKEN_HEADER.encode()].decode("latin-1"), False
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
        except Exception:  # a malformed cookie header is a request without the token
            return None, False
        port = (scope.get("server") or ("", 0))[1]
        morsel = cookie.get(token_cookie(port))
        return (morsel.value if morsel else None), False

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.token is None:
            await self.app(scope, receive, send)
            return
        given, in_query = self._given(scope)
        if given is None or not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
            status = 401 if given is None else 403
            words = (
                "this server needs its access token: open the address 'patchsolve serve --lan' printed"
                if given is None
                else "wrong access token"
            )
            await JSONResponse({"error": words}, status_code=status)(scope, receive, send)
            return
        if not in_query:
            await self.app(scope, receive, send)
            return
        port = (scope.get("server") or ("", 0))[1]
        cookie = f"{token_cookie(port)}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()
        if scope["method"] == "GET" and scope["path"] == "/":  # the token leaves the address bar
            headers = [(b"location", b"/"), (b"set-cookie", cookie), (b"cache-control", b"no-store")]
            await send({"type": "http.response.start", "status": 303, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return

        async def send_with_cookie(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + [(b"set-cookie", cookie)])
            await send(message)

        await self.app(scope, receive, send_with_cookie)


SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Add SECURITY_HEADERS to every answer: no other site may frame the
    page (clickjacking), nor have a file sniffed as another type."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(allowed_hosts=LOOPBACK_NAMES, token: str | None = None) -> Starlette:
    """The app; ``allowed_hosts`` are the Host names it answers (None: any);
    with a ``token`` every request must carry it (see :class:`TokenCheck`)."""
    routes = [
        Route("/", index),
        Route("/api/patches", api_patches),
        Route("/api/game", api_game, methods=["POST"]),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/load", api_load, methods=["POST"]),
        Route("/api/record", api_record, methods=["POST"]),
        Route("/api/new", api_new, methods=["POST"]),
        Route("/api/setup", api_setup, methods=["POST"]),
        Route("/api/search", api_search, methods=["POST"]),
        Route("/api/analyze", api_analyze, methods=["POST"]),
        Route("/api/map", api_map, methods=["POST"]),
        Route("/api/explain", api_explain, methods=["POST"]),
        Route("/api/quiz", api_quiz, methods=["POST"]),
        Route("/api/quiz/grade", api_quiz_grade, methods=["POST"]),
        Route("/api/jobs/{job_id}", api_job),
        Route("/api/jobs/{job_id}/stop", api_job_stop, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers: dict[Any, Any] = {
        ApiError: on_api_error,
        Disconnected: on_disconnect,
        PatchsolveError: on_patchsolve_error,
        HTTPException: on_http_error,
        Exception: on_crash,
    }
    allowed = None if allowed_hosts is None else tuple(h.lower() for h in allowed_hosts)
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(HostCheck, allowed=allowed),  # a foreign Host first: 400, whatever it carries
        Middleware(TokenCheck, token=token),
    ]
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    app.state.jobs = JobRunner()
    return app
