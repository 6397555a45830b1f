"""The web app's JSON API through HTTP against a real uvicorn server on
127.0.0.1 (started in a thread with a free port, shut down at the end)."""

import re
import time
import xml.dom.minidom
from pathlib import Path

import pytest

from browser import need  # noqa: E402

need("starlette")
need("uvicorn")

import patchsolve as ps  # noqa: E402
from patchsolve import Game, _core  # noqa: E402
from patchsolve.web import is_loopback  # noqa: E402
from patchsolve.web.app import MAX_BODY  # noqa: E402
from webserver import call, running_server, wait_job  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
START = ps.Position.start(seed=0)


@pytest.fixture(scope="module")
def base():
    with running_server() as (url, _server):
        yield url


def assert_error(status, data, expected_status, needle=None):
    assert status == expected_status, (status, data)
    assert isinstance(data, dict) and set(data) == {"error"}, data
    assert "Traceback" not in data["error"] and "\n" not in data["error"]
    if needle:
        assert needle in data["error"], data["error"]


def test_the_page_and_its_static_files(base):
    status, html = call(base, "/")
    assert status == 200 and "<title>patchsolve</title>" in html and "/static/app.js" in html
    status, js = call(base, "/static/app.js")
    assert status == 200 and "/api/play" in js
    assert call(base, "/static/style.css")[0] == 200


def test_patches_carry_every_orientation_as_in_move_text(base):
    status, data = call(base, "/api/patches")
    assert status == 200
    patches = data["patches"]
    assert [p["id"] for p in patches] == list(range(len(ps.rules.position.PATCHES)))
    for p in patches:
        assert len(p["orientations"]) == _core.orientation_count(p["id"])
        for o, cells in enumerate(p["orientations"]):
            mask = _core.move_info(_core.buy_move_code(p["id"], o, 0))[2]
            assert sum(1 << (r * 9 + c) for r, c in cells) == mask


def test_game_view_of_the_start_and_after_moves(base):
    status, v = call(base, "/api/game", {"game": {"start": None, "moves": []}})
    assert status == 200
    assert ps.Position.from_text(v["position"]) == START
    assert set(v["legal"]) == {str(m) for m in START.legal_moves()}
    assert v["to_move"] == 0 and v["ply"] == 0 and v["length"] == 0
    for part in [*v["parts"]["quilts"], v["parts"]["track"], v["parts"]["next"]]:
        xml.dom.minidom.parseString(part)
    move = next(m for m in v["legal"] if m != "walk")
    status, v2 = call(base, "/api/game", {"game": {"start": v["start"], "moves": ["walk", move]}, "ply": 1})
    assert status == 200 and v2["ply"] == 1 and v2["length"] == 2
    assert ps.Position.from_text(v2["position"]) == START.play("walk")
    assert Game.from_text(v2["record"]).moves == (START.legal_moves()[0], START.play("walk").parse_move(move))


def test_the_views_geometry_says_where_the_parts_draw_squares_and_tokens(base):
    """The page lays its ghosts and click targets by the view's geometry:
    checked against the drawn parts (a patch's square, each time token)."""
    game = Game.read(GOLDEN)
    status, v = call(base, "/api/game", {"game": {"moves": [str(m) for m in game.moves]}, "ply": 20})
    assert status == 200, v
    g, pos = v["geometry"], game.position(20)
    assert v["movers"] == [game.position(i).to_move for i in range(len(game))]
    for p in (0, 1):
        doc = xml.dom.minidom.parseString(v["parts"]["quilts"][p])
        drawn = {
            (float(r.getAttribute("x")), float(r.getAttribute("y")))
            for r in doc.getElementsByTagName("rect")
            if r.getAttribute("stroke") == "#333"  # a covered square
        }
        covered = {
            (g["quilt"][0] + (sq % 9) * g["cell"], g["quilt"][1] + (sq // 9) * g["cell"])
            for sq in range(81)
            if pos.quilt(p) >> sq & 1
        }
        assert drawn == covered and covered
    doc = xml.dom.minidom.parseString(v["parts"]["track"])
    for c in doc.getElementsByTagName("circle"):
        titles = c.getElementsByTagName("title")
        if titles and titles[0].firstChild.data.startswith("player"):
            p, t = (
                int(titles[0].firstChild.data.split()[1]),
                pos.time(int(titles[0].firstChild.data.split()[1])),
            )
            x = g["track"][0] + (t % g["per_row"]) * g["space"] + g["space"] / 2
            y = g["track"][1] + (t // g["per_row"]) * g["row"] + g["space"] / 2
            assert abs(float(c.getAttribute("cx")) - x) <= 3 and float(c.getAttribute("cy")) == y


def test_play_a_move_and_branch_from_an_earlier_ply(base):
    pid = START.circle[0]
    move = f"{pid}:0@a1"
    status, v = call(base, "/api/play", {"game": {"moves": []}, "move": move})
    assert status == 200 and v["moves"] == [move]
    assert ps.Position.from_text(v["position"]) == START.play(move)
    assert {str(k) for k in v["labels"][0]} == {
        str(sq) for sq in range(81) if START.play(move).quilt(0) >> sq & 1
    }
    status, v = call(base, "/api/play", {"game": {"moves": [move, "walk"]}, "ply": 0, "move": "walk"})
    assert status == 200 and v["moves"] == ["walk"]


def test_illegal_placements_are_refused_with_the_reason(base):
    first = START.play(f"{START.circle[0]}:0@a1")
    game = {"moves": [f"{START.circle[0]}:0@a1", "walk"]}
    assert first.play("walk").to_move == 0
    # covering the first patch again (an affordable patch whose orientation 0 holds a1): the quilt overlaps
    here = first.play("walk")
    pid = next(
        i
        for i in here.circle[:3]
        if ps.rules.position.PATCHES[i].buttons <= here.buttons(0)
        and _core.move_info(_core.buy_move_code(i, 0, 0))[2] & 1
    )
    status, data = call(base, "/api/play", {"game": game, "move": f"{pid}:0@a1"})
    assert_error(status, data, 422, "overlaps")
    status, data = call(base, "/api/play", {"game": {"moves": []}, "move": f"{START.circle[5]}:0@e5"})
    assert_error(status, data, 422, "not among the next three")
    status, data = call(base, "/api/play", {"game": {"moves": []}, "move": "leather@e5"})
    assert_error(status, data, 422, "no leather patch")


def test_load_a_record_a_position_and_refuse_garbage(base):
    status, v = call(base, "/api/load", {"text": GOLDEN.read_text()})
    assert status == 200 and v["length"] == len(Game.read(GOLDEN))
    mid = Game.read(GOLDEN).position(30)
    status, v = call(base, "/api/load", {"text": "# my table\n" + mid.to_text()})
    assert status == 200 and v["length"] == 0 and ps.Position.from_text(v["position"]) == mid
    status, v = call(base, "/api/load", {"text": mid.to_json()})
    assert status == 200 and ps.Position.from_text(v["position"]) == mid
    assert_error(*call(base, "/api/load", {"text": "revised 1,2,3 nonsense"}), 422)
    assert_error(*call(base, "/api/load", {"text": "circle 1,2\nwalk"}), 422)
    assert_error(*call(base, "/api/load", {"text": ""}), 422, "no position")


def test_a_record_with_variations_loads_as_a_tree_and_is_written_back(base):
    from patchsolve import GameTree

    tree = GameTree.from_text(GOLDEN.read_text())
    first = tree.root.children[0]
    tree.add(tree.add(first, "walk"), "walk")
    status, v = call(base, "/api/load", {"text": tree.to_text()})
    assert status == 200, v
    movers = [n.parent.position.to_move for n in tree.nodes() if n.parent is not None]
    assert [n.pop("player") for n in v["tree"]["nodes"]] == movers  # who made each move
    assert v["tree"] == tree.to_dict() and v["length"] == len(tree.main_line())  # the main line's end
    status, r = call(base, "/api/record", {"tree": v["tree"]})
    assert status == 200 and GameTree.from_text(r["record"]) == tree
    assert "(walk walk)" in r["record"]
    # a malformed tree is a clear error
    bad = {"start": None, "nodes": [{"parent": 3, "move": "walk"}]}
    assert_error(*call(base, "/api/record", {"tree": bad}), 422, "earlier node")
    assert_error(*call(base, "/api/record", {"tree": []}), 400, "'tree'")
    many = {"start": None, "nodes": [{"parent": k, "move": "walk"} for k in range(2001)]}
    assert_error(*call(base, "/api/record", {"tree": many}), 422, "at most 2000")


@pytest.mark.parametrize(
    "path,body,status,needle",
    [
        ("/api/game", b"not json", 400, "not JSON"),
        ("/api/game", b"[1, 2]", 400, "JSON object"),
        ("/api/game", b'{"game": {"moves": "walk"}}', 400, "list of move texts"),
        ("/api/game", b'{"game": {"moves": [1]}}', 400, "list of move texts"),
        ("/api/game", b'{"game": {"start": 5}}', 400, "position text"),
        ("/api/game", b'{"game": [], "ply": 0}', 400, "object"),
        ("/api/game", b'{"game": {"moves": ["walk"]}, "ply": 7}', 400, "0..1"),
        ("/api/game", b'{"game": {"moves": ["walk"]}, "ply": true}', 400, "ply"),
        ("/api/game", b'{"game": {"moves": ["walk", "zz"]}}', 422, "move 2"),
        ("/api/game", b'{"game": {"start": "revised x"}}', 422, None),
        ("/api/play", b'{"game": {}, "move": 3}', 400, "move"),
        ("/api/load", b'{"text": 3}', 400, "'text'"),
        ("/api/new", b'{"seed": -1}', 400, "seed"),
        ("/api/search", b'{"game": {}, "time": 999}', 400, "time"),
        ("/api/search", b'{"game": {}, "time": "fast"}', 400, "time"),
        ("/api/search", b'{"game": {}, "engine": "oracle"}', 400, "engine"),
        ("/api/search", b'{"game": {}, "depth": 0}', 400, "depth"),
        ("/api/search", b'{"game": {}, "top": 99}', 400, "top"),
        ("/api/analyze", b'{"game": {}}', 422, "no moves"),
        ("/api/analyze", b'{"game": {"moves": ["walk"]}, "nodes": 999999999}', 400, "nodes"),
        ("/api/analyze", b'{"game": {"moves": ["walk"]}, "nodes": 10}', 400, "nodes"),
    ],
)
def test_malformed_requests_get_a_json_error(base, path, body, status, needle):
    assert_error(*call(base, path, raw=body), status, needle)


def test_routes_methods_jobs_and_body_size(base):
    assert_error(*call(base, "/api/nothing"), 404)
    assert_error(*call(base, "/api/game"), 405)
    assert_error(*call(base, "/api/jobs/abc"), 400, "number")
    assert_error(*call(base, "/api/jobs/999999"), 404, "no such job")
    big = b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}'
    assert_error(*call(base, "/api/load", raw=big), 413)
    # DNS rebinding: another site's name pointed at 127.0.0.1 is not served
    assert_error(*call(base, "/api/patches", headers={"Host": "evil.example:8765"}), 400, "evil.example")
    assert call(base, "/api/patches", headers={"Host": "localhost:1"})[0] == 200
    # a form post (what another site's page can send without asking) is refused
    assert_error(*call(base, "/api/search", raw=b'{"game": {}}', headers={"Content-Type": "text/plain"}), 415)


def test_a_search_reports_progress_and_a_legal_best_move(base):
    pos = Game.read(GOLDEN).position(20)
    status, job = call(
        base, "/api/search", {"game": {"start": pos.to_text()}, "engine": "alphabeta", "time": 0.4}
    )
    assert status == 202 and job["status"] == "running"
    # one search at a time: a second one is refused while the first runs
    status, data = call(base, "/api/search", {"game": {"start": pos.to_text()}, "time": 0.2})
    assert_error(status, data, 409, "busy")
    job = wait_job(base, job)
    assert job["status"] == "done", job
    r = job["result"]
    assert r["best_move"] in {str(m) for m in pos.legal_moves()}
    assert r["pv"] and r["pv"][0] == r["best_move"] and r["depth"] >= 1
    assert any(j["progress"] for j in job["seen"]) or job["progress"]["depth"] >= 1


def test_an_mcts_search_gives_ranked_root_moves(base):
    status, job = call(base, "/api/search", {"game": {}, "engine": "mcts", "time": 0.2})
    assert status == 202
    job = wait_job(base, job)
    assert job["status"] == "done", job
    legal = {str(m) for m in START.legal_moves()}
    assert job["result"]["root_moves"] and all(d["move"] in legal for d in job["result"]["root_moves"])


def test_a_stopped_search_keeps_its_deepest_result(base):
    pos = Game.read(GOLDEN).position(4)
    status, job = call(
        base, "/api/search", {"game": {"start": pos.to_text()}, "engine": "alphabeta", "time": 20}
    )
    assert status == 202
    deadline = time.monotonic() + 15
    while True:
        _, now = call(base, f"/api/jobs/{job['id']}")
        if now["progress"] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    t0 = time.monotonic()
    status, _ = call(base, f"/api/jobs/{job['id']}/stop", {})
    assert status == 200
    job = wait_job(base, job)
    assert time.monotonic() - t0 < 5
    assert job["status"] in ("stopped", "done")
    assert job["result"]["best_move"] in {str(m) for m in pos.legal_moves()}
    # the search process was replaced: the next search works
    status, job = call(base, "/api/search", {"game": {"start": pos.to_text()}, "time": 0.1})
    assert status == 202 and wait_job(base, job)["status"] == "done"


def test_a_game_review_job(base):
    game = Game.read(GOLDEN)
    short = Game(game.position(44), game.moves[44:])
    status, job = call(
        base,
        "/api/analyze",
        {
            "game": {"start": short.start.to_text(), "moves": [str(m) for m in short.moves]},
            "nodes": 3_000,
        },
    )
    assert status == 202
    job = wait_job(base, job)
    assert job["status"] == "done", job
    review = job["result"]
    assert review["budget"]["nodes"] == 3_000 and review["budget"]["text"].startswith(
        "3,000 nodes a position"
    )
    assert [m["move"] for m in review["moves"]] == [str(m) for m in short.moves]
    assert all(m["loss"] >= 0 for m in review["moves"])
    doc = xml.dom.minidom.parseString(review["svg"])
    plies = sorted(
        int(r.getAttribute("data-ply"))
        for r in doc.getElementsByTagName("rect")
        if r.getAttribute("class") == "ply-hit"
    )
    assert plies == list(range(len(short) + 1))


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")
    assert re.match(r"^\d+$", "1")


def table(**over):
    pid = START.circle[0]
    data = {
        "circle": list(START.circle[1:]),
        "quilts": [[{"patch": pid, "orientation": 0, "square": "a1"}], []],
        "buttons": [5 - ps.rules.position.PATCHES[pid].buttons, 5],
        "time": [ps.rules.position.PATCHES[pid].time, 0],
    }
    data.update(over)
    return data


def test_set_up_a_position_from_the_table(base):
    status, v = call(base, "/api/setup", table())
    assert status == 200, v
    assert ps.Position.from_text(v["position"]) == START.play(f"{START.circle[0]}:0@a1")
    assert v["fields"]["income"] == [ps.rules.position.PATCHES[START.circle[0]].income, 0]
    # the position keeps which patch lies where, as a game played to it would
    mask = START.parse_move(f"{START.circle[0]}:0@a1").mask
    assert v["labels"][0] == {str(sq): START.circle[0] for sq in range(81) if mask >> sq & 1}
    assert v["labels"][1] == {}


def test_the_set_up_derives_a_leather_patch_still_to_place(base):
    # player 0 has passed leather space 26 and no leather patch is laid: it is still to place,
    # as board text derives it (the same derivation, board.fields_from_table)
    status, v = call(base, "/api/setup", table(time=[27, 13]))
    assert status == 200, v
    assert v["pending_leather"] == 0 and v["to_move"] == 0
    assert any(m.startswith("leather@") for m in v["legal"])
    with_leather = table(time=[27, 13])
    with_leather["quilts"][0].append({"leather": True, "square": "i9"})
    status, v = call(base, "/api/setup", with_leather)
    assert status == 200 and v["pending_leather"] is None and v["labels"][0]["80"] == "L"


@pytest.mark.parametrize(
    "over,status,needle",
    [
        ({"circle": list(START.circle)}, 422, "also still in the circle"),
        ({"circle": list(START.circle[2:])}, 422, "neither in the circle nor drawn"),
        ({"circle": list(START.circle[1:]) + [99]}, 422, "unknown patch id"),
        (
            {
                "quilts": [
                    [
                        {"patch": START.circle[0], "orientation": 0, "square": "a1"},
                        {"patch": START.circle[0], "orientation": 0, "square": "a5"},
                    ],
                    [],
                ]
            },
            422,
            "laid twice",
        ),
        ({"time": [5, 5], "on_top": None}, 422, "on top"),
        ({"on_top": 1}, 422, "on_top"),
        (
            {"quilts": [[{"patch": START.circle[0], "orientation": 0, "square": "i9"}], []]},
            422,
            "does not fit with its top-left corner on i9",
        ),
        (
            {
                "quilts": [
                    [
                        {"leather": True, "square": "a1"},
                        {"patch": START.circle[0], "orientation": 0, "square": "a1"},
                    ],
                    [],
                ]
            },
            422,
            "overlaps",
        ),
        (
            {"time": [0, 0], "buttons": [5, 5], "quilts": [[], []], "circle": list(START.circle)},
            422,
            "on top",
        ),
        ({"buttons": [500, 5]}, 422, "buttons"),
        ({"circle": "1,2"}, 400, "circle"),
        ({"time": [60, 0]}, 400, "time"),
        ({"quilts": [[{"patch": 99, "orientation": 0, "square": "a1"}], []]}, 400, "patch"),
        ({"quilts": [[{"square": "z9"}], []]}, 422, "square"),
    ],
)
def test_a_table_that_cannot_be_is_refused(base, over, status, needle):
    assert_error(*call(base, "/api/setup", table(**over)), status, needle)


def _json_values():
    from hypothesis import strategies as st

    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False)
        | st.text(max_size=30)
        | st.sampled_from(["walk", "4:0@a1", "leather@e5", START.to_text(), "a1", "i9"])
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "game",
                        "start",
                        "moves",
                        "ply",
                        "move",
                        "text",
                        "seed",
                        "circle",
                        "quilts",
                        "buttons",
                        "time",
                        "patch",
                        "orientation",
                        "square",
                        "leather",
                        "on_top",
                    ]
                ),
                inner,
                max_size=5,
            )
        ),
        max_leaves=12,
    )


def test_random_request_bodies_never_crash_the_server(base):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(
        path=st.sampled_from(["/api/game", "/api/play", "/api/load", "/api/new", "/api/setup"]),
        body=_json_values(),
    )
    def check(path, body):
        import json

        status, data = call(base, path, raw=json.dumps(body).encode())
        assert status in (200, 400, 422), (path, body, status, data)
        if status != 200:
            assert set(data) == {"error"} and "Traceback" not in data["error"]

    check()


# -- a hostile or broken client ------------------------------------------------------------


def raw_request(base, head: bytes, body: bytes = b"", close=False, timeout=15.0):
    """Send ``head`` + ``body`` on a socket; (the bytes answered, seconds until the server closed or
    None if it kept the connection open), or None when ``close``: the client hangs up at once."""
    import socket
    from urllib.parse import urlsplit

    u = urlsplit(base)
    s = socket.create_connection((u.hostname, u.port), timeout=timeout)
    s.sendall(head + body)
    if close:
        s.close()
        return None
    t0, data = time.monotonic(), b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data, time.monotonic() - t0
            data += chunk
    except TimeoutError:
        return data, None
    finally:
        s.close()


def post_head(path, length, host="127.0.0.1"):
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def test_deeply_nested_json_is_a_400_and_no_traceback(base, capfd):
    body = b"[" * 100_000 + b"]" * 100_000
    assert len(body) < MAX_BODY
    assert_error(*call(base, "/api/game", raw=body), 400, "nested too deeply")
    assert_error(
        *call(base, "/api/setup", raw=b'{"quilts": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"),
        400,
        "nested too deeply",
    )
    err = capfd.readouterr().err
    assert "Traceback" not in err and "RecursionError" not in err


def test_a_body_that_never_arrives_gets_a_408_and_the_connection_closed(base, monkeypatch):
    from patchsolve.web import app

    monkeypatch.setattr(app, "BODY_TIMEOUT", 0.5)  # 10 s in service
    t0 = time.monotonic()
    data, closed_after = raw_request(base, post_head("/api/load", 1000), b"{}")
    assert data.startswith(b"HTTP/1.1 408") and b"did not arrive" in data
    assert closed_after is not None and time.monotonic() - t0 < 5
    assert app.BODY_TIMEOUT == 0.5 and ps.__name__  # the server answers again at once
    assert call(base, "/api/patches")[0] == 200


@pytest.mark.parametrize(
    "head",
    [
        b"",  # connects and says nothing
        b"GET / HT",  # half a request line
        b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # headers without the blank line that ends them
    ],
)
def test_a_request_head_that_never_completes_has_its_connection_closed(base, monkeypatch, head):
    """Slowloris: the connection is closed once HEAD_TIMEOUT has passed (a
    partial head is answered 408 first); the socket waits ten times longer,
    so a connection left open fails the test."""
    from patchsolve.web import protocol

    monkeypatch.setattr(protocol, "HEAD_TIMEOUT", 0.5)  # 15 s in service
    data, closed_after = raw_request(base, head, timeout=5.0)
    assert closed_after is not None, "the server kept the connection open"
    if head:
        assert data.startswith(b"HTTP/1.1 408") and b"request head did not arrive" in data
    else:
        assert data == b""
    assert call(base, "/api/patches")[0] == 200


def test_the_head_deadline_holds_again_after_an_answer_on_a_kept_connection(base, monkeypatch):
    """A keep-alive connection whose next head stalls half-way is closed too."""
    from patchsolve.web import protocol

    monkeypatch.setattr(protocol, "HEAD_TIMEOUT", 0.5)
    first = b"GET /api/patches HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    data, closed_after = raw_request(base, first + b"GET /api/patches HTTP/1.1\r\nHost: 1", timeout=5.0)
    assert closed_after is not None
    assert data.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in data


def test_a_client_that_hangs_up_mid_body_is_let_go_without_a_word(base, capfd):
    for _ in range(3):
        raw_request(base, post_head("/api/load", 1000), b"{}", close=True)
    time.sleep(0.5)
    assert call(base, "/api/patches")[0] == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and "ClientDisconnect" not in err and "ERROR" not in err


def test_no_other_site_may_frame_the_page(base):
    import urllib.request

    for path in ("/", "/static/app.js"):
        with urllib.request.urlopen(base + path, timeout=30) as resp:
            assert resp.headers["X-Frame-Options"] == "DENY"
            assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"]
    data, _ = raw_request(base, post_head("/api/game", 2, host="evil.example"), b"{}", timeout=5)
    assert b"x-frame-options: DENY" in data.lower().replace(b"deny", b"DENY")


def test_an_error_names_a_long_token_without_echoing_it(base):
    status, data = call(base, "/api/play", {"game": {}, "move": "x" * 200_000})
    assert_error(status, data, 422, "x" * 40 + "...(200000 characters)")
    assert len(data["error"]) < 400
    status, data = call(base, "/api/patches", headers={"Host": "e" * 5000 + ".example"})
    assert_error(status, data, 400, "...(")
    assert len(data["error"]) < 400


def test_served_on_every_address_the_host_check_still_holds():
    from patchsolve.web import machine_names, reachable_url, serving_in_thread

    names = machine_names("0.0.0.0")
    assert "127.0.0.1" in names and "localhost" in names and "0.0.0.0" not in names
    assert "evil.example" not in names
    assert "0.0.0.0" not in reachable_url("0.0.0.0", 8767) and reachable_url("0.0.0.0", 8767).endswith(
        ":8767/"
    )
    with serving_in_thread("0.0.0.0", 0) as (url, _server):
        local = url.replace("0.0.0.0", "127.0.0.1")
        assert call(local, "/api/patches")[0] == 200
        assert_error(*call(local, "/api/patches", headers={"Host": "evil.example:8767"}), 400, "evil.example")
        assert_error(*call(local, "/api/patches", headers={"Host": "127.0.0.1.evil.example"}), 400)


# -- Stop keeps what was found -------------------------------------------------------------------


def test_an_mcts_search_stopped_before_its_first_slice_still_answers(base):
    status, job = call(base, "/api/search", {"game": {}, "engine": "mcts", "time": 20})
    assert status == 202
    time.sleep(0.3)
    t0 = time.monotonic()
    assert call(base, f"/api/jobs/{job['id']}/stop", {})[0] == 200
    job = wait_job(base, job)
    assert time.monotonic() - t0 < 6
    assert job["status"] in ("stopped", "done") and job["result"] is not None, job
    assert job["result"]["best_move"] in {str(m) for m in START.legal_moves()}


class FakeSearchProcess:
    """The pipe to a search process that reports once, then thinks until killed."""

    def __init__(self, report):
        self.messages = [("progress", report)]

    def send(self, message):
        pass

    def poll(self, timeout):
        if not self.messages:
            time.sleep(timeout)
        return bool(self.messages)

    def recv(self):
        return self.messages.pop(0)

    def close(self):
        pass


@pytest.mark.parametrize(
    "report,kept",
    [
        (
            {"position": 3, "positions": 10, "partial": {"moves": [{"move": "walk"}], "partial": True}},
            {"moves": [{"move": "walk"}], "partial": True},
        ),
        ({"position": 3, "positions": 10}, None),  # a report without the review so far: nothing to keep
    ],
)
def test_a_stopped_review_keeps_the_positions_already_reviewed(monkeypatch, report, kept):
    from patchsolve.web.jobs import JobRunner

    runner = JobRunner()
    monkeypatch.setattr(runner, "_ensure_process", lambda: FakeSearchProcess(report))
    job = runner.submit("analyze", {}, 30)
    deadline = time.monotonic() + 10
    while job.progress is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    runner.stop(job.id)
    while job.status == "running":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert job.status == "stopped" and job.result == kept


def test_a_search_process_that_cannot_start_ends_the_job_with_an_error(monkeypatch):
    from patchsolve.web.jobs import JobRunner

    def cannot_start():
        raise RuntimeError("no process today")

    runner = JobRunner()
    monkeypatch.setattr(runner, "_ensure_process", cannot_start)
    job = runner.submit("search", {}, 1)
    deadline = time.monotonic() + 10
    while job.status == "running":  # not running for ever, so the engine is not busy for ever
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert job.status == "error" and "no process today" in job.error
    runner.kill()


# -- analysis: levels, the quilt map, explain ------------------------------------------


def test_a_search_at_a_level_plays_that_levels_move(base):
    from patchsolve.review.levels import level_move

    game = Game.read(GOLDEN)
    ply = 12
    record = {"start": None, "moves": [str(m) for m in game.moves]}
    status, job = call(base, "/api/search", {"game": record, "ply": ply, "time": 1, "level": 3})
    assert status == 202, job
    job = wait_job(base, job)
    assert job["status"] == "done" and job["result"]["level"] == 3
    assert job["result"]["best_move"] == str(level_move(game.position(ply), 3, seed=ply)[0])
    status, data = call(base, "/api/search", {"game": record, "ply": ply, "level": 11})
    assert_error(status, data, 400, "level")


def test_the_quilt_map(base):
    status, m = call(base, "/api/map", {"game": {"moves": []}})
    assert status == 200, m
    assert len(m["grids"]) == 2 and all(len(g) == 9 for g in m["grids"])
    assert m["samples"] == 1000 and xml.dom.minidom.parseString(m["svg"])


def test_explain_a_move_and_refuse_a_bad_one(base):
    start = ps.Position.start(seed=0)
    status, e = call(base, "/api/explain", {"game": {"moves": []}, "move": "4:0@a1", "nodes": 5_000})
    assert status == 200, e
    assert e["played"]["move"] == "4:0@a1" and e["text"].startswith("best ")
    assert e["position"] == start.to_text()
    status, data = call(base, "/api/explain", {"game": {"moves": []}, "move": "32:0@a1"})
    assert_error(status, data, 422)
    status, data = call(base, "/api/explain", {"game": {"moves": []}, "move": "walk", "nodes": 10**9})
    assert_error(status, data, 400, "nodes")


def run_job(base, path, body):
    """Start a job and wait for its end: (its final state)."""
    status, job = call(base, path, body)
    assert status == 202, job
    return wait_job(base, job)


def test_practise_the_mistakes_of_a_review(base):
    from patchsolve.review.analysis import analyze_game

    review = analyze_game(Game.read(GOLDEN), depth=2)
    moves = [m.to_dict() for m in review.moves]
    q = run_job(base, "/api/quiz", {"moves": moves, "threshold": 3, "player": 0})
    assert q["kind"] == "quiz" and q["status"] == "done", q
    ex = q["result"]["exercises"]
    assert ex and all(e["player"] == 0 and e["played_loss"] > 3 for e in ex)
    g = run_job(base, "/api/quiz/grade", {"exercise": ex[0], "move": ex[0]["best"]})
    assert g["kind"] == "grade" and g["result"]["correct"] and g["result"]["loss"] == 0, g
    g = run_job(base, "/api/quiz/grade", {"exercise": ex[0], "move": ex[0]["played"]})
    assert g["result"]["loss"] > 0 and not g["result"]["correct"], g
    assert all(a["move"] != e["played"] for e in ex for a in e["acceptable"])  # never the move played
    foreign = {
        **ex[0],
        "budget": {**ex[0]["budget"], "nodes": 10**7},
    }  # the server's budget, not the client's
    assert_error(*call(base, "/api/quiz/grade", {"exercise": foreign, "move": "walk"}), 400, "nodes")
    # bad input: clear errors at once, never a 500 nor a job
    assert_error(*call(base, "/api/quiz/grade", {"exercise": {"x": 1}, "move": "walk"}), 400, "fields")
    assert_error(*call(base, "/api/quiz/grade", {"exercise": ex[0], "move": "fly"}), 422)
    assert_error(*call(base, "/api/quiz", {"moves": [{"number": 1}]}), 422, "needs")
    assert_error(*call(base, "/api/quiz", {"moves": moves, "player": 2}), 400, "player")


@pytest.mark.parametrize(
    "change, needle",
    [
        # the search behind a grade is the server's: the new-user report's depth 40 ran for ever in the server
        ({"budget": {"nodes": 10**9, "depth": None, "recheck": 4}}, "valued at 100000 nodes"),
        ({"budget": {"nodes": None, "depth": 40, "recheck": 4}}, "valued at 100000 nodes"),
        ({"budget": {"nodes": 100_000, "depth": None, "recheck": 100}}, "valued at 100000 nodes"),
        ({"budget": "lots"}, "valued at 100000 nodes"),
        ({"depth": 2.5}, "'depth' must be a number"),
        ({"depth": 10**6}, "'depth' must be in"),
        ({"number": -1}, "'number'"),
        ({"player": 2}, "'player'"),
        ({"best_value": float("inf")}, "'best_value'"),
        ({"played_loss": float("nan")}, "'played_loss'"),
        ({"position": "x" * 30_000}, "'position' is over"),
        ({"best": "w" * 100}, "'best'"),
        ({"acceptable": [{"move": "walk", "value": 0}] * 100}, "'acceptable'"),
        ({"acceptable": [{"move": "walk", "value": "a lot"}]}, "'value'"),
        ({"pv": ["walk"] * 1000}, "'pv'"),
        ({"pv": [1, 2]}, "'pv'"),
    ],
)
def test_a_grading_request_is_checked_against_the_servers_limits(base, change, needle):
    """Every number of the exercise a page sends back is checked before any
    search: a 400 naming the field, no job started."""
    from patchsolve.review.judge import Budget
    from patchsolve.web.app import QUIZ_NODES

    exercise = {
        "number": 1,
        "player": 0,
        "position": START.to_text(),
        "played": "walk",
        "played_loss": 5,
        "best": "walk",
        "best_value": 0,
        "bound": "estimate",
        "depth": 2,
        "acceptable": [],
        "pv": [],
        "budget": Budget(nodes=QUIZ_NODES).to_dict(),
    }
    status, data = call(base, "/api/quiz/grade", {"exercise": {**exercise, **change}, "move": "walk"})
    assert_error(status, data, 400, needle)


def test_a_discarded_search_frees_the_engine_at_once(base):
    """The page moved on: the stop ends the job before it answers, so the
    next search is not refused as busy."""
    status, job = call(base, "/api/search", {"game": {"moves": []}, "time": 20})
    assert status == 202, job
    status, stopped = call(base, f"/api/jobs/{job['id']}/stop", {"discard": True})
    assert status == 200 and stopped["status"] == "stopped", stopped
    status, job = call(base, "/api/search", {"game": {"moves": []}, "time": 0.1, "depth": 1})
    assert status == 202, job
    assert wait_job(base, job)["status"] == "done"
    assert_error(*call(base, f"/api/jobs/{job['id']}/stop", {"discard": "yes"}), 400, "discard")


# -- serve --lan: the access token ---------------------------------------------------------------


def test_a_server_with_a_token_refuses_requests_without_it():
    from patchsolve.web import serving_in_thread
    from patchsolve.web.app import token_cookie

    token = "s3cret-token-for-this-test"
    with serving_in_thread("127.0.0.1", 0, token=token) as (url, _server):
        port = int(url.rsplit(":", 1)[1])
        for path in ("/", "/static/app.js", "/api/patches"):
            assert_error(*call(url, path), 401, "access token")
            assert_error(*call(url, path, headers={"X-Patchsolve-Token": "guess"}), 403, "wrong access token")
            assert call(url, path, headers={"X-Patchsolve-Token": token})[0] == 200
        assert_error(*call(url, "/api/patches", headers={"Cookie": f"{token_cookie(port)}=guess"}), 403)
        assert call(url, "/api/patches", headers={"Cookie": f"{token_cookie(port)}={token}"})[0] == 200
        assert_error(*call(url, "/api/patches?token=nope"), 403)
        # a foreign Host is refused first, token or not (DNS rebinding)
        status, data = call(
            url, "/api/patches", headers={"X-Patchsolve-Token": token, "Host": "evil.example"}
        )
        assert_error(status, data, 400, "not served here")
        # the address printed carries the token once: the page sets the cookie and drops it from the address
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/?token={token}")
        r = conn.getresponse()
        assert r.status == 303 and r.getheader("location") == "/"
        cookie = r.getheader("set-cookie")
        assert cookie.startswith(f"{token_cookie(port)}={token};") and "HttpOnly" in cookie
        assert "SameSite=Strict" in cookie
        conn.close()


def test_the_search_process_runs_at_a_lower_priority_than_the_server():
    """The searches yield the CPU to the server (benchmarks/results/web_server.md: its answers stay fast)."""
    import os
    import sys

    from patchsolve.web.jobs import JobRunner
    from patchsolve.web.worker import NICENESS

    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    runner = JobRunner()
    try:
        job = runner.submit(
            "search", {"position": START.to_text(), "engine": "alphabeta", "time": 0.05, "depth": 1}, 1
        )
        deadline = time.monotonic() + 30
        while job.status == "running":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        stat = open(f"/proc/{runner._proc.pid}/stat").read()
        nice = int(stat.rsplit(")", 1)[1].split()[16])
        assert nice == min(19, os.nice(0) + NICENESS)
    finally:
        runner.kill()
