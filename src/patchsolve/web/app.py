"""The web app's HTTP side (Starlette): the static page and the JSON API.

Every answer of ``/api/...`` is JSON; an error is ``{"error": "..."}`` with
status 400 (malformed request), 404, 405, 409 (engine busy), 413 (body too
large), 415 (a body not declared JSON), 422 (a position, record or move that
patchsolve refuses) or 500 (a bug: logged on the server, never a traceback to
the page).
"""

from __future__ import annotations

import json
import sys
import traceback
from importlib import resources

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from patchsolve.errors import PatchsolveError
from patchsolve.web import views
from patchsolve.web.jobs import Busy, JobRunner

MAX_BODY = 256 * 1024          # bytes of a request body
MAX_TIME = 30.0                # seconds a search may be given
MAX_ANALYZE_TIME = 2.0         # seconds per position of a game review ...
MAX_REVIEW_TIME = 120.0        # ... and for the whole review (long games get less a position)
MAX_DEPTH = 30
MAX_TOP = 16                   # root moves valued one by one (alpha-beta multipv)
ENGINES = ("alphabeta", "mcts")
STATIC = resources.files("patchsolve.web") / "static"


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


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
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ApiError(400, f"the body is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def number(data: dict, key: str, default, lo, hi, kind=float):
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (kind is int and not isinstance(v, int)):
        raise ApiError(400, f"'{key}' must be a number")
    if not lo <= v <= hi:
        raise ApiError(400, f"'{key}' must be in {lo}..{hi}, not {v}")
    return kind(v)


def text(data: dict, key: str) -> str:
    v = data.get(key)
    if not isinstance(v, str):
        raise ApiError(400, f"'{key}' must be a string")
    if len(v) > views.MAX_TEXT:
        raise ApiError(400, f"'{key}' is over {views.MAX_TEXT} characters")
    return v


def engine_of(data: dict) -> str:
    engine = data.get("engine", "alphabeta")
    if engine not in ENGINES:
        raise ApiError(400, f"'engine' must be one of {', '.join(ENGINES)}")
    return engine


# -- handlers ------------------------------------------------------------------

async def index(request: Request):
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


async def api_patches(request: Request):
    return JSONResponse({"patches": views.patches()})


async def api_game(request: Request):
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    return JSONResponse(views.view(game, data.get("ply")))


async def api_play(request: Request):
    data = await read_json(request)
    game = views.play(views.game_of(data.get("game", {})), data.get("ply"), data.get("move"))
    return JSONResponse(views.view(game))


async def api_load(request: Request):
    data = await read_json(request)
    return JSONResponse(views.view(views.load_text(text(data, "text"))))


async def api_new(request: Request):
    from patchsolve.game import Game

    data = await read_json(request)
    seed = number(data, "seed", 0, 0, 2**31 - 1, int)
    return JSONResponse(views.view(Game.new(seed=seed)))


async def api_setup(request: Request):
    from patchsolve.game import Game
    from patchsolve.web.table import position_from_table

    data = await read_json(request)
    return JSONResponse(views.view(Game(position_from_table(data))))


async def api_search(request: Request):
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    pos = game.position(views.ply_of(game, data.get("ply")))
    if pos.is_over:
        raise ApiError(422, "the game is over: nothing to search")
    budget = number(data, "time", 1.0, 0.01, MAX_TIME)
    payload = {"position": pos.to_text(), "engine": engine_of(data), "time": budget,
               "depth": number(data, "depth", MAX_DEPTH, 1, MAX_DEPTH, int),
               "top": number(data, "top", 1, 1, MAX_TOP, int)}
    job = request.app.state.jobs.submit("search", payload, budget)
    return JSONResponse(job.to_dict(), status_code=202)


async def api_analyze(request: Request):
    data = await read_json(request)
    game = views.game_of(data.get("game", {}))
    if len(game) == 0:
        raise ApiError(422, "the game has no moves to review")
    positions = len(game) + 1
    per_move = min(number(data, "time", 0.2, 0.01, MAX_ANALYZE_TIME), MAX_REVIEW_TIME / positions)
    payload = {"record": game.to_text(), "engine": engine_of(data), "time": per_move,
               "threshold": number(data, "threshold", 5.0, 0, 200)}
    job = request.app.state.jobs.submit("analyze", payload, per_move * positions)
    return JSONResponse(job.to_dict(), status_code=202)


def _job_id(request: Request) -> int:
    raw = request.path_params["job_id"]
    if not raw.isdigit() or len(raw) > 12:
        raise ApiError(400, "a job id is a number")
    return int(raw)


async def api_job(request: Request):
    try:
        return JSONResponse(request.app.state.jobs.get(_job_id(request)).to_dict())
    except KeyError:
        raise ApiError(404, "no such job") from None


async def api_job_stop(request: Request):
    await read_json(request)   # a JSON post like the others, so other sites cannot send it
    try:
        return JSONResponse(request.app.state.jobs.stop(_job_id(request)).to_dict())
    except KeyError:
        raise ApiError(404, "no such job") from None


# -- errors ----------------------------------------------------------------------

async def on_api_error(request, exc: ApiError):
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def on_patchsolve_error(request, exc: PatchsolveError):
    status = 409 if isinstance(exc, Busy) else 400 if isinstance(exc, views.BadRequest) else 422
    return JSONResponse({"error": " ".join(str(exc).split())}, status_code=status)


async def on_http_error(request, exc: HTTPException):
    return JSONResponse({"error": exc.detail or "error"}, status_code=exc.status_code)


async def on_crash(request, exc: Exception):
    traceback.print_exception(exc, file=sys.stderr)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); see the server's log"},
                        status_code=500)


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
            if name not in self.allowed:
                response = JSONResponse({"error": f"host {host!r} is not served here"}, status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(allowed_hosts=LOOPBACK_NAMES) -> Starlette:
    """The app; ``allowed_hosts`` are the Host names it answers (None: any)."""
    routes = [
        Route("/", index),
        Route("/api/patches", api_patches),
        Route("/api/game", api_game, methods=["POST"]),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/load", api_load, methods=["POST"]),
        Route("/api/new", api_new, methods=["POST"]),
        Route("/api/setup", api_setup, methods=["POST"]),
        Route("/api/search", api_search, methods=["POST"]),
        Route("/api/analyze", api_analyze, methods=["POST"]),
        Route("/api/jobs/{job_id}", api_job),
        Route("/api/jobs/{job_id}/stop", api_job_stop, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    handlers = {ApiError: on_api_error, PatchsolveError: on_patchsolve_error, HTTPException: on_http_error,
                Exception: on_crash}
    middleware = [Middleware(HostCheck, allowed=None if allowed_hosts is None else tuple(allowed_hosts))]
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    app.state.jobs = JobRunner()
    return app
